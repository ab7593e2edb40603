package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/scope"
)

// hookEngine is the Chinook engine with extra options.
func hookEngine(t *testing.T, set func(*Options)) *Engine {
	t.Helper()
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	o := Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000}},
		Planner:     rp,
		Today:       func() string { return "2026-01-15" },
	}
	set(&o)
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func runner(t *testing.T, entries ...hooks.Entry) *hooks.Runner {
	t.Helper()
	r, err := hooks.NewRunner(entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// analystPolicy: the local user "ana" reads chinook except Employee.
func analystPolicy(t *testing.T) *scope.Policy {
	t.Helper()
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	yaml := `datasources:
  - {id: chinook, engine: sqlite, path: ` + abs + `}
roles:
  analyst:
    allow: [chinook]
    deny: [chinook.main.Employee]
  approver:
    allow: [chinook]
users:
  - {name: ana, roles: [analyst]}
  - {name: bob, roles: [approver]}
local_user: ana
`
	pol := policyFromYAML(t, yaml)
	return pol
}

// A built-in rule refuses questions about a table: by the plan's tables
// (after_planning) and by the question's words (before_run).
func TestRuleDeniesTable(t *testing.T) {
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Invoice"}, QuestionPatterns: []*regexp.Regexp{regexp.MustCompile(`(?i)\bsalar`)}}
	e := hookEngine(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "no_invoices", Points: rule.Points(), Hook: rule})
	})
	ctx := context.Background()
	cases := []struct {
		q    string
		code Code
	}{
		{"What was the total revenue in each year?", CodeRefusedByRule}, // reads Invoice
		{"What are the salaries of the employees?", CodeRefusedByRule},  // question pattern
		{"How many customers are there in each country?", ""},           // allowed
		{"What is the average invoice total per billing country?", CodeRefusedByRule},
	}
	for _, c := range cases {
		res, err := e.Ask(ctx, AskRequest{Question: c.q})
		if codeOf(AsError(err)) != c.code {
			t.Errorf("%q: err = %v, want %q", c.q, err, c.code)
		}
		if c.code != "" && res != nil {
			t.Errorf("%q: a refused run returned rows", c.q)
		}
		if err != nil && strings.Contains(err.Error(), "Invoice") {
			t.Errorf("%q: the refusal leaks the rule's reason: %v", c.q, err)
		}
	}
}

func codeOf(e *Error) Code {
	if e == nil {
		return ""
	}
	return e.Code
}

// signedHook is a tiny external hook: it checks the HMAC header and
// answers with decide(input).
func signedHook(t *testing.T, secret string, decide func(hooks.Input) hooks.Decision) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !hooks.Verify([]byte(secret), body, r.Header.Get(hooks.SignatureHeader)) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var in hooks.Input
		if err := json.Unmarshal(body, &in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(decide(in))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// withWhere returns plan with "where" set to w.
func withWhere(t *testing.T, plan json.RawMessage, w string) json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(plan, &m); err != nil {
		t.Error(err)
	}
	m["where"] = json.RawMessage(w)
	b, _ := json.Marshal(m)
	return b
}

// An external hook adds a filter; the modified plan is validated again, so
// one that reaches a table the caller may not read is refused; the plan
// cache keeps the planner's plan.
func TestHTTPHookModifiesPlan(t *testing.T) {
	const secret = "s3cret"
	usaOnly := signedHook(t, secret, func(in hooks.Input) hooks.Decision {
		return hooks.Decision{Action: hooks.Modify, Reason: "USA only",
			Plan: withWhere(t, in.Plan, `{"kind":"binary","op":"=","left":{"kind":"column","table":"c","column":"Country"},"right":{"kind":"literal","value":"USA"}}`)}
	})
	sneaky := signedHook(t, secret, func(in hooks.Input) hooks.Decision {
		return hooks.Decision{Action: hooks.Modify, Plan: json.RawMessage(`{"select":[{"expr":{"kind":"column","table":"e","column":"LastName"},"alias":"n"}],"from":[{"table":"Employee","alias":"e"}]}`)}
	})
	pol := analystPolicy(t)
	q := "How many customers are there in each country?"
	for _, c := range []struct {
		name   string
		url    string
		secret string
		rows   int
		code   Code
	}{
		{"filter added", usaOnly.URL, secret, 1, ""},
		{"denied table refused", sneaky.URL, secret, 0, CodeRefusedByRule},
		{"wrong secret fails closed", usaOnly.URL, "other", 0, CodeRefusedByRule},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := hookEngine(t, func(o *Options) {
				o.Policy = pol
				o.Hooks = runner(t, hooks.Entry{Name: "tenant", Points: []hooks.Point{hooks.AfterPlanning},
					Hook: &hooks.HTTP{URL: c.url, Secret: []byte(c.secret)}, Timeout: 5 * time.Second})
			})
			res, err := e.Ask(context.Background(), AskRequest{Question: q})
			if codeOf(AsError(err)) != c.code {
				t.Fatalf("err = %v, want %q", err, c.code)
			}
			if c.code != "" {
				return
			}
			if res.RowCount != c.rows || res.Rows[0][0] != "USA" || !strings.Contains(res.SQL, "'USA'") {
				t.Errorf("rows %v, sql %s", res.Rows, res.SQL)
			}
		})
	}
}

// The plan cache stores the planner's plan, never a hook's change.
func TestCacheKeepsPlannerPlan(t *testing.T) {
	st := openTestStore(t)
	var calls atomic.Int32
	hook := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		calls.Add(1)
		return hooks.Decision{Action: hooks.Modify,
			Plan: withWhere(t, in.Plan, `{"kind":"binary","op":"=","left":{"kind":"column","table":"c","column":"Country"},"right":{"kind":"literal","value":"USA"}}`)}
	})
	r := runner(t, hooks.Entry{Name: "usa", Points: []hooks.Point{hooks.AfterPlanning}, Hook: &hooks.HTTP{URL: hook.URL, Secret: []byte("k")}})
	q := "How many customers are there in each country?"
	e := hookEngine(t, func(o *Options) { o.Store, o.Hooks = st, r })
	if _, err := e.Ask(context.Background(), AskRequest{Question: q}); err != nil {
		t.Fatal(err)
	}
	var names []string
	bus := events.NewBus(nil, events.ObserverFunc(func(_ context.Context, ev events.Envelope) { names = append(names, ev.Name) }))
	bus.Strict = true
	plain := hookEngine(t, func(o *Options) { o.Store, o.Events = st, bus })
	res, err := plain.Ask(context.Background(), AskRequest{Question: q})
	if err != nil {
		t.Fatal(err)
	}
	if res.SubQueries[0].PlanSource != "cache" || res.RowCount < 10 || strings.Contains(res.SQL, "USA") {
		t.Errorf("cache hit %s with %d rows: %s", res.SubQueries[0].PlanSource, res.RowCount, res.SQL)
	}
	if !slices.Contains(names, events.NameCacheHit) || slices.Contains(names, events.NameModelCall) {
		t.Errorf("events of a cache hit: %v", names)
	}
}

// A hook that errors, times out or answers a decision its point does not
// allow denies; on_error: open turns only errors into allow.
func TestHooksFailClosed(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Second):
		}
	}))
	defer slow.Close()
	rewrite := signedHook(t, "k", func(hooks.Input) hooks.Decision { return hooks.Decision{Action: hooks.Rewrite, Question: "x"} })
	q := "How many customers are there in each country?"
	for _, c := range []struct {
		name string
		e    hooks.Entry
		code Code
	}{
		{"timeout", hooks.Entry{Hook: &hooks.HTTP{URL: slow.URL}, Timeout: 100 * time.Millisecond}, CodeRefusedByRule},
		{"timeout open", hooks.Entry{Hook: &hooks.HTTP{URL: slow.URL}, Timeout: 100 * time.Millisecond, OnErrorOpen: true}, ""},
		{"unreachable", hooks.Entry{Hook: &hooks.HTTP{URL: "http://127.0.0.1:1/"}}, CodeRefusedByRule},
		{"decision not allowed here", hooks.Entry{Hook: &hooks.HTTP{URL: rewrite.URL, Secret: []byte("k")}, OnErrorOpen: true}, CodeRefusedByRule},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.e.Name, c.e.Points = "h", []hooks.Point{hooks.AfterExecution}
			e := hookEngine(t, func(o *Options) { o.Hooks = runner(t, c.e) })
			_, err := e.Ask(context.Background(), AskRequest{Question: q})
			if codeOf(AsError(err)) != c.code {
				t.Fatalf("err = %v, want %q", err, c.code)
			}
		})
	}
}

// An observer that panics on every event never fails a run: 100 questions
// succeed. The audit log holds one line per run, with no row data.
func TestObserversFailOpenAndAudit(t *testing.T) {
	dir := t.TempDir()
	audit, err := events.OpenAudit(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen atomic.Int64
	bus := events.NewBus(nil,
		events.ObserverFunc(func(context.Context, events.Envelope) { panic("observer bug") }),
		audit,
		events.ObserverFunc(func(context.Context, events.Envelope) { seen.Add(1) }))
	bus.Strict = true
	e := hookEngine(t, func(o *Options) { o.Events = bus })
	qs := questions(t)
	const runs = 100
	var answers []string
	for i := range runs {
		res, err := e.Ask(context.Background(), AskRequest{Question: qs[i%len(qs)]})
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		for _, row := range res.Rows {
			for _, v := range row {
				if s, ok := v.(string); ok && len(s) > 3 {
					answers = append(answers, s)
				}
			}
		}
	}
	audit.Close()
	if seen.Load() < 2*runs || audit.Dropped() != 0 {
		t.Errorf("later observer saw %d events; %d audit lines dropped", seen.Load(), audit.Dropped())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "audit-*.jsonl"))
	lines := 0
	allowed := map[string]bool{"time": true, "event": true}
	for _, f := range events.Catalogue[events.NameRunFinished].Fields {
		allowed[f] = true
	}
	for _, f := range files {
		fh, _ := os.Open(f)
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			lines++
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			for k := range m {
				if !allowed[k] {
					t.Errorf("audit line has field %q: %s", k, sc.Text())
				}
			}
			for _, v := range answers {
				if strings.Contains(sc.Text(), v) {
					t.Fatalf("audit line holds row value %q: %s", v, sc.Text())
				}
			}
		}
		fh.Close()
	}
	if lines != runs {
		t.Errorf("%d audit lines for %d runs", lines, runs)
	}
	t.Logf("%d runs succeeded with an observer panicking on every event; the next observer saw %d events; %d audit lines, %d dropped, none with any of %d row values",
		runs, seen.Load(), lines, audit.Dropped(), len(answers))
}

func openTestStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// The caller's stream gets only caller-safe events: no hook decision, no
// access denial, no reason.
func TestCallerStreamIsSafe(t *testing.T) {
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Invoice"}}
	var all []string
	bus := events.NewBus(nil, events.ObserverFunc(func(_ context.Context, ev events.Envelope) { all = append(all, ev.Name) }))
	bus.Strict = true
	e := hookEngine(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "no_invoices", Points: rule.Points(), Hook: rule})
		o.Events = bus
	})
	for _, c := range []struct {
		q    string
		want string
	}{
		{"What was the total revenue in each year?", "run.started step.started:resolve step.finished:resolve step.started:retrieve step.finished:retrieve step.started:plan step.finished:plan step.started:render step.finished:render run.finished:REFUSED_BY_RULE"},
		{"How many customers are there in each country?", "run.started step.started:resolve step.finished:resolve step.started:retrieve step.finished:retrieve step.started:plan step.finished:plan step.started:render step.finished:render step.started:execute step.finished:execute step.started:answer step.finished:answer run.finished:"},
	} {
		var got []string
		ctx := WithEventSink(context.Background(), func(ev events.Event) {
			b, _ := json.Marshal(ev)
			if strings.Contains(string(b), "Invoice") || strings.Contains(string(b), "no_invoices") {
				t.Errorf("the caller's stream carries a rule's reason: %s", b)
			}
			switch x := ev.(type) {
			case events.StepStarted:
				got = append(got, ev.EventName()+":"+x.Step)
			case events.StepFinished:
				got = append(got, ev.EventName()+":"+x.Step)
			case events.RunFinished:
				got = append(got, ev.EventName()+":"+x.Code)
			default:
				got = append(got, ev.EventName())
			}
		})
		all = nil
		e.Ask(ctx, AskRequest{Question: c.q})
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("%q: stream %s\nwant %s", c.q, s, c.want)
		}
		if c.want[len(c.want)-1] != ':' && !slices.Contains(all, events.NameHookDecision) {
			t.Errorf("%q: the bus did not get the hook decision: %v", c.q, all)
		}
	}
}

// A question across datasources passes the hooks like any other: the
// after_resolution hook sees both datasources and may narrow them, every
// sub-query's plan passes after_planning (a rule on a table it reads
// refuses the whole run: no partial answer around a rule), and
// after_answer sees the combined result.
func TestMultiPassesHooks(t *testing.T) {
	var seen atomic.Value
	points := make(chan string, 64)
	srv := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		points <- string(in.Point)
		if in.Point == hooks.AfterResolution {
			seen.Store(strings.Join(in.Datasources, ","))
		}
		return hooks.Decision{Action: hooks.Allow}
	})
	watch := hooks.Entry{Name: "watch", Points: []hooks.Point{hooks.AfterResolution, hooks.AfterPlanning, hooks.BeforeExecution, hooks.AfterExecution, hooks.AfterAnswer},
		Hook: &hooks.HTTP{URL: srv.URL, Secret: []byte("k")}}
	e, _ := multiEngineWith(t, func(o *Options) { o.Hooks = runner(t, watch) })
	res, err := e.Ask(context.Background(), AskRequest{Question: q1})
	if err != nil {
		t.Fatalf("allowed by every hook: %v", err)
	}
	close(points)
	count := map[string]int{}
	for p := range points {
		count[p]++
	}
	n := len(res.SubQueries)
	if seen.Load() != "chinook,targets" || count["after_resolution"] != 1 || count["after_planning"] != n ||
		count["before_execution"] != n || count["after_execution"] != n || count["after_answer"] != 1 {
		t.Errorf("hook calls %v for %d sub-queries (after_resolution saw %v)", count, n, seen.Load())
	}

	// A rule on a table one sub-query reads refuses the whole run.
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Genre"}}
	e, _ = multiEngineWith(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "no-genres", Points: rule.Points(), Hook: rule})
	})
	if _, err := e.Ask(context.Background(), AskRequest{Question: q1}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("a sub-query reading Genre: %v", err)
	}
	// A rule on a table no sub-query reads changes nothing.
	rule = &hooks.Rule{DenyTables: []string{"chinook.main.Employee"}}
	e, _ = multiEngineWith(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "no-staff", Points: rule.Points(), Hook: rule})
	})
	if got, err := e.Ask(context.Background(), AskRequest{Question: q1}); err != nil || got.RowCount != res.RowCount {
		t.Errorf("unrelated rule: %v (%d rows, want %d)", err, got.RowCount, res.RowCount)
	}
	// Approval cannot hold a question across datasources: refused.
	rule = &hooks.Rule{ApprovalTables: []string{"targets.main.genre_targets"}}
	e, _ = multiEngineWith(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "ask-first", Points: rule.Points(), Hook: rule})
	})
	if _, err := e.Ask(context.Background(), AskRequest{Question: q1}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("approval across datasources: %v", err)
	}
	// Narrowing to a datasource outside the candidates is refused.
	widen := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		return hooks.Decision{Action: hooks.Narrow, Datasources: []string{"elsewhere"}}
	})
	e, _ = multiEngineWith(t, func(o *Options) {
		o.Hooks = runner(t, hooks.Entry{Name: "widen", Points: []hooks.Point{hooks.AfterResolution}, Hook: &hooks.HTTP{URL: widen.URL, Secret: []byte("k")}})
	})
	if _, err := e.Ask(context.Background(), AskRequest{Question: q1}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("widening narrow: %v", err)
	}
}

// Verified queries pass the hooks too: the tables their SQL reads are the
// input of a table rule (refused by name and through ask, where the rule's
// refusal is final and never falls back to the generated path); a query
// reading none of them runs; a hook that would change the plan or require
// approval refuses a verified query (it has SQL, not a plan), and one that
// denies after execution withholds its result.
func TestVerifiedPassesHooks(t *testing.T) {
	cfg, err := config.Load("../examples/chinook/nl2sql.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, _, err := curated.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	withRule := func(r *hooks.Rule) *Engine {
		return hookEngine(t, func(o *Options) {
			o.Curated = set
			o.Hooks = runner(t, hooks.Entry{Name: "rule", Points: r.Points(), Hook: r})
		})
	}
	ctx := context.Background()
	e := withRule(&hooks.Rule{DenyTables: []string{"chinook.main.Invoice"}})
	if _, err := e.RunVerified(ctx, "revenue_by_country", map[string]any{"year": "2024"}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("revenue_by_country reads Invoice: %v", err)
	}
	if _, err := e.Ask(ctx, AskRequest{Question: "What was revenue by country in 2024?"}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("ask matching revenue_by_country: %v", err)
	}
	res, err := e.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": "Jazz"})
	if err != nil || res.RowCount == 0 || res.SubQueries[0].PlanSource != "verified" {
		t.Fatalf("tracks_of_genre reads no denied table: %v", err)
	}
	e = withRule(&hooks.Rule{DenyColumns: []string{"chinook.main.Customer.LastName"}})
	if _, err := e.RunVerified(ctx, "customers_in_country", map[string]any{"country": "USA"}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("customers_in_country reads Customer.LastName: %v", err)
	}
	// A hook that changes plans, and one that denies after execution.
	for _, decide := range []func(hooks.Input) hooks.Decision{
		func(in hooks.Input) hooks.Decision {
			if in.Point == hooks.AfterPlanning {
				return hooks.Decision{Action: hooks.Modify, Plan: json.RawMessage(`{"select":[{"expr":{"kind":"literal","type":"integer","value":1},"alias":"one"}]}`)}
			}
			return hooks.Decision{Action: hooks.Allow}
		},
		func(in hooks.Input) hooks.Decision {
			if in.Point == hooks.AfterExecution && in.PlanSource == "verified" && in.RowCount > 0 && in.SQL != "" {
				return hooks.Decision{Action: hooks.Deny, Reason: "no verified results today"}
			}
			return hooks.Decision{Action: hooks.Allow}
		},
	} {
		srv := signedHook(t, "k", decide)
		e = hookEngine(t, func(o *Options) {
			o.Curated = set
			o.Hooks = runner(t, hooks.Entry{Name: "h", Points: []hooks.Point{hooks.AfterPlanning, hooks.AfterExecution}, Hook: &hooks.HTTP{URL: srv.URL, Secret: []byte("k")}})
		})
		if _, err := e.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": "Jazz"}); codeOf(AsError(err)) != CodeRefusedByRule {
			t.Errorf("hook on a verified query: %v", err)
		}
	}
	e = withRule(&hooks.Rule{ApprovalTables: []string{"chinook.main.Track"}})
	if _, err := e.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": "Jazz"}); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("approval of a verified query: %v", err)
	}
	// In ask, a verified match that needs approval falls back to planning
	// (whose plan can stop for approval): here the replay has no plan for
	// the question, so the generated path's NO_RECORDING shows it was taken.
	e = withRule(&hooks.Rule{ApprovalTables: []string{"chinook.main.Invoice"}})
	if _, err := e.Ask(ctx, AskRequest{Question: "What was revenue by country in 2024?"}); codeOf(AsError(err)) != CodeNoRecording {
		t.Errorf("ask matching a verified query that needs approval: %v", err)
	}
}

// Supplied plans (run_plan) pass the hooks from after_resolution on: a
// datasource-denying hook and a table rule refuse them.
func TestRunPlanPassesHooks(t *testing.T) {
	deny := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		if in.Point == hooks.AfterResolution && slices.Contains(in.Datasources, "chinook") {
			return hooks.Decision{Action: hooks.Deny, Reason: "chinook is closed today"}
		}
		return hooks.Decision{Action: hooks.Allow}
	})
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Employee"}}
	plan := func(table string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + table + `","alias":"t"}]}`)
	}
	for _, c := range []struct {
		name  string
		entry hooks.Entry
		table string
		code  Code
	}{
		{"datasource denied", hooks.Entry{Name: "closed", Points: []hooks.Point{hooks.AfterResolution}, Hook: &hooks.HTTP{URL: deny.URL, Secret: []byte("k")}}, "Artist", CodeRefusedByRule},
		{"table denied", hooks.Entry{Name: "no_employees", Points: rule.Points(), Hook: rule}, "Employee", CodeRefusedByRule},
		{"table allowed", hooks.Entry{Name: "no_employees", Points: rule.Points(), Hook: rule}, "Artist", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := hookEngine(t, func(o *Options) { o.Hooks = runner(t, c.entry) })
			_, err := e.RunPlan(context.Background(), "chinook", plan(c.table))
			if codeOf(AsError(err)) != c.code {
				t.Errorf("err = %v, want %q", err, c.code)
			}
		})
	}
}

// The approval states a caller can meet each come with a fitting hint, and
// an unknown state to list is a typed error (not an empty list).
func TestApprovalStatesAndHints(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rule := &hooks.Rule{ApprovalTables: []string{"chinook.main.Invoice"}}
	e := hookEngine(t, func(o *Options) {
		o.Approvals = st
		o.Hooks = runner(t, hooks.Entry{Name: "ask-first", Points: rule.Points(), Hook: rule})
	})
	ctx := context.Background()
	_, err = e.Ask(ctx, AskRequest{Question: "What was the total revenue in each year?"})
	ae := AsError(err)
	if ae.Code != CodeNeedsApproval || ae.ApprovalID == "" {
		t.Fatalf("ask: %v", err)
	}
	if _, err := e.Approvals(ctx, "bogus"); AsError(err).Code != CodeInvalidRequest {
		t.Errorf("list state bogus: %v", err)
	}
	if _, err := e.RunApproved(ctx, ae.ApprovalID); !strings.Contains(AsError(err).Hint, "wait for an approver") {
		t.Errorf("run while pending: %v", err)
	}
	if _, err := e.Decide(ctx, ae.ApprovalID, true); err != nil {
		t.Fatal(err)
	}
	// A rule added after the approval refuses the run without spending it.
	deny := &hooks.Rule{DenyTables: []string{"chinook.main.Invoice"}}
	stricter := hookEngine(t, func(o *Options) {
		o.Approvals = st
		o.Hooks = runner(t, hooks.Entry{Name: "ask-first", Points: rule.Points(), Hook: rule}, hooks.Entry{Name: "no-invoices", Points: deny.Points(), Hook: deny})
	})
	if _, err := stricter.RunApproved(ctx, ae.ApprovalID); codeOf(AsError(err)) != CodeRefusedByRule {
		t.Errorf("run under a newer rule: %v", err)
	}
	if res, err := e.RunApproved(ctx, ae.ApprovalID); err != nil || res.SubQueries[0].PlanSource != "approved" {
		t.Fatalf("run approved: %v", err)
	}
	if _, err := e.RunApproved(ctx, ae.ApprovalID); !strings.Contains(AsError(err).Hint, "runs once") {
		t.Errorf("run twice: %v", err)
	}
}

// A hook that changes the plan or rewrites the question cannot carry it
// past a rule, whatever their order: after a change every hook of the
// point runs again on the result (a fresh user found both bypasses).
func TestChangedPlanOrQuestionPassesEveryRule(t *testing.T) {
	emails := json.RawMessage(`{"select":[{"expr":{"kind":"column","table":"c","column":"Email"},"alias":"email"}],"from":[{"table":"Customer","alias":"c"}],"limit":3}`)
	swap := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		switch in.Point {
		case hooks.AfterPlanning:
			return hooks.Decision{Action: hooks.Modify, Plan: emails}
		case hooks.BeforeRun:
			return hooks.Decision{Action: hooks.Rewrite, Question: "Which playlists contain tracks from more than three genres?"}
		}
		return hooks.Decision{Action: hooks.Allow}
	})
	ext := hooks.Entry{Name: "ext", Points: []hooks.Point{hooks.BeforeRun, hooks.AfterPlanning}, Hook: &hooks.HTTP{URL: swap.URL, Secret: []byte("k")}}
	for _, rule := range []*hooks.Rule{
		{DenyTables: []string{"chinook.main.Customer"}},
		{DenyColumns: []string{"chinook.main.Customer.Email"}},
		{QuestionPatterns: []*regexp.Regexp{regexp.MustCompile("(?i)playlist")}},
	} {
		r := hooks.Entry{Name: "rule", Points: rule.Points(), Hook: rule}
		for _, order := range [][]hooks.Entry{{r, ext}, {ext, r}} {
			e := hookEngine(t, func(o *Options) { o.Hooks = runner(t, order...) })
			res, err := e.Ask(context.Background(), AskRequest{Question: "Which artist has released the most albums?"})
			if codeOf(AsError(err)) != CodeRefusedByRule {
				t.Errorf("rule %+v, order %s first: %v (rows %v)", rule, order[0].Name, err, res)
			}
		}
	}
	// An idempotent change passes the check round: the tenant filter of
	// TestHTTPHookModifiesPlan sets the same where clause again.
}

// explain (and the explain_plan tool) passes the hooks up to rendering: a
// question pattern refuses before any model call, a table rule refuses the
// plan; nothing denied is shown.
func TestExplainPassesHooks(t *testing.T) {
	for _, rule := range []*hooks.Rule{
		{QuestionPatterns: []*regexp.Regexp{regexp.MustCompile("(?i)revenue")}},
		{DenyTables: []string{"chinook.main.Invoice"}},
	} {
		e := hookEngine(t, func(o *Options) { o.Hooks = runner(t, hooks.Entry{Name: "rule", Points: rule.Points(), Hook: rule}) })
		ex, err := e.Explain(context.Background(), AskRequest{Question: "What was the total revenue in each year?"})
		if codeOf(AsError(err)) != CodeRefusedByRule || ex != nil {
			t.Errorf("rule %+v: %v %+v", rule, err, ex)
		}
		if _, err := e.Explain(context.Background(), AskRequest{Question: "Which artist has released the most albums?"}); err != nil {
			t.Errorf("an allowed question: %v", err)
		}
	}
}

// A rule naming a table or column the datasource lacks is logged when the
// datasource opens: it would match nothing there.
func TestUnmatchedRuleWarned(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Employe", "chinook.main.Invoice", "other.main.X"}, DenyColumns: []string{"chinook.main.Customer.Emial"}}
	e := hookEngine(t, func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, nil))
		o.Hooks = runner(t, hooks.Entry{Name: "typo", Points: rule.Points(), Hook: rule})
	})
	if _, err := e.Ask(context.Background(), AskRequest{Question: "Which artist has released the most albums?"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if !strings.Contains(out, "hook=typo") || !strings.Contains(out, "chinook.main.Employe, chinook.main.Customer.Emial") || strings.Contains(out, "Invoice") || strings.Contains(out, "other.main.X") {
		t.Errorf("log:\n%s", out)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
