package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/internal/plural"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/scope"
)

// DoctorSchema is the tiny strict schema of the doctor's model call: an
// object with one boolean "ok".
var DoctorSchema = json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)

// Doctor checks that the config at cfgPath is usable (nl2sql doctor) and
// prints one line per check to out, "NAME: ok[ (detail)]" or
// "NAME: FAILED: reason":
//
//	config nl2sql.yaml: ok
//	datasource chinook (sqlite): ok (11 tables)
//	llm.default (ollama qwen2.5-coder:7b at http://127.0.0.1:11434): ok (answered in 1.2 s)
//
// The checks: the config loads; the state store opens and can be
// written (storage.path or storage.postgres); every datasource opens, its
// schema snapshot reads and its semantic file, if any, matches it (a
// datasource error's hint is on its line); with roles, every allow and
// deny pattern and row-filter table matches something in its datasource
// (one FAILED line each, with the closest real name), every row filter can
// be applied (its columns exist and its role reads them, every user
// holding the role has each attribute it binds), and the views a
// role's patterns allow but the view rule hides are counted per
// datasource and role, the first few named with the table each needs
// (an ok line: the policy at work, which an administrator missing a
// view needs to learn); every llm
// entry answers one tiny structured request (DoctorSchema) — a replay
// entry loads its recordings instead. Live calls
// follow the entry's retry policy, as real calls do (max_retries; 429, 5xx,
// timeouts and connection errors retried, Retry-After honoured), each call
// and the retries together within the entry's timeout_seconds and
// retry_max_seconds or 20 s, whichever is shorter; the detail says how many
// retries it took ("answered in 0.2 s, 31+4 tokens, after 1 retry"). It
// returns an error naming the failed checks if any failed. API keys are
// never printed.
func Doctor(ctx context.Context, cfgPath string, out io.Writer) error {
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		fmt.Fprintf(out, "config %s: FAILED: %s\n", cfgPath, oneLine(err))
		return fmt.Errorf("the config does not load")
	}
	return DoctorConfig(ctx, cfg, cfgPath, out)
}

// DoctorConfig is Doctor for a loaded configuration (a file's, shown as
// label, or ConfigFromDatabases'). Without llm.plan and llm.default the
// planning check says the host plans, and passes.
func DoctorConfig(ctx context.Context, cfg *config.Config, label string, out io.Writer) error {
	fmt.Fprintf(out, "config %s: ok\n", label)
	var failed []string
	check := func(name string, detail string, err error) {
		if err != nil {
			fmt.Fprintf(out, "%s: FAILED: %s\n", name, oneLine(withHint(err)))
			failed = append(failed, name)
			return
		}
		if detail != "" {
			detail = " (" + detail + ")"
		}
		fmt.Fprintf(out, "%s: ok%s\n", name, detail)
	}
	if len(cfg.Datasources) == 0 {
		check("datasources", "", errors.New("none configured: add one under datasources"))
	}
	detail, err := checkStorage(ctx, cfg)
	check("storage", detail, err)
	snaps := map[string]*schema.Snapshot{}
	for _, spec := range datasourceSpecs(cfg) {
		snap, err := checkDatasource(ctx, spec)
		n, views := 0, 0
		if snap != nil {
			n, views, snaps[spec.ID] = len(snap.Tables), snap.Views(), snap
		}
		label := fmt.Sprintf("datasource %s (%s)", spec.ID, spec.Engine)
		if spec.Path != "" && spec.Engine != "postgres" {
			// the file it tried: a person runs doctor, and a wrong path is
			// the usual fault (the adapter's error names no path, for clients)
			label = fmt.Sprintf("datasource %s (%s %s)", spec.ID, spec.Engine, spec.Path)
		}
		check(label, plural.Relations(n, views), err)
	}
	checkAccess(cfg, snaps, check)
	checkVerified(ctx, cfg, check)
	for _, h := range cfg.Hooks {
		if h.Rule != nil {
			check("hook "+h.Name, "", checkRuleNames(h.Rule, snaps))
		}
	}
	if HostPlanning(cfg) {
		check("planning", "host: no llm section, so the assistant plans through get_plan_schema and run_plan; ask returns the schema context", nil)
	}
	for _, step := range llmSteps(cfg) {
		if step == EmbedStep {
			detail, err := checkEmbedder(ctx, cfg)
			check("llm.embed", detail, err)
			continue
		}
		c := cfg.LLM[step]
		name, detail, err := checkLLM(ctx, "llm."+step, c)
		check(name, detail, err)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d check(s) failed: %s", len(failed), strings.Join(failed, ", "))
	}
	return nil
}

// checkVerified reports the verified queries (curated:): how many serve,
// and each one refused with its reason, as curated validate does; the
// server leaves a refused one out with a log line only, so a doctor that
// said ok left a user puzzled why ask never offered it.
func checkVerified(ctx context.Context, cfg *config.Config, check func(name, detail string, err error)) {
	set, refused, err := curated.Open(ctx, cfg)
	if err != nil {
		check("verified queries", "", err)
		return
	}
	if set == nil {
		return // none configured
	}
	for _, r := range refused {
		check("verified query "+r.ID, "", fmt.Errorf("%s (the server leaves it out; nl2sql curated validate lists every refusal)", r.Err.Error()))
	}
	if len(set.Queries()) == 0 && len(refused) > 0 {
		check("verified queries", "", fmt.Errorf("none of the %s serves", plural.Count(len(refused), "verified query", "verified queries")))
		return
	}
	check("verified queries", plural.Count(len(set.Queries()), "query serves", "queries serve"), nil)
}

// withHint appends the hint of a datasource error (source.Error keeps it
// apart from its message, which ask and the tools show as a field) so the
// doctor line says what to do, as every other surface does.
func withHint(err error) error {
	var se *source.Error
	if errors.As(err, &se) && se.Hint != "" && !strings.Contains(err.Error(), se.Hint) {
		return fmt.Errorf("%w (hint: %s)", err, se.Hint)
	}
	return err
}

// checkStorage opens the state store and closes it, or, where there is
// none yet, checks that it could be made there, creating nothing: a
// diagnostic run in the wrong directory (or of a config not yet finished)
// must not leave a state directory behind. A store that cannot be written
// leaves the server without plan cache, stored snapshots, traces and
// approvals, and index with nothing to do: doctor fails rather than let
// serve degrade silently.
func checkStorage(ctx context.Context, cfg *config.Config) (string, error) {
	if cfg.Storage.Postgres != "" {
		st, err := store.OpenPostgres(ctx, cfg.Storage.Postgres)
		if err != nil {
			return "", fmt.Errorf("storage.postgres: %w (hint: check the DSN and that the role may create tables)", err)
		}
		defer st.Close()
		return "postgres " + st.Path(), nil
	}
	file := filepath.Join(cfg.Storage.Path, store.FileName)
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		if err := canCreate(cfg.Storage.Path, cfg.Storage.PathAsWritten); err != nil {
			return "", fmt.Errorf("%w (hint: set storage.path, or --storage, to a writable directory)", err)
		}
		return file + " does not exist yet; serve and ask create it there", nil
	}
	st, err := store.Open(ctx, cfg.Storage.Path, store.WithDisplayPath(cfg.Storage.PathAsWritten))
	if err != nil {
		return "", fmt.Errorf("%w (hint: set storage.path, or --storage, to a writable directory)", err)
	}
	defer st.Close()
	return st.Path(), nil
}

// canCreate checks that the directory dir (shown as display) could be
// created with a store in it, creating nothing: its nearest existing
// ancestor must be a directory one may write in, which a file made there
// and removed at once shows.
func canCreate(dir, display string) error {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist) && filepath.Dir(d) != d:
			continue
		case err != nil:
			return fmt.Errorf("cannot create the state store directory %s: %w", display, err)
		case !fi.IsDir():
			return fmt.Errorf("cannot create the state store directory %s: %s is a file", display, d)
		}
		f, err := os.CreateTemp(d, ".nl2sql-probe-*")
		if err != nil {
			return fmt.Errorf("cannot create the state store directory %s: %s cannot be written", display, d)
		}
		f.Close()
		return os.Remove(f.Name())
	}
}

// checkAccess fails one line per allow or deny pattern, or row filter
// table, that matches nothing in its datasource's snapshot: a typo there
// leaves the data meant to be hidden readable (scope.Unmatched); and one
// per row filter that cannot be applied (a column its table lacks or its
// role may not read, an attribute a user holding the role lacks;
// scope.FilterProblems), which refuses every query of that table while
// telling the caller only ACCESS_DENIED.
func checkAccess(cfg *config.Config, snaps map[string]*schema.Snapshot, check func(name, detail string, err error)) {
	if !cfg.Secured() {
		return
	}
	pol, err := scope.New(cfg.Access())
	if err != nil {
		check("access policy", "", err)
		return
	}
	n := 0
	for _, u := range AccessProblems(pol, cfg, snaps) {
		check("access "+u.Key, "", errors.New(u.String()+" (fix the pattern in "+cfg.File+")"))
		n++
	}
	for _, d := range cfg.Datasources {
		for _, fp := range pol.FilterProblems(snaps[d.ID]) {
			check("access "+fp.Key, "", errors.New(fp.String()+" (fix it in "+cfg.File+")"))
			n++
		}
	}
	switch {
	case n > 0:
	case len(snaps) < len(cfg.Datasources):
		// a datasource that did not open was not checked: no "ok" for it
		check("access policy", fmt.Sprintf("every pattern and row filter matches the schema of the %d datasource(s) that opened", len(snaps)), nil)
	default:
		check("access policy", "every pattern and row filter matches the schema", nil)
	}
	checkHiddenViews(pol, cfg, snaps, check)
}

// hiddenViewsShown is how many hidden views a line names; the count says
// how many more there are.
const hiddenViewsShown = 3

// checkHiddenViews says, per datasource and role, which views the role's
// patterns allow but the view rule hides (scope.HiddenViews), with the
// table each lacks: the view is simply missing from what the role is
// shown, and an administrator would otherwise hunt for a typo that is not
// there. It is the policy working, so the line is ok.
func checkHiddenViews(pol *scope.Policy, cfg *config.Config, snaps map[string]*schema.Snapshot, check func(name, detail string, err error)) {
	for _, d := range cfg.Datasources {
		var roles []string
		byRole := map[string][]scope.HiddenView{}
		for _, h := range pol.HiddenViews(snaps[d.ID]) {
			if byRole[h.Role] == nil {
				roles = append(roles, h.Role)
			}
			byRole[h.Role] = append(byRole[h.Role], h)
		}
		for _, role := range roles {
			hs := byRole[role]
			var names []string
			for _, h := range hs[:min(len(hs), hiddenViewsShown)] {
				names = append(names, fmt.Sprintf("%s.%s needs %s.%s", h.View.Schema, h.View.Name, h.Lacks.Schema, h.Lacks.Name))
			}
			if more := len(hs) - len(names); more > 0 {
				names = append(names, fmt.Sprintf("and %d more", more))
			}
			check(fmt.Sprintf("views of %s hidden from role %s", d.ID, role), fmt.Sprintf(
				"%s: %s; a role reads a view only when it reads every table the view reads whole, or names the view in allow",
				plural.Count(len(hs), "view", "views"), strings.Join(names, ", ")), nil)
		}
	}
}

// AccessProblems lists the unmatched patterns of pol over the snapshots,
// datasource by datasource in config order.
func AccessProblems(pol *scope.Policy, cfg *config.Config, snaps map[string]*schema.Snapshot) []scope.Unmatched {
	var out []scope.Unmatched
	for _, d := range cfg.Datasources {
		out = append(out, pol.Unmatched(snaps[d.ID])...)
	}
	return out
}

// integrityChecker is a source that can check its storage for damage
// (SQLite's quick check).
type integrityChecker interface {
	CheckIntegrity(ctx context.Context) error
}

// checkDatasource opens the datasource, reads its snapshot and closes it.
func checkDatasource(ctx context.Context, spec engine.DatasourceSpec) (*schema.Snapshot, error) {
	ctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	src, err := OpenSource(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	snap, err := src.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if len(snap.Tables) == 0 {
		return nil, errors.New("the database has no tables")
	}
	// a damaged page fails only the queries that read it: the file opened
	// and its schema read say nothing about it
	if ic, ok := src.(integrityChecker); ok {
		if err := ic.CheckIntegrity(ctx); err != nil {
			return nil, err
		}
	}
	if spec.Semantic != "" {
		// A semantic file that does not match the schema keeps the
		// datasource from opening (engine.New), so doctor fails it too.
		name := spec.SemanticName
		if name == "" {
			name = spec.Semantic
		}
		if _, err := semantic.Load(spec.Semantic, name, snap); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// checkRuleNames reports the tables and columns a rule names that its
// datasource's snapshot lacks (compared as the rule matches them, case
// aside): such a name matches nothing, so the rule protects nothing there.
// Datasources that did not open are left to their own check.
func checkRuleNames(r *config.HookRule, snaps map[string]*schema.Snapshot) error {
	var missing []string
	find := func(n string, column bool) {
		f := strings.Split(n, ".")
		snap, ok := snaps[f[0]]
		if !ok || len(f) < 3 {
			return
		}
		for _, t := range snap.Tables {
			if !strings.EqualFold(t.Schema, f[1]) || !strings.EqualFold(t.Name, f[2]) {
				continue
			}
			if !column {
				return
			}
			for _, c := range t.Columns {
				if strings.EqualFold(c.Name, f[3]) {
					return
				}
			}
		}
		missing = append(missing, n)
	}
	for _, n := range append(append([]string(nil), r.DenyTables...), r.ApprovalTables...) {
		find(n, false)
	}
	for _, n := range r.DenyColumns {
		find(n, true)
	}
	if len(missing) > 0 {
		return fmt.Errorf("the rule names what no datasource has, so it matches nothing there: %s", strings.Join(missing, ", "))
	}
	return nil
}

// checkLLM sends the doctor's request to one llm entry (or loads a replay
// entry's recordings) and names the check.
func checkLLM(ctx context.Context, label string, c config.LLMConfig) (name, detail string, err error) {
	switch c.Provider {
	case "replay":
		name = fmt.Sprintf("%s (replay %s)", label, c.RecordingsAsWritten)
	case "ollama":
		host := c.Host
		if host == "" {
			host = c.BaseURL
		}
		if host == "" {
			host = "http://127.0.0.1:11434"
		}
		name = fmt.Sprintf("%s (ollama %s at %s)", label, c.Model, host)
	default:
		base := c.BaseURL
		if base == "" {
			base = "https://api.openai.com/v1"
		}
		name = fmt.Sprintf("%s (%s %s at %s)", label, c.Provider, c.Model, base)
	}
	// The entry's own retry policy, as real calls use it, so that a 429 or
	// a 5xx that a retry would get past does not fail the check; its time
	// budget and each call's timeout are capped at doctor's, since a health
	// check answers quickly or reports.
	realBudget := c.RetryMaxSeconds
	if c.TimeoutSeconds <= 0 || c.TimeoutSeconds > doctorTimeoutSeconds {
		c.TimeoutSeconds = doctorTimeoutSeconds
	}
	if c.RetryMaxSeconds <= 0 || c.RetryMaxSeconds > doctorTimeoutSeconds {
		c.RetryMaxSeconds = doctorTimeoutSeconds
	}
	p, err := providerFor(label, c, slog.New(slog.DiscardHandler))
	if err != nil {
		return name, "", err
	}
	if rp, ok := p.(*llm.Replay); ok {
		return name, fmt.Sprintf("%d recordings", len(rp.Recordings())), nil
	}
	req := llm.Request{Step: "doctor", Intent: "doctor", SchemaName: "doctor", Schema: DoctorSchema,
		Messages: []llm.Message{
			{Role: "system", Content: "You are a health check. Answer with one JSON object that matches the given schema."},
			{Role: "user", Content: `Answer {"ok": true}.`},
		}}
	retries := 0
	req.BeforeRetry = func(int) error { retries++; return nil }
	start := time.Now()
	resp, err := p.Complete(ctx, req)
	if err != nil {
		// Retries left but the time budget spent: real calls, with a
		// longer budget, might still have got through.
		if retries < c.MaxRetries && realBudget > c.RetryMaxSeconds && retryable(err) {
			return name, "", fmt.Errorf("%w (doctor retries for at most %d s; real calls for %d s)", err, c.RetryMaxSeconds, realBudget)
		}
		return name, "", err
	}
	detail = fmt.Sprintf("answered in %.1f s, %d+%d tokens", time.Since(start).Seconds(), resp.Usage.InputTokens, resp.Usage.OutputTokens)
	switch retries {
	case 0:
	case 1:
		detail += ", after 1 retry"
	default:
		detail += fmt.Sprintf(", after %d retries", retries)
	}
	return name, detail, nil
}

// doctorTimeoutSeconds caps each call of doctor's check of an llm entry and
// the time its retries may take (an entry's own timeout_seconds and
// retry_max_seconds apply when shorter): a health check must report a
// silent endpoint, not wait as long as a planning call may. A variable
// only so that the test can shorten it.
var doctorTimeoutSeconds = 20

// oneLine keeps an error on one line (joined config errors have several).
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

// retryable reports whether err is a provider error the retry policy
// would retry.
func retryable(err error) bool {
	var pe *llm.ProviderError
	return errors.As(err, &pe) && pe.Retryable
}
