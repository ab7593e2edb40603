package hooks

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Rule is a built-in hook configured in nl2sql.yaml. Each part acts at its
// own point and is skipped elsewhere:
//
//	before_run:       QuestionPatterns (deny on a match), Window (deny outside it)
//	after_planning:   DenyTables, DenyColumns (deny when the plan reads one)
//	before_execution: ApprovalTables (require approval when the plan reads one)
//	after_execution:  RowCaps (deny when the result has more rows than the caller's cap)
//
// Table names are "datasource.schema.table", columns
// "datasource.schema.table.column", compared case-insensitively and
// exactly (no wildcards: access patterns are scope's alone).
type Rule struct {
	QuestionPatterns []*regexp.Regexp
	DenyTables       []string
	DenyColumns      []string
	ApprovalTables   []string
	// RowCaps maps a role to the most rows a caller holding it may receive;
	// a caller's cap is the largest of their roles' caps (no capped role:
	// no cap).
	RowCaps map[string]int
	// Window, when set, is the daily UTC span questions are accepted in.
	Window *Window
}

// Window is a daily span [From, To) in minutes after midnight UTC; From >
// To wraps past midnight.
type Window struct{ From, To int }

// ParseWindow parses "HH:MM-HH:MM" (UTC).
func ParseWindow(s string) (*Window, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return nil, fmt.Errorf("window %q: want HH:MM-HH:MM (UTC)", s)
	}
	from, err := minutes(a)
	if err != nil {
		return nil, fmt.Errorf("window %q: %w", s, err)
	}
	to, err := minutes(b)
	if err != nil {
		return nil, fmt.Errorf("window %q: %w", s, err)
	}
	return &Window{From: from, To: to}, nil
}

func minutes(s string) (int, error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// contains reports whether t's UTC time of day is inside the window.
func (w *Window) contains(t time.Time) bool {
	m := t.UTC().Hour()*60 + t.UTC().Minute()
	if w.From <= w.To {
		return m >= w.From && m < w.To
	}
	return m >= w.From || m < w.To
}

// Decide applies the parts of r that act at in.Point.
func (r *Rule) Decide(_ context.Context, in Input) (Decision, error) {
	switch in.Point {
	case BeforeRun:
		for _, re := range r.QuestionPatterns {
			if re.MatchString(in.Question) {
				return Decision{Action: Deny, Reason: "the question matches " + re.String()}, nil
			}
		}
		if r.Window != nil {
			t, err := time.Parse(time.RFC3339Nano, in.Time)
			if err != nil {
				return Decision{}, fmt.Errorf("run time %q: %w", in.Time, err)
			}
			if !r.Window.contains(t) {
				return Decision{Action: Deny, Reason: "outside the accepted hours"}, nil
			}
		}
	case AfterPlanning:
		if t := firstIn(in.Tables, r.DenyTables); t != "" {
			return Decision{Action: Deny, Reason: "the plan reads table " + t}, nil
		}
		if c := firstIn(in.ReadColumns, r.DenyColumns); c != "" {
			return Decision{Action: Deny, Reason: "the plan reads column " + c}, nil
		}
	case BeforeExecution:
		if t := firstIn(in.Tables, r.ApprovalTables); t != "" {
			return Decision{Action: RequireApproval, Reason: "the plan reads table " + t}, nil
		}
	case AfterExecution:
		if limit, ok := r.capFor(in.Roles); ok && in.RowCount > limit {
			return Decision{Action: Deny, Reason: fmt.Sprintf("%d rows exceed the cap of %d", in.RowCount, limit)}, nil
		}
	}
	return Decision{Action: Allow}, nil
}

// Points lists the points at which r has something to decide.
func (r *Rule) Points() []Point {
	var ps []Point
	if len(r.QuestionPatterns) > 0 || r.Window != nil {
		ps = append(ps, BeforeRun)
	}
	if len(r.DenyTables) > 0 || len(r.DenyColumns) > 0 {
		ps = append(ps, AfterPlanning)
	}
	if len(r.ApprovalTables) > 0 {
		ps = append(ps, BeforeExecution)
	}
	if len(r.RowCaps) > 0 {
		ps = append(ps, AfterExecution)
	}
	return ps
}

// capFor is the largest cap among roles, if any role is capped.
func (r *Rule) capFor(roles []string) (int, bool) {
	best, ok := 0, false
	for _, role := range roles {
		if c, has := r.RowCaps[role]; has && (!ok || c > best) {
			best, ok = c, true
		}
	}
	return best, ok
}

// firstIn returns the first of names that is in list (case-insensitive).
func firstIn(names, list []string) string {
	for _, n := range names {
		if slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, n) }) {
			return n
		}
	}
	return ""
}
