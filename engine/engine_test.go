package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/store"
)

var updatePromptHashes = flag.Bool("update-prompt-hashes", false, "rewrite the prompt_sha256 of every Chinook recording")

const chinookDir = "../examples/chinook"

func chinookEngine(t *testing.T, recordings string) *Engine {
	t.Helper()
	if recordings == "" {
		recordings = filepath.Join(chinookDir, "recordings")
	}
	rp, err := llm.OpenReplay(recordings)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000}},
		Planner:     rp,
		Today:       func() string { return "2026-01-15" },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func questions(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(chinookDir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Question
	}
	return out
}

// Same inputs and recordings give byte-identical results, across engines.
func TestAskDeterministic(t *testing.T) {
	ctx := context.Background()
	e1, e2 := chinookEngine(t, ""), chinookEngine(t, "")
	for _, q := range questions(t) {
		r1, err := e1.Ask(ctx, AskRequest{Question: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		r2, err := e2.Ask(ctx, AskRequest{Question: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if r1.TraceID == r2.TraceID || r1.Timings.Total <= 0 {
			t.Errorf("%q: trace ids %q %q, total %v ms", q, r1.TraceID, r2.TraceID, r1.Timings.Total)
		}
		r1.Timings, r2.Timings, r1.TraceID, r2.TraceID = Timings{}, Timings{}, "", ""
		b1, _ := json.Marshal(r1)
		b2, _ := json.Marshal(r2)
		if !bytes.Equal(b1, b2) {
			t.Errorf("%q: results differ:\n%s\n%s", q, b1, b2)
		}
		if r1.SubQueries[0].PlanSource != "llm" || r1.SubQueries[0].Attempts != 1 || r1.SQL == "" || len(r1.Columns) == 0 {
			t.Errorf("%q: unexpected result shape: %s", q, b1)
		}
		if bytes.Contains(b1, []byte(string(filepath.Separator)+"work")) || bytes.Contains(b1, []byte("chinook.sqlite")) {
			t.Errorf("%q: result leaks a path: %s", q, b1)
		}
	}
}

func TestAskIronMaiden(t *testing.T) {
	r, err := chinookEngine(t, "").Ask(context.Background(), AskRequest{Question: "which artist has released the most albums"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 1 || r.Rows[0][0] != "Iron Maiden" || r.Rows[0][1] != int64(21) {
		t.Fatalf("rows = %v", r.Rows)
	}
	if r.Answer != `Artist "Iron Maiden", AlbumCount 21.` {
		t.Errorf("answer = %q", r.Answer)
	}
}

func TestAskErrors(t *testing.T) {
	e := chinookEngine(t, "")
	ctx := context.Background()
	cases := []struct {
		name string
		req  AskRequest
		code Code
		in   string
	}{
		{"empty", AskRequest{Question: "  "}, CodeInvalidRequest, "empty"},
		{"huge", AskRequest{Question: string(bytes.Repeat([]byte("a"), MaxQuestionBytes+1))}, CodeInvalidRequest, "limit"},
		// the NUL is named: "send UTF-8" would be wrong, the text is UTF-8
		{"nul", AskRequest{Question: "a\x00b"}, CodeInvalidRequest, "NUL character (U+0000)"},
		{"not utf-8", AskRequest{Question: "caf\xe9"}, CodeInvalidRequest, "UTF-8"},
		{"unknown datasource", AskRequest{Question: "How many customers are there in each country?", Datasource: "nope"}, CodeDatasourceNotFound, "nope"},
		{"no recording", AskRequest{Question: "How many customers live in each city?"}, CodeNoRecording, "How many customers are there in each country?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.Ask(ctx, c.req)
			var ee *Error
			if !errors.As(err, &ee) || ee.Code != c.code {
				t.Fatalf("err = %v, want code %s", err, c.code)
			}
			if !bytes.Contains([]byte(ee.Msg+ee.Hint), []byte(c.in)) {
				t.Errorf("error %q lacks %q", ee.Msg+" / "+ee.Hint, c.in)
			}
		})
	}
}

func TestMissingDatabase(t *testing.T) {
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: filepath.Join(t.TempDir(), "gone.sqlite")}}, Planner: rp})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Ask(context.Background(), AskRequest{Question: "Which media type has the most tracks?"})
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeDatasourceDown {
		t.Fatalf("err = %v, want %s", err, CodeDatasourceDown)
	}
	if ee.Retryable {
		t.Error("a missing database file is marked retryable: asking again will not make it appear")
	}
	if _, statErr := os.Stat(filepath.Join(filepath.Dir(e.specs["chinook"].Path), "gone.sqlite")); statErr == nil {
		t.Error("opening a missing database created a file")
	}
	ds := e.ListDatasources(context.Background())
	if len(ds) != 1 || ds[0].Status != "unavailable" || ds[0].Error == "" {
		t.Errorf("ListDatasources = %+v", ds)
	}
}

// The repair loop sends the typed errors of the latest attempt back and
// accepts the repaired plan; a plan still invalid after every attempt is
// PLAN_INVALID with the issues.
func TestRepairLoop(t *testing.T) {
	dir := t.TempDir()
	q := "How many tracks are there?"
	bad := `{"reasoning":"count tracks","plan":{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Trakc","alias":"t"}]}}`
	good := `{"reasoning":"count tracks","plan":{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Track","alias":"t"}]}}`
	for _, r := range []llm.Recording{
		{Step: "plan", Datasource: "chinook", Question: q, Answer: json.RawMessage(bad)},
		{Step: "plan_repair", Datasource: "chinook", Question: q, Sample: 1, Answer: json.RawMessage(good)},
		{Step: "plan", Datasource: "chinook", Question: "never valid", Answer: json.RawMessage(bad)},
		{Step: "plan_repair", Datasource: "chinook", Question: "never valid", Sample: 1, Answer: json.RawMessage(bad)},
		{Step: "plan_repair", Datasource: "chinook", Question: "never valid", Sample: 2, Answer: json.RawMessage(`{"reasoning":"x","plan":{"select":[],"from":[]},"sql":"DROP TABLE Track"}`)},
	} {
		r := r
		if err := llm.Save(dir, &r); err != nil {
			t.Fatal(err)
		}
	}
	e := chinookEngine(t, dir)
	res, err := e.Ask(context.Background(), AskRequest{Question: q})
	if err != nil {
		t.Fatal(err)
	}
	if res.SubQueries[0].Attempts != 2 || res.Rows[0][0] != int64(3503) {
		t.Errorf("attempts = %d rows = %v", res.SubQueries[0].Attempts, res.Rows)
	}
	_, err = e.Ask(context.Background(), AskRequest{Question: "never valid"})
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodePlanInvalid || len(ee.Issues) == 0 {
		t.Fatalf("err = %v", err)
	}
	if ee.Issues[0].Code != "PLAN_MALFORMED" {
		t.Errorf("last issues = %+v, want the third attempt's (malformed answer)", ee.Issues)
	}
}

// TestRecordingPrompts lists recordings whose stored prompt hash no longer
// matches the prompt the engine builds today; -update-prompt-hashes
// rewrites them.
func TestRecordingPrompts(t *testing.T) {
	dir := filepath.Join(chinookDir, "recordings")
	e := chinookEngine(t, dir)
	rp, err := llm.OpenReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := e.datasource(context.Background(), "chinook")
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, rec := range rp.Recordings() {
		if rec.Step != "plan" {
			continue
		}
		req := e.planRequest(ds, rec.Question, e.retrieve(context.Background(), ds, rec.Question), e.opts.Today(), nil, 0)
		if req.PromptHash == rec.PromptSHA256 {
			continue
		}
		stale = append(stale, rec.File)
		if *updatePromptHashes {
			rec.PromptSHA256 = req.PromptHash
			if err := llm.Save(dir, rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(stale) > 0 && !*updatePromptHashes {
		t.Errorf("%d recordings were made for a prompt that has changed since; re-record them or run with -update-prompt-hashes after checking them: %v", len(stale), stale)
	}
}

// A repeated question on the same storage makes no planner call, and the
// cached plan gives the same rows.
func TestPlanCache(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	newEngine := func() *Engine {
		e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs}},
			Planner: rp, Store: st, PlannerID: "replay", Today: func() string { return "2026-01-15" }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	q := "Which genre has sold the most tracks?"
	first, err := newEngine().Ask(context.Background(), AskRequest{Question: q})
	if err != nil {
		t.Fatal(err)
	}
	e2 := newEngine()
	second, err := e2.Ask(context.Background(), AskRequest{Question: "  which GENRE has sold the most tracks  "})
	if err != nil {
		t.Fatal(err)
	}
	if n := e2.retrievals.Load(); n != 0 {
		t.Errorf("a plan-cache hit ran retrieval %d times; the cached plan needs no schema context", n)
	}
	if first.Usage.ModelCalls != 1 || second.Usage.ModelCalls != 0 || second.Usage.PlanCacheHits != 1 ||
		second.SubQueries[0].PlanSource != "cache" {
		t.Fatalf("usage first %+v second %+v source %s", first.Usage, second.Usage, second.SubQueries[0].PlanSource)
	}
	b1, _ := json.Marshal(first.Rows)
	b2, _ := json.Marshal(second.Rows)
	if !bytes.Equal(b1, b2) || first.SQL != second.SQL {
		t.Errorf("cached answer differs: %s vs %s", b1, b2)
	}
	n, err := newEngine().ClearPlanCache(context.Background(), "")
	if err != nil || n != 1 {
		t.Fatalf("clear = %d, %v", n, err)
	}
}

// A traced run can be replayed from the trace alone: the trace planner
// answers with exactly the recorded model calls.
func TestTraceReplay(t *testing.T) {
	e := chinookEngine(t, "")
	e.opts.TraceDir = t.TempDir()
	e.traces = e.openTraces()
	q := "Which media type has the most tracks?"
	first, err := e.Ask(context.Background(), AskRequest{Question: q})
	if err != nil {
		t.Fatal(err)
	}
	e.FlushTraces()
	tr, err := ReadTrace(e.opts.TraceDir, first.TraceID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.ModelCalls) != 1 || tr.ModelCalls[0].PromptHash == "" || tr.SQL != first.SQL || tr.Retrieved == nil {
		t.Fatalf("trace = %+v", tr)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	e2, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs}}, Planner: NewTracePlanner(tr),
		Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	again, err := e2.Ask(context.Background(), AskRequest{Question: tr.Question})
	if err != nil {
		t.Fatal(err)
	}
	b1, _ := json.Marshal(first.Rows)
	b2, _ := json.Marshal(again.Rows)
	if !bytes.Equal(b1, b2) || first.SQL != again.SQL {
		t.Errorf("replay differs: %s vs %s", b1, b2)
	}
	if _, err := ReadTrace(e.opts.TraceDir, "../../etc/passwd"); err == nil {
		t.Error("a path was accepted as a trace id")
	}
}

// The answer model sees at most 20 rows delimited as data; an answer that
// quotes a number not in the rows is discarded for the template summary.
func TestModelAnswer(t *testing.T) {
	dir := t.TempDir()
	for _, r := range []llm.Recording{
		{Step: "answer", Datasource: "chinook", Question: "Which media type has the most tracks?", Answer: json.RawMessage(`{"answer":"MPEG audio file, with 3034 tracks."}`)},
		{Step: "answer", Datasource: "chinook", Question: "Which artist has released the most albums?", Answer: json.RawMessage(`{"answer":"Iron Maiden, with 25 albums."}`)},
	} {
		r := r
		if err := llm.Save(dir, &r); err != nil {
			t.Fatal(err)
		}
	}
	ans, err := llm.OpenReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := chinookEngine(t, "")
	e.opts.Answerer = ans
	res, err := e.Ask(context.Background(), AskRequest{Question: "Which media type has the most tracks?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "MPEG audio file, with 3034 tracks." || res.Usage.ModelCalls != 2 {
		t.Errorf("answer %q, usage %+v", res.Answer, res.Usage)
	}
	res, err = e.Ask(context.Background(), AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != `Artist "Iron Maiden", AlbumCount 21.` || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "25") {
		t.Errorf("a made-up number got through: %q %v", res.Answer, res.Warnings)
	}
}

// Bad inputs met by hand while trying the product, each with its answer.
func TestBadInputsFromTrials(t *testing.T) {
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	// An empty (0-byte) database file: DATASOURCE_UNAVAILABLE naming the
	// cause, not a planner error.
	empty := filepath.Join(t.TempDir(), "empty.sqlite")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: empty}}, Planner: rp})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.Ask(context.Background(), AskRequest{Question: "Which media type has the most tracks?"})
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeDatasourceDown || !strings.Contains(ee.Msg, "no tables") {
		t.Errorf("empty database: %v", err)
	}

	// A recorded plan that is refused, with no recorded repair: PLAN_INVALID
	// with the plan's issues, not NO_RECORDING.
	dir := t.TempDir()
	bad := llm.Recording{Step: "plan", Datasource: "chinook", Question: "How many tracks are there?",
		Answer: json.RawMessage(`{"reasoning":"x","plan":{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Trakc","alias":"t"}]}}`)}
	if err := llm.Save(dir, &bad); err != nil {
		t.Fatal(err)
	}
	_, err = chinookEngine(t, dir).Ask(context.Background(), AskRequest{Question: "How many tracks are there?"})
	if !errors.As(err, &ee) || ee.Code != CodePlanInvalid || len(ee.Issues) == 0 || ee.Issues[0].Code != "TABLE_NOT_FOUND" ||
		!strings.Contains(ee.Issues[0].Message, `did you mean "Track"`) {
		t.Errorf("refused plan without a repair: %v", err)
	}
	if ee != nil && len(ee.Issues) != 1 {
		t.Errorf("a missing table gave follow-on issues: %+v", ee.Issues)
	}
}
