package config

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// HookPoints are the points a hook may name (engine/hooks defines what
// each may decide).
var HookPoints = []string{"before_run", "after_resolution", "after_planning", "before_execution", "after_execution", "after_answer"}

// Hook is one entry of hooks: a built-in rule or an external HTTP hook.
type Hook struct {
	Name string
	// Points lists where the hook runs; empty for a rule means "where its
	// parts act" (see engine/hooks.Rule).
	Points []string
	// OnErrorOpen (on_error: open) turns a hook error or timeout into
	// allow; the default (closed) denies.
	OnErrorOpen bool
	Timeout     time.Duration // timeout_ms; 0 means the hooks default (2 s)
	Rule        *HookRule
	HTTP        *HookHTTP
}

// HookRule is a built-in rule (see engine/hooks.Rule for each part's point).
type HookRule struct {
	QuestionPatterns []string       // Go regular expressions, checked at load
	DenyTables       []string       // "ds.schema.table"
	DenyColumns      []string       // "ds.schema.table.column"
	ApprovalTables   []string       // "ds.schema.table": require approval
	RowCaps          map[string]int // role → most rows, > 0
	Window           string         // "HH:MM-HH:MM" UTC
}

// HookHTTP is an external hook: POST JSON, answer a JSON decision.
type HookHTTP struct {
	URL    string
	Secret string // HMAC-SHA256 key for the X-NL2SQL-Signature header
}

// Approvals configures who may approve runs a hook stopped.
type Approvals struct {
	ApproverRoles []string
}

type fileHook struct {
	Name      string        `koanf:"name"`
	Points    []string      `koanf:"points"`
	OnError   string        `koanf:"on_error"`
	TimeoutMS *int          `koanf:"timeout_ms"`
	Rule      *fileHookRule `koanf:"rule"`
	HTTP      *fileHookHTTP `koanf:"http"`
}

type fileHookRule struct {
	QuestionPatterns []string       `koanf:"question_patterns"`
	DenyTables       []string       `koanf:"deny_tables"`
	DenyColumns      []string       `koanf:"deny_columns"`
	ApprovalTables   []string       `koanf:"approval_tables"`
	RowCaps          map[string]int `koanf:"row_caps"`
	Window           string         `koanf:"window"`
}

type fileHookHTTP struct {
	URL    string `koanf:"url"`
	Secret string `koanf:"secret"`
}

type fileApprovals struct {
	ApproverRoles []string `koanf:"approver_roles"`
}

var window = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$`)

// buildHooks validates and copies hooks and approvals into c.
func buildHooks(fc *fileConfig, c *Config, bad func(key, format string, args ...any)) {
	names := map[string]bool{}
	for i, h := range fc.Hooks {
		key := fmt.Sprintf("hooks[%d]", i)
		out := Hook{Name: h.Name, Points: h.Points}
		switch {
		case h.Name == "":
			bad(key+".name", "missing")
		case names[h.Name]:
			bad(key+".name", "%q is already the name of another hook", h.Name)
		}
		names[h.Name] = true
		for j, p := range h.Points {
			if !slices.Contains(HookPoints, p) {
				bad(fmt.Sprintf("%s.points[%d]", key, j), "unknown point %q (one of %v)", p, HookPoints)
			}
		}
		switch h.OnError {
		case "", "closed":
		case "open":
			out.OnErrorOpen = true
		default:
			bad(key+".on_error", "%q must be open or closed", h.OnError)
		}
		if h.TimeoutMS != nil {
			out.Timeout = time.Duration(intSetting(bad, key+".timeout_ms", h.TimeoutMS, 0, 1, "greater than 0")) * time.Millisecond
		}
		switch {
		case (h.Rule == nil) == (h.HTTP == nil):
			bad(key, "set exactly one of rule and http")
		case h.Rule != nil && len(h.Points) > 0:
			bad(key+".points", "a rule acts at the points of its parts (question patterns before the run, tables after planning, approvals before execution, row caps after execution); points are for http hooks")
		case h.HTTP != nil:
			u, err := url.Parse(h.HTTP.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				bad(key+".http.url", "%q must be an http(s) URL", h.HTTP.URL)
			}
			if len(h.Points) == 0 {
				bad(key+".points", "missing (an http hook names its points)")
			}
			out.HTTP = &HookHTTP{URL: h.HTTP.URL, Secret: h.HTTP.Secret}
		default:
			out.Rule = buildRule(key+".rule", h.Rule, c.Datasources, bad)
		}
		c.Hooks = append(c.Hooks, out)
	}
	if fc.Approvals != nil {
		for i, r := range fc.Approvals.ApproverRoles {
			if _, ok := c.Roles[r]; !ok {
				bad(fmt.Sprintf("approvals.approver_roles[%d]", i), "unknown role %q", r)
			}
		}
		c.Approvals.ApproverRoles = fc.Approvals.ApproverRoles
	}
}

func buildRule(key string, r *fileHookRule, sources []Datasource, bad func(key, format string, args ...any)) *HookRule {
	ids := map[string]bool{}
	for _, d := range sources {
		ids[d.ID] = true
	}
	// A table or column a rule names must be written in full and on a
	// configured datasource: a rule whose name matches nothing would
	// protect nothing, silently.
	names := func(field string, list []string, parts int, shape string) {
		for i, n := range list {
			f := strings.Split(n, ".")
			empty := slices.Contains(f, "")
			switch {
			case len(f) != parts || empty:
				bad(fmt.Sprintf("%s.%s[%d]", key, field, i), "%q must be written %s", n, shape)
			case !ids[f[0]]:
				bad(fmt.Sprintf("%s.%s[%d]", key, field, i), "%q: no datasource %q is configured", n, f[0])
			}
		}
	}
	if len(r.QuestionPatterns)+len(r.DenyTables)+len(r.DenyColumns)+len(r.ApprovalTables)+len(r.RowCaps) == 0 && r.Window == "" {
		bad(key, "the rule is empty, so it does nothing: give question_patterns, deny_tables, deny_columns, approval_tables, row_caps or window")
	}
	names("deny_tables", r.DenyTables, 3, "datasource.schema.table (e.g. chinook.main.Employee)")
	names("approval_tables", r.ApprovalTables, 3, "datasource.schema.table (e.g. chinook.main.Employee)")
	names("deny_columns", r.DenyColumns, 4, "datasource.schema.table.column (e.g. chinook.main.Customer.Email)")
	for i, p := range r.QuestionPatterns {
		if _, err := regexp.Compile(p); err != nil {
			bad(fmt.Sprintf("%s.question_patterns[%d]", key, i), "%v", err)
		}
	}
	for role, n := range r.RowCaps {
		if n <= 0 {
			bad(key+".row_caps."+role, "%d must be greater than 0", n)
		}
	}
	if r.Window != "" && !window.MatchString(r.Window) {
		bad(key+".window", "%q must be HH:MM-HH:MM (UTC)", r.Window)
	}
	return &HookRule{QuestionPatterns: r.QuestionPatterns, DenyTables: r.DenyTables, DenyColumns: r.DenyColumns,
		ApprovalTables: r.ApprovalTables, RowCaps: r.RowCaps, Window: r.Window}
}
