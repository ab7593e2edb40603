package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/eval"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/planast/planschema"
)

// evalRoot builds a Spider-shaped database root holding concert_singer.
func evalRoot(t *testing.T) (root, questions string) {
	t.Helper()
	root = t.TempDir()
	dir := filepath.Join(root, "concert_singer")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("..", "eval", "testdata", "concert_singer.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "concert_singer.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return root, filepath.Join("..", "eval", "testdata", "spider_slice.json")
}

// The live planner is an OpenAI-compatible server answering every question
// with the plan lifted from its gold SQL, except one it answers wrongly;
// `eval --planner live` measures execution accuracy, model calls, tokens
// and latency through the whole system, records the answers, and
// `--planner replay` over the recordings reproduces the run without the
// server.
func TestEvalLiveThenReplay(t *testing.T) {
	root, file := evalRoot(t)
	qs, err := eval.LoadQuestions(eval.SuiteSpider, file)
	if err != nil {
		t.Fatal(err)
	}
	qs = qs[:8]
	src, err := sqlite.OpenSQLite(context.Background(), "concert_singer", eval.DBPath(root, "concert_singer"), source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := src.Snapshot(context.Background())
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	var schemaRoot map[string]any
	if err := json.Unmarshal(planschema.Answer(), &schemaRoot); err != nil {
		t.Fatal(err)
	}
	answers := map[string]string{}
	for _, q := range qs {
		p, err := lift.Lift(q.Gold, lift.DialectSQLite, snap)
		if err != nil {
			t.Fatalf("%s: %v", q.Gold, err)
		}
		var v any
		_ = json.Unmarshal(p.Canonical(), &v)
		b, _ := json.Marshal(strictify(schemaRoot, schemaRoot, map[string]any{"reasoning": "lifted from the gold SQL", "plan": v}))
		answers[llm.Normalize(q.Question)] = string(b)
	}
	wrong := qs[0].Question // answered with the plan of another question
	answers[llm.Normalize(wrong)] = answers[llm.Normalize(qs[1].Question)]

	srv := newModelServer(t)
	srv.answer = func(q string, _ int, _ map[string]any) (string, string) { return answers[llm.Normalize(q)], "" }
	cfg := filepath.Join(t.TempDir(), "nl2sql.yaml")
	if err := os.WriteFile(cfg, []byte("llm:\n  default: {provider: openai, base_url: "+srv.URL+"/v1, api_key: "+testKey+", model: gpt-test}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recDir := t.TempDir()
	run := func(p EvalPlanner) *eval.Report {
		t.Helper()
		asker, err := NewEvalAsker(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer asker.Close()
		rep, err := eval.Run(context.Background(), eval.Options{Suite: eval.SuiteSpider, File: file, DBRoot: root, Planner: p.Planner, Asker: asker, Limit: len(qs)})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	live := run(EvalPlanner{Planner: eval.PlannerLive, Config: cfg, Record: recDir})
	if live.Total != len(qs) || live.Counts.Pass != len(qs)-1 || live.Cases[0].Status != eval.StatusFail {
		t.Fatalf("live: %s", live.Summary())
	}
	calls := len(srv.calls())
	if u := live.Usage; u == nil || u.ModelCalls != calls || calls < len(qs) || u.InputTokens != 1200*calls || u.OutputTokens != 80*calls || u.LatencyMedianMS <= 0 {
		t.Fatalf("live usage %+v, server saw %d calls", live.Usage, calls)
	}
	for _, c := range live.Cases {
		if c.Usage == nil || c.Usage.ModelCalls < 1 || c.PlanSource != "llm" || c.SQL == "" {
			t.Errorf("case %s: %+v", c.ID, c)
		}
	}
	t.Logf("live: %s", live.Summary())

	replay := run(EvalPlanner{Planner: eval.PlannerReplay, Recordings: recDir})
	if got := len(srv.calls()); got != calls {
		t.Errorf("replay reached the model server: %d calls, was %d", got, calls)
	}
	if replay.Counts != live.Counts || replay.Usage.ModelCalls != live.Usage.ModelCalls || replay.Usage.InputTokens != live.Usage.InputTokens {
		t.Errorf("replay %s\nlive %s", replay.Summary(), live.Summary())
	}
	for i := range live.Cases {
		a, b := live.Cases[i], replay.Cases[i]
		if a.Status != b.Status || a.SQL != b.SQL || !slices.Equal(a.Plan.(json.RawMessage), b.Plan.(json.RawMessage)) {
			t.Errorf("case %s differs: live %s %q, replay %s %q", a.ID, a.Status, a.SQL, b.Status, b.SQL)
		}
	}
}

func TestEvalPlannerErrors(t *testing.T) {
	for _, p := range []EvalPlanner{
		{Planner: eval.PlannerLive},                        // no config
		{Planner: eval.PlannerReplay},                      // no recordings, no config
		{Planner: "guess"},                                 // unknown
		{Planner: eval.PlannerReplay, Recordings: "/nope"}, // missing directory
		{Planner: eval.PlannerReplay, Recordings: t.TempDir(), Record: t.TempDir()},
	} {
		if a, err := NewEvalAsker(p, nil); err == nil {
			a.Close()
			t.Errorf("%+v: no error", p)
		}
	}
	if _, err := eval.Run(context.Background(), eval.Options{Planner: eval.PlannerLive}); err == nil {
		t.Error("eval.Run with a live planner and no Asker: no error")
	}
}
