package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// scaleHookEngine is the scaling replay engine (seven candidates, the
// tournament on) with hooks, every query logged, and extra options.
func scaleHookEngine(t *testing.T, log *runLog, entries []hooks.Entry, more func(*Options)) *Engine {
	t.Helper()
	rp, err := llm.OpenReplay(filepath.Join("testdata", "scale", "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	return hookEngine(t, func(o *Options) {
		o.Planner, o.Scaling = rp, sevenCandidates(true, 0)
		if len(entries) > 0 {
			o.Hooks = runner(t, entries...)
		}
		o.Open = func(ctx context.Context, spec DatasourceSpec) (Source, error) {
			src, err := openAdapter(ctx, spec)
			return loggedSource{src, log}, err
		}
		if more != nil {
			more(o)
		}
	})
}

// queriesOf lists the queries logged after the datasource opened (the
// engine's first call opens it; mark is the log length before the run).
func queriesOf(entries []string, mark int) []string {
	var out []string
	for _, e := range entries[mark:] {
		if q, ok := strings.CutPrefix(e, "query: "); ok {
			out = append(out, q)
		}
	}
	return out
}

// Threats: with scaling on, (1) a deny rule is silently switched off — or
// scaling is, so configuring any rule quietly costs the accuracy scaling
// buys; (2) a candidate reading a denied table runs on the database before
// any rule sees it; (3) the winning query runs twice (twice the load, and a
// second result that may differ from the one judged). Scaling runs with the
// rule, no candidate reading Track reaches the database, and every query
// that does runs once, the winner's included.
func TestScaleCandidatesPassPlanHooks(t *testing.T) {
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Track"}}
	for _, tc := range []struct {
		name    string
		entries []hooks.Entry
		ran     int // candidates that reach the database, and the winner's tie check (a top 1 run with with_ties)
	}{
		{"no hooks", nil, 6 + 1},
		{"deny Track", []hooks.Entry{{Name: "no_tracks", Points: rule.Points(), Hook: rule}}, 3 + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &runLog{}
			e := scaleHookEngine(t, log, tc.entries, nil)
			if _, err := e.VisibleSnapshot(context.Background(), "chinook"); err != nil { // opens and profiles
				t.Fatal(err)
			}
			mark := len(log.snapshot())
			res, err := e.Ask(context.Background(), AskRequest{Question: scaleQ})
			if err != nil {
				t.Fatal(err)
			}
			if sc := res.Scaling; sc == nil || sc.Route != "scale" || len(sc.Candidates) != 7 {
				t.Fatalf("scaling did not run seven candidates: %+v", res.Scaling)
			}
			if rows, _ := json.Marshal(res.Rows); string(rows) != `[["Iron Maiden",21]]` {
				t.Errorf("rows %s", rows)
			}
			qs := queriesOf(log.snapshot(), mark)
			count := map[string]int{}
			for _, q := range qs {
				count[q]++
				if tc.entries != nil && strings.Contains(q, `"Track"`) {
					t.Errorf("a candidate reading Track ran: %s", q)
				}
			}
			if len(qs) != tc.ran || count[res.SQL] != 1 {
				t.Errorf("%d queries (want %d, one per candidate let through); the winner's ran %d times:\n%s",
					len(qs), tc.ran, count[res.SQL], strings.Join(qs, "\n---\n"))
			}
			refused := 0
			for _, c := range res.Scaling.Candidates {
				if strings.Contains(c.Error, "refused by rule") {
					refused++
					if c.SQL != "" {
						t.Errorf("a refused candidate shows SQL: %+v", c)
					}
				}
			}
			if tc.entries != nil && refused != 3 {
				t.Errorf("%d candidates refused by the rule, want the 3 reading Track", refused)
			}
		})
	}
}

// Threat: an approval rule is skipped because a candidate ran before the
// rule saw it. When every candidate reads a table that needs approval,
// none runs and the caller gets NEEDS_APPROVAL with an approval id, as the
// single call would.
func TestScaleApprovalHoldsEveryCandidate(t *testing.T) {
	rule := &hooks.Rule{ApprovalTables: []string{"chinook.main.Artist"}}
	log := &runLog{}
	st := openTestStore(t)
	e := scaleHookEngine(t, log, []hooks.Entry{{Name: "ask-first", Points: rule.Points(), Hook: rule}}, func(o *Options) { o.Approvals = st })
	if _, err := e.VisibleSnapshot(context.Background(), "chinook"); err != nil {
		t.Fatal(err)
	}
	mark := len(log.snapshot())
	res, err := e.Ask(context.Background(), AskRequest{Question: scaleQ})
	if ae := AsError(err); codeOf(ae) != CodeNeedsApproval || ae.ApprovalID == "" || res != nil {
		t.Fatalf("err %v, result %v", err, res)
	}
	if qs := queriesOf(log.snapshot(), mark); len(qs) != 0 {
		t.Errorf("candidates ran before approval: %v", qs)
	}
	a, err := e.desk().Get(context.Background(), AsError(err).ApprovalID)
	if err != nil || !strings.Contains(a.SQL, `"Artist"`) {
		t.Errorf("the approval does not hold a candidate's plan: %+v %v", a, err)
	}
}

// Threat: a result an after_execution rule refuses still reaches a model
// (the selector or critic reads its rows). A hook refusing every non-empty
// result leaves the empty one as the only answer, and the selector is
// never called.
func TestScaleRefusedResultReachesNoModel(t *testing.T) {
	log := &runLog{}
	srv := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		if in.RowCount > 0 {
			return hooks.Decision{Action: hooks.Deny, Reason: "no rows today"}
		}
		return hooks.Decision{Action: hooks.Allow}
	})
	e := scaleHookEngine(t, log, []hooks.Entry{{Name: "no_rows", Points: []hooks.Point{hooks.AfterExecution}, Hook: &hooks.HTTP{URL: srv.URL, Secret: []byte("k")}}}, nil)
	res, err := e.Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Scaling
	if res.RowCount != 0 || sc.Selection != "single_bucket" {
		t.Errorf("rows %d selection %q", res.RowCount, sc.Selection)
	}
	for _, st := range sc.Stages {
		if st.Stage == "select" || st.Stage == "critique" {
			t.Errorf("a model read refused rows: %+v", st)
		}
	}
}

// Threat: the selector and critic models are a blind spot — their calls
// (and cost) never show in the model.call events operators meter and alert
// on. With a separate selector model, every select and critique call is an
// event, as many as the report counts.
func TestScaleSelectorCallsAreEvents(t *testing.T) {
	var mu sync.Mutex
	steps := map[string]int{}
	bus := events.NewBus(nil, events.ObserverFunc(func(_ context.Context, ev events.Envelope) {
		if mc, ok := ev.Event.(events.ModelCall); ok {
			mu.Lock()
			steps[mc.Step]++
			mu.Unlock()
		}
	}))
	sel, err := llm.OpenReplay(filepath.Join("testdata", "scale", "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	e := scaleHookEngine(t, &runLog{}, nil, func(o *Options) {
		o.Selector, o.Events, o.Scaling = sel, bus, sevenCandidates(true, 1)
	})
	res, err := e.Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, st := range res.Scaling.Stages {
		step := map[string]string{"select": "select", "critique": "critique"}[st.Stage]
		if step != "" && (st.Calls == 0 || steps[step] != st.Calls) {
			t.Errorf("stage %s: %d calls, %d model.call events (%v)", st.Stage, st.Calls, steps[step], steps)
		}
	}
	if steps["select"] == 0 || steps["critique"] == 0 {
		t.Errorf("no selector or critique events: %v", steps)
	}
}
