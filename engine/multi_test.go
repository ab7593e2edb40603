package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	multiexample "github.com/nl2sql/nl2sql/examples/multi"
)

const multiDir = "../examples/multi"

// counting answers from the cross-datasource example's recordings (or from
// script, by step) and counts the calls per step.
type counting struct {
	rp     *llm.Replay
	script map[string][]json.RawMessage // step → answers in order
	mu     sync.Mutex
	calls  []llm.Request
}

func (c *counting) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	c.mu.Lock()
	c.calls = append(c.calls, req)
	if answers := c.script[req.Step]; len(answers) > 0 {
		c.script[req.Step] = answers[1:]
		c.mu.Unlock()
		return &llm.Response{Content: answers[0], Provider: "script"}, nil
	}
	c.mu.Unlock()
	return c.rp.Complete(ctx, req)
}

func (c *counting) steps() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var s []string
	for _, r := range c.calls {
		s = append(s, r.Step+"@"+r.Datasource)
	}
	return strings.Join(s, " ")
}

var targetsOnce struct {
	sync.Once
	path string
	err  error
}

// multiEngine is the example's two datasources: Chinook and the targets
// database, built once per test binary.
func multiEngine(t *testing.T) (*Engine, *counting) {
	t.Helper()
	return multiEngineWith(t, nil)
}

// multiEngineWith is multiEngine with options changed by set (nil: none).
func multiEngineWith(t *testing.T, set func(*Options)) (*Engine, *counting) {
	t.Helper()
	targetsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nl2sql-engine-multi-")
		if err != nil {
			targetsOnce.err = err
			return
		}
		targetsOnce.path = filepath.Join(dir, "targets.duckdb")
		targetsOnce.err = multiexample.BuildTargets(context.Background(), targetsOnce.path)
	})
	if targetsOnce.err != nil {
		t.Fatal(targetsOnce.err)
	}
	rp, err := llm.OpenReplay(filepath.Join(multiDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	chinook, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	c := &counting{rp: rp, script: map[string][]json.RawMessage{}}
	o := Options{Open: openAdapter,
		Datasources: []DatasourceSpec{
			{ID: "chinook", Engine: "sqlite", Path: chinook, Description: "Chinook digital music store"},
			{ID: "targets", Engine: "duckdb", Path: targetsOnce.path, Description: "Sales planning: yearly revenue targets"},
		},
		Planner: c, Today: func() string { return "2026-01-15" },
	}
	if set != nil {
		set(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, c
}

func TestMain(m *testing.M) {
	code := m.Run()
	if targetsOnce.path != "" {
		os.RemoveAll(filepath.Dir(targetsOnce.path))
	}
	os.Exit(code)
}

const q1 = "Which genres beat their 2024 revenue target?"

// The decomposition recorded for q1, as a client would supply it.
func q1Decomposition(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(multiDir, "recordings", llm.FileName("decompose", "chinook+targets", q1, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var rec llm.Recording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return rec.Answer
}

// A caller who reaches neither datasource is refused before any model
// call; one who does not reach the datasource of a supplied sub-query too.
func TestMultiRefusedBeforeAnyModelCall(t *testing.T) {
	e, c := multiEngine(t)
	none := withReach(context.Background(), func(string) bool { return false })
	_, err := e.Ask(none, AskRequest{Question: q1})
	if ee := AsError(err); ee.Code != CodeDatasourceNotFound {
		t.Errorf("all denied: err = %v", err)
	}
	noTargets := withReach(context.Background(), func(ds string) bool { return ds != "targets" })
	_, err = e.RunDecomposition(noTargets, q1, q1Decomposition(t))
	if ee := AsError(err); ee.Code != CodeDatasourceNotFound || !strings.Contains(ee.Msg, `"targets"`) {
		t.Errorf("sub-query on a denied datasource: err = %v", err)
	}
	if len(c.calls) != 0 {
		t.Errorf("model calls before the refusal: %s", c.steps())
	}
	// Asked, with targets denied: it is never offered, planned or read.
	_, _ = e.Ask(noTargets, AskRequest{Question: q1})
	if strings.Contains(c.steps(), "targets") || strings.Contains(c.steps(), "resolve") {
		t.Errorf("with targets denied the calls were %s", c.steps())
	}
}

// A supplied decomposition runs like the decomposer's: same rows as Ask,
// and only the sub-queries' planner calls.
func TestRunDecomposition(t *testing.T) {
	e, c := multiEngine(t)
	asked, err := e.Ask(context.Background(), AskRequest{Question: q1})
	if err != nil {
		t.Fatal(err)
	}
	c.calls = nil
	ran, err := e.RunDecomposition(context.Background(), q1, q1Decomposition(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.steps(); got != "plan@chinook plan@targets" && got != "plan@targets plan@chinook" {
		t.Errorf("calls %s", got)
	}
	a, _ := json.Marshal(asked.Rows)
	b, _ := json.Marshal(ran.Rows)
	if !bytes.Equal(a, b) || asked.SQL != ran.SQL || len(ran.SubQueries) != 2 || asked.SubQueries[0].ID != ran.SubQueries[0].ID {
		t.Errorf("supplied %s / %s, asked %s / %s", b, ran.SQL, a, asked.SQL)
	}
	if asked.Usage.ModelCalls != 4 || ran.Usage.ModelCalls != 2 {
		t.Errorf("usage %+v and %+v", asked.Usage, ran.Usage)
	}
	_, err = e.RunDecomposition(context.Background(), q1, []byte(`{"reasoning": "x", "sub_queries": [], "combine": [], "post": null}`))
	if ee := AsError(err); ee.Code != CodeDecompositionInvalid || len(ee.Issues) == 0 {
		t.Errorf("empty decomposition: %v", err)
	}
}

// Threat: a part that failed was read as empty and the combination
// answered as if it held no rows (an anti-join counted every patient as
// without a visit while the visits' server was down), as an answer. The
// run fails with the part's error, naming it.
func TestMultiFailedPartFailsTheRun(t *testing.T) {
	e, _ := multiEngine(t)
	doc := bytes.Replace(q1Decomposition(t), []byte("Revenue target per genre for 2024"), []byte("Revenue target per genre for 2023"), 1)
	res, err := e.RunDecomposition(context.Background(), q1, doc)
	if err == nil {
		t.Fatalf("answered %q with rows %v", res.Answer, res.Rows)
	}
	if ee := AsError(err); ee.Code != CodeNoRecording || !strings.Contains(ee.Msg, `on targets) failed, so nothing was combined`) {
		t.Errorf("error %v", err)
	}
}

// A refused decomposition goes back to the model with its issues; the
// repair is step decompose_repair, sample 1.
func TestDecomposeRepair(t *testing.T) {
	e, c := multiEngine(t)
	good := q1Decomposition(t)
	bad := bytes.Replace(good, []byte(`"Revenue target per genre for 2024"`), []byte(`"SELECT genre, revenue_target FROM genre_targets"`), 1)
	c.script["decompose"] = []json.RawMessage{bad}
	c.script["decompose_repair"] = []json.RawMessage{good}
	res, err := e.Ask(context.Background(), AskRequest{Question: q1})
	if err != nil {
		t.Fatal(err)
	}
	var repair llm.Request
	for _, r := range c.calls {
		if r.Step == "decompose_repair" {
			repair = r
		}
	}
	if repair.Sample != 1 || !strings.Contains(repair.Messages[1].Content, "SQL_IN_TEXT") || len(res.Rows) != 9 {
		t.Errorf("repair %+v; %d rows", repair, len(res.Rows))
	}
	c.calls = nil
	c.script["decompose"] = []json.RawMessage{bad}
	_, err = e.Ask(context.Background(), AskRequest{Question: q1})
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeDecompositionInvalid || ee.Issues[0].Code != multi.IssueSQL {
		t.Errorf("no repair recorded: %v", err)
	}
}

// The example's recorded resolve and decompose answers satisfy the schemas
// sent to the model (live providers check answers against them). Plans,
// post included, are written in the short form planast.Decode accepts, as
// the Chinook recordings are, so post is checked by decoding it.
func TestMultiRecordingsMatchSchemas(t *testing.T) {
	rp, err := llm.OpenReplay(filepath.Join(multiDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rec := range rp.Recordings() {
		answer, schema := rec.Answer, multi.ResolveSchema
		switch rec.Step {
		case "plan":
			continue
		case "decompose":
			var m map[string]json.RawMessage
			if err := json.Unmarshal(rec.Answer, &m); err != nil {
				t.Fatal(err)
			}
			if _, err := multi.Decode(rec.Answer); err != nil {
				t.Errorf("%s: %v", rec.File, err)
			}
			m["post"] = json.RawMessage("null")
			answer, _ = json.Marshal(m)
			schema = multi.Schema
		}
		n++
		if _, err := llm.CheckOutput(string(answer), schema); err != nil {
			t.Errorf("%s: %v", rec.File, err)
		}
	}
	if n != 14 {
		t.Errorf("checked %d resolve and decompose recordings, want 14", n)
	}
}
