package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/source"
)

// runLog is one ordered record of what a run did: the hook points a spy
// saw and the queries the database received, interleaved as they happened.
type runLog struct {
	mu      sync.Mutex
	entries []string
}

func (l *runLog) add(s string) {
	l.mu.Lock()
	l.entries = append(l.entries, s)
	l.mu.Unlock()
}

func (l *runLog) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.entries)
}

// loggedSource writes every query a datasource runs to a runLog.
type loggedSource struct {
	Source
	log *runLog
}

func (s loggedSource) Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error) {
	s.log.add("query: " + sql)
	return s.Source.Query(ctx, sql, args, maxRows)
}

// pointSpy is a hook registered at every point: it logs each point it is
// asked at and denies at one.
type pointSpy struct {
	log  *runLog
	deny hooks.Point
}

func (s *pointSpy) Decide(_ context.Context, in hooks.Input) (hooks.Decision, error) {
	s.log.add("hook: " + string(in.Point))
	if in.Point == s.deny {
		return hooks.Decision{Action: hooks.Deny, Reason: "the spy denies at " + string(in.Point)}, nil
	}
	return hooks.Decision{Action: hooks.Allow}, nil
}

// hookPath is one way a caller reaches the database, with the hook points
// it passes, in order.
type hookPath struct {
	name   string
	points []hooks.Point
	// run builds an engine with the hook entries and the datasource opener
	// (nil: the default) and runs the path once; ran reports that a result
	// reached the caller.
	run func(t *testing.T, entries []hooks.Entry, open func(context.Context, DatasourceSpec) (Source, error)) (ran bool, err error)
}

var allPoints = hooks.Points
var planningPoints = []hooks.Point{hooks.BeforeRun, hooks.AfterResolution, hooks.AfterPlanning}

func hookPaths(t *testing.T) []hookPath {
	cfg, err := config.Load("../examples/chinook/nl2sql.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, _, err := curated.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	const q = "Which artist has released the most albums?"
	plan := []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Artist","alias":"a"}]}`)
	ctx := context.Background()
	type opener = func(context.Context, DatasourceSpec) (Source, error)
	with := func(t *testing.T, entries []hooks.Entry, open opener, more func(*Options)) *Engine {
		return hookEngine(t, func(o *Options) {
			o.Hooks = runner(t, entries...)
			if open != nil {
				o.Open = open
			}
			if more != nil {
				more(o)
			}
		})
	}
	return []hookPath{
		{"ask", allPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			res, err := with(t, hs, open, nil).Ask(ctx, AskRequest{Question: q})
			return res != nil, err
		}},
		{"ask (scaled)", allPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			rp, err := llm.OpenReplay(filepath.Join("testdata", "scale", "recordings"))
			if err != nil {
				t.Fatal(err)
			}
			e := with(t, hs, open, func(o *Options) { o.Planner, o.Scaling = rp, sevenCandidates(true, 0) })
			res, err := e.Ask(ctx, AskRequest{Question: scaleQ})
			if res != nil && (res.Scaling == nil || res.Scaling.Route != "scale") {
				t.Errorf("scaling did not run: %+v", res.Scaling)
			}
			return res != nil, err
		}},
		{"explain", planningPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			ex, err := with(t, hs, open, nil).Explain(ctx, AskRequest{Question: q})
			return ex != nil, err
		}},
		{"run_plan", allPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			res, err := with(t, hs, open, nil).RunPlan(ctx, "chinook", plan)
			return res != nil, err
		}},
		{"check_plan", planningPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			pc, err := with(t, hs, open, nil).CheckPlan(ctx, "chinook", plan, "")
			return pc != nil, err
		}},
		{"run_verified_query", allPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			res, err := with(t, hs, open, func(o *Options) { o.Curated = set }).RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": "Jazz"})
			return res != nil, err
		}},
		{"run_approved", allPoints, func(t *testing.T, hs []hooks.Entry, open opener) (bool, error) {
			// an approval asked for and granted under the approval rule
			// alone, then run on an engine that also has the spy
			st := openTestStore(t)
			rule := &hooks.Rule{ApprovalTables: []string{"chinook.main.Invoice"}}
			approval := hooks.Entry{Name: "ask-first", Points: rule.Points(), Hook: rule}
			asker := with(t, []hooks.Entry{approval}, nil, func(o *Options) { o.Approvals = st })
			_, err := asker.Ask(ctx, AskRequest{Question: "What was the total revenue in each year?"})
			id := AsError(err).ApprovalID
			if id == "" {
				t.Fatalf("no approval: %v", err)
			}
			if _, err := asker.Decide(ctx, id, true); err != nil {
				t.Fatal(err)
			}
			res, err := with(t, append([]hooks.Entry{approval}, hs...), open, func(o *Options) { o.Approvals = st }).RunApproved(ctx, id)
			return res != nil, err
		}},
	}
}

// Threat: an operator's rule guards one way in and not another — a time
// window or a deny that refuses ask lets the same read through run_plan, a
// verified query or an approved run. Every path passes the hook points
// that apply to it, in the order ask passes them, and a deny at any of
// them refuses the path with REFUSED_BY_RULE: nothing reaches the caller,
// and a deny before execution means the database never sees the query.
// A point a path does not reach (explain and check_plan run nothing) is
// never asked, and a deny there changes nothing.
func TestHookPointsOnEveryPath(t *testing.T) {
	for _, path := range hookPaths(t) {
		t.Run(path.name, func(t *testing.T) {
			log := &runLog{}
			open := func(ctx context.Context, spec DatasourceSpec) (Source, error) {
				src, err := openAdapter(ctx, spec)
				return loggedSource{src, log}, err
			}
			spy := func(deny hooks.Point) []hooks.Entry {
				return []hooks.Entry{{Name: "spy", Points: hooks.Points, Hook: &pointSpy{log: log, deny: deny}}}
			}
			// Allowed: the spy sees the path's points in pipeline order.
			ran, err := path.run(t, spy(""), open)
			if err != nil || !ran {
				t.Fatalf("allowed run: %v", err)
			}
			if got := firstSeen(log.snapshot()); !slices.Equal(got, path.points) {
				t.Errorf("points seen %v, want %v", got, path.points)
			}
			for _, p := range hooks.Points {
				t.Run(string(p), func(t *testing.T) {
					log.mu.Lock()
					log.entries = nil
					log.mu.Unlock()
					ran, err := path.run(t, spy(p), open)
					entries := log.snapshot()
					if !slices.Contains(path.points, p) {
						if err != nil || !ran || slices.Contains(entries, "hook: "+string(p)) {
							t.Errorf("%s does not reach %s, yet: err %v, ran %v, seen %v", path.name, p, err, ran, firstSeen(entries))
						}
						t.Logf("observed: %s never asked; the deny there changed nothing (result returned)", p)
						return
					}
					if codeOf(AsError(err)) != CodeRefusedByRule || ran {
						t.Fatalf("deny at %s: err %v, result returned %v", p, err, ran)
					}
					if strings.Contains(err.Error(), "the spy denies") {
						t.Errorf("the rule's reason reached the caller: %v", err)
					}
					denied := slices.Index(entries, "hook: "+string(p))
					if denied < 0 {
						t.Fatalf("refused, but never at %s: %v", p, entries)
					}
					q := queryAfter(entries, denied)
					if before := slices.Index(hooks.Points, p) < slices.Index(hooks.Points, hooks.AfterExecution); before && q != "" {
						t.Errorf("deny at %s, yet the database ran %s", p, q)
					}
					t.Logf("observed: %s asked %d time(s); refused %s; query after the deny: %v", p,
						strings.Count(strings.Join(entries, "\n"), "hook: "+string(p)), AsError(err).Code, q != "")
				})
			}
		})
	}
}

// firstSeen lists the hook points of a log in order of first appearance.
func firstSeen(entries []string) []hooks.Point {
	var out []hooks.Point
	for _, e := range entries {
		if p, ok := strings.CutPrefix(e, "hook: "); ok && !slices.Contains(out, hooks.Point(p)) {
			out = append(out, hooks.Point(p))
		}
	}
	return out
}

// queryAfter is the first query logged after entry i, or "" (opening the
// datasource reads its catalog before the after_resolution hooks run).
func queryAfter(entries []string, i int) string {
	for _, e := range entries[i+1:] {
		if strings.HasPrefix(e, "query: ") {
			return e
		}
	}
	return ""
}

// Threat from the field: a time window refuses ask outside office hours,
// and the same read goes through run_plan, check_plan or a verified query
// by name. The window here is closed now; every path refuses.
func TestTimeWindowRefusesEveryPath(t *testing.T) {
	now := time.Now().UTC()
	from := now.Add(2 * time.Hour)
	to := now.Add(3 * time.Hour)
	w, err := hooks.ParseWindow(fmt.Sprintf("%s-%s", from.Format("15:04"), to.Format("15:04")))
	if err != nil {
		t.Fatal(err)
	}
	rule := &hooks.Rule{Window: w}
	for _, path := range hookPaths(t) {
		t.Run(path.name, func(t *testing.T) {
			ran, err := path.run(t, []hooks.Entry{{Name: "office_hours", Points: rule.Points(), Hook: rule}}, nil)
			if codeOf(AsError(err)) != CodeRefusedByRule || ran {
				t.Errorf("outside the window: err %v, result returned %v", err, ran)
			}
		})
	}
}

// Threat: a before_run rewrite meant to narrow a question ("… in my
// region") is dropped on a path whose question is a stand-in (a supplied
// plan, a verified query by id), and the unchanged read runs. There is no
// question to rewrite, so the rewrite refuses; ask takes the rewritten
// question as before.
func TestRewriteRefusesFixedPaths(t *testing.T) {
	srv := signedHook(t, "k", func(in hooks.Input) hooks.Decision {
		return hooks.Decision{Action: hooks.Rewrite, Question: "Which artist has released the most albums?"}
	})
	rewrite := []hooks.Entry{{Name: "narrow", Points: []hooks.Point{hooks.BeforeRun}, Hook: &hooks.HTTP{URL: srv.URL, Secret: []byte("k")}}}
	fixed := map[string]bool{"run_plan": true, "check_plan": true, "run_verified_query": true}
	for _, path := range hookPaths(t) {
		if path.name != "ask" && !fixed[path.name] {
			continue
		}
		t.Run(path.name, func(t *testing.T) {
			ran, err := path.run(t, rewrite, nil)
			if fixed[path.name] && (codeOf(AsError(err)) != CodeRefusedByRule || ran) {
				t.Errorf("rewrite on %s: err %v, result returned %v", path.name, err, ran)
			}
			if !fixed[path.name] && (err != nil || !ran) {
				t.Errorf("rewrite on ask: %v", err)
			}
		})
	}
}
