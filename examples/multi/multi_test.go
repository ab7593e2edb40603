package multi_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sqlitecopy"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/examples/multi"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/config"
)

var updatePromptHashes = flag.Bool("update-prompt-hashes", false, "rewrite the prompt_sha256 of every recording of this example")

const today = "2026-01-15"

type question struct {
	Question string `json:"question"`
	GoldSQL  string `json:"gold_sql"`
}

func loadQuestions(t *testing.T) []question {
	t.Helper()
	b, err := os.ReadFile("questions.json")
	if err != nil {
		t.Fatal(err)
	}
	var qs []question
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&qs); err != nil {
		t.Fatal(err)
	}
	if len(qs) < 5 {
		t.Fatalf("questions.json has %d questions, want at least 5", len(qs))
	}
	return qs
}

// capture wraps the replay planner and records every request it answers.
type capture struct {
	rp   *llm.Replay
	mu   sync.Mutex
	reqs map[string]llm.Request // by llm.Key
}

func (c *capture) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	c.mu.Lock()
	c.reqs[llm.Key(req.Step, req.Datasource, req.Intent, req.Sample)] = req
	c.mu.Unlock()
	return c.rp.Complete(ctx, req)
}

// fixture is one built targets database shared by the tests of a run.
var fixture struct {
	once    sync.Once
	dir     string
	targets string
	gold    string
	err     error
}

// build makes targets.duckdb and the gold database (a DuckDB copy of
// Chinook with the targets tables created in it) once per test binary.
func build(t *testing.T) {
	t.Helper()
	fixture.once.Do(func() {
		dir, err := os.MkdirTemp("", "nl2sql-multi-")
		if err != nil {
			fixture.err = err
			return
		}
		fixture.dir = dir
		fixture.targets = filepath.Join(dir, "targets.duckdb")
		fixture.gold = filepath.Join(dir, "gold.duckdb")
		ctx := context.Background()
		if fixture.err = multi.BuildTargets(ctx, fixture.targets); fixture.err != nil {
			return
		}
		if fixture.err = sqlitecopy.CopySQLiteToDuckDB(ctx, "../chinook/chinook.sqlite", fixture.gold); fixture.err != nil {
			return
		}
		conn, err := duckdb.NewConnector(fixture.gold, nil)
		if err != nil {
			fixture.err = err
			return
		}
		db := sql.OpenDB(conn)
		defer db.Close()
		_, fixture.err = db.ExecContext(ctx, multi.TargetsSQL())
	})
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.dir != "" {
		os.RemoveAll(fixture.dir)
	}
	os.Exit(code)
}

// newEngine builds the engine the example's nl2sql.yaml describes, with
// targets.duckdb from the fixture, and a capturing replay planner.
func newEngine(t *testing.T) (*engine.Engine, *capture) {
	t.Helper()
	build(t)
	cfg, err := config.Load("nl2sql.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var specs []engine.DatasourceSpec
	for _, d := range cfg.Datasources {
		s := engine.DatasourceSpec{ID: d.ID, Engine: d.Engine, Path: d.Path, Description: d.Description, RowLimit: d.RowLimit}
		if d.ID == "targets" {
			s.Path = fixture.targets
		}
		specs = append(specs, s)
	}
	if len(specs) != 2 || specs[0].ID != "chinook" || specs[1].ID != "targets" {
		t.Fatalf("nl2sql.yaml datasources = %+v", specs)
	}
	rp, err := llm.OpenReplay("recordings")
	if err != nil {
		t.Fatal(err)
	}
	c := &capture{rp: rp, reqs: map[string]llm.Request{}}
	e, err := engine.New(engine.Options{Datasources: specs, Open: app.OpenSource, Planner: c, Today: func() string { return today }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, c
}

// Each answer equals its gold SQL's, run on a DuckDB copy of both
// datasources, compared as multisets of rows (numbers to 2 decimals).
func TestAnswersMatchGold(t *testing.T) {
	e, _ := newEngine(t)
	conn, err := duckdb.NewConnector(fixture.gold+"?access_mode=READ_ONLY", nil)
	if err != nil {
		t.Fatal(err)
	}
	gold := sql.OpenDB(conn)
	defer gold.Close()
	for _, q := range loadQuestions(t) {
		t.Run(q.Question, func(t *testing.T) {
			res, err := e.Ask(context.Background(), engine.AskRequest{Question: q.Question})
			if err != nil {
				t.Fatal(err)
			}
			wantCols, want := goldRows(t, gold, q.GoldSQL)
			if strings.Join(res.Columns, ",") != strings.Join(wantCols, ",") {
				t.Errorf("columns %v, gold %v", res.Columns, wantCols)
			}
			if msg := compareBags(res.Rows, want); msg != "" {
				t.Errorf("rows differ from gold: %s\nSQL:\n%s", msg, res.SQL)
			}
			if len(res.SubQueries) < 2 {
				t.Errorf("%d sub-queries, want several", len(res.SubQueries))
			}
			for _, sq := range res.SubQueries {
				if sq.Error != "" || sq.PlanSource != "llm" || sq.SQL == "" || sq.Plan == nil || !strings.HasPrefix(sq.ID, "sq_") {
					t.Errorf("sub-query %+v", sq)
				}
			}
			if !strings.HasPrefix(res.SQL, "WITH ") || len(res.Rows) == 0 {
				t.Errorf("combine SQL %q, %d rows", res.SQL, len(res.Rows))
			}
			b, _ := json.Marshal(res.Rows)
			t.Logf("answer: %s\ncolumns %v rows %s\nwarnings %v", res.Answer, res.Columns, b, res.Warnings)
		})
	}
}

// The 2025 rep targets hold "TBD" for a rep not hired yet: it does not
// convert to the integer key, so it is a warning and a row of its own.
func TestKeyCoercionWarning(t *testing.T) {
	e, _ := newEngine(t)
	res, err := e.Ask(context.Background(), engine.AskRequest{Question: "How did each support rep's 2025 sales compare with their target?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `column employee_id did not convert to integer (first: "TBD")`) {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

// Two engines give byte-identical results apart from timings and trace ids.
func TestDeterministic(t *testing.T) {
	e1, _ := newEngine(t)
	e2, _ := newEngine(t)
	for _, q := range loadQuestions(t) {
		r1, err := e1.Ask(context.Background(), engine.AskRequest{Question: q.Question})
		if err != nil {
			t.Fatal(err)
		}
		r2, err := e2.Ask(context.Background(), engine.AskRequest{Question: q.Question})
		if err != nil {
			t.Fatal(err)
		}
		if r1.TraceID == r2.TraceID {
			t.Errorf("%q: one trace id for two runs", q.Question)
		}
		r1.Timings, r2.Timings, r1.TraceID, r2.TraceID = engine.Timings{}, engine.Timings{}, "", ""
		b1, _ := json.Marshal(r1)
		b2, _ := json.Marshal(r2)
		if !bytes.Equal(b1, b2) {
			t.Errorf("%q: results differ:\n%s\n%s", q.Question, b1, b2)
		}
		if bytes.Contains(b1, []byte(fixture.dir)) || bytes.Contains(b1, []byte("chinook.sqlite")) {
			t.Errorf("%q: the result leaks a path", q.Question)
		}
		if !sort.SliceIsSorted(r1.SubQueries, func(i, j int) bool { return r1.SubQueries[i].ID < r1.SubQueries[j].ID }) {
			t.Errorf("%q: sub-queries not sorted by id", q.Question)
		}
	}
}

func TestNotAnswerable(t *testing.T) {
	e, c := newEngine(t)
	_, err := e.Ask(context.Background(), engine.AskRequest{Question: "What will the weather be in Paris tomorrow?"})
	if ee := engine.AsError(err); ee == nil || ee.Code != engine.CodeNotAnswerable || !strings.Contains(ee.Msg, "weather") {
		t.Fatalf("err = %v, want NOT_ANSWERABLE with the reason", err)
	}
	if len(c.reqs) != 1 {
		t.Errorf("%d model calls, want the resolver's only", len(c.reqs))
	}
}

// A question the resolver answers from one datasource takes the usual path.
func TestOneDatasourcePicked(t *testing.T) {
	e, _ := newEngine(t)
	res, err := e.Ask(context.Background(), engine.AskRequest{Question: "How many customers are there in each country?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.SubQueries) != 1 || res.SubQueries[0].Datasource != "chinook" || res.Usage.ModelCalls != 2 || len(res.Rows) != 24 {
		t.Errorf("sub-queries %+v, usage %+v, %d rows", res.SubQueries, res.Usage, len(res.Rows))
	}
}

// Every recording is used, written by hand, and made for the prompt the
// code sends now (-update-prompt-hashes rewrites them after a check).
func TestRecordings(t *testing.T) {
	e, c := newEngine(t)
	qs := loadQuestions(t)
	extra := []string{"What will the weather be in Paris tomorrow?", "How many customers are there in each country?"}
	for _, q := range qs {
		extra = append(extra, q.Question)
	}
	for _, q := range extra {
		_, _ = e.Ask(context.Background(), engine.AskRequest{Question: q})
	}
	rp, err := llm.OpenReplay("recordings")
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, rec := range rp.Recordings() {
		req, ok := c.reqs[llm.Key(rec.Step, rec.Datasource, rec.Question, rec.Sample)]
		if !ok {
			t.Errorf("%s is never asked for", rec.File)
			continue
		}
		if !strings.Contains(rec.Note, "by hand") {
			t.Errorf("%s: the note must say it was written by hand", rec.File)
		}
		if rec.File != llm.FileName(rec.Step, rec.Datasource, rec.Question, rec.Sample) {
			t.Errorf("%s should be named %s", rec.File, llm.FileName(rec.Step, rec.Datasource, rec.Question, rec.Sample))
		}
		if rec.PromptSHA256 != req.PromptHash {
			stale = append(stale, rec.File)
			if *updatePromptHashes {
				rec.PromptSHA256 = req.PromptHash
				if err := llm.Save("recordings", rec); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if len(stale) > 0 && !*updatePromptHashes {
		t.Errorf("%d recordings were made for a prompt that has changed since; check them and run with -update-prompt-hashes: %v", len(stale), stale)
	}
	if len(c.reqs) != len(rp.Recordings()) {
		t.Errorf("%d requests, %d recordings", len(c.reqs), len(rp.Recordings()))
	}
	// A recordings check can rebuild each sub-query's plan request from
	// the recorded decomposition alone.
	rebuilt := 0
	for _, rec := range rp.Recordings() {
		if rec.Step != "decompose" {
			continue
		}
		reqs, err := e.SubQueryPlanRequests(context.Background(), rec.Answer)
		if err != nil {
			t.Fatalf("%s: %v", rec.File, err)
		}
		for _, req := range reqs {
			sent := c.reqs[llm.Key(req.Step, req.Datasource, req.Intent, req.Sample)]
			if sent.PromptHash == "" || sent.PromptHash != req.PromptHash {
				t.Errorf("%s: rebuilt request for %q differs from the one sent", rec.File, req.Intent)
			}
			rebuilt++
		}
	}
	if rebuilt != 13 {
		t.Errorf("rebuilt %d sub-query plan requests, want 13", rebuilt)
	}
}

func goldRows(t *testing.T, db *sql.DB, q string) ([]string, [][]any) {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("gold SQL: %v", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return cols, out
}

// norm renders a value for comparison: numbers rounded to 2 decimals.
func norm(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		return num(float64(x))
	case int32:
		return num(float64(x))
	case float64:
		return num(x)
	case duckdb.Decimal:
		return num(x.Float64())
	case json.Number: // a decimal at its engine's scale
		f, _ := x.Float64()
		return num(f)
	case string:
		return "s:" + x
	case bool:
		return fmt.Sprint("b:", x)
	case time.Time:
		return "s:" + x.UTC().Format("2006-01-02 15:04:05")
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func num(f float64) string {
	r := math.Round(f*100) / 100
	if r == 0 {
		r = 0
	}
	return fmt.Sprintf("n:%.2f", r)
}

func compareBags(got, want [][]any) string {
	enc := func(rows [][]any) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			parts := make([]string, len(r))
			for k, v := range r {
				parts[k] = norm(v)
			}
			out[i] = strings.Join(parts, " | ")
		}
		sort.Strings(out)
		return out
	}
	g, w := enc(got), enc(want)
	if strings.Join(g, "\n") == strings.Join(w, "\n") {
		return ""
	}
	return fmt.Sprintf("got (%d):\n  %s\ngold (%d):\n  %s", len(g), strings.Join(g, "\n  "), len(w), strings.Join(w, "\n  "))
}
