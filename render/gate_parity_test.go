package render_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/eval"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The renderer and the adapters' statement gate must agree: a valid plan
// whose SQL the gate refuses is a question the product can never answer,
// reported as a security error (READ_ONLY_VIOLATION) for a plain read.
// gateParity renders every plan it is given on every dialect and checks
// each text with source.CheckStatement, the function each adapter's Query
// applies.
type gateParity struct {
	rendered map[string]int // per dialect
	refused  int
}

func (g *gateParity) check(t *testing.T, name string, plan *planast.Query, opts render.Options) {
	t.Helper()
	for _, d := range dialects() {
		sql, err := render.SQL(plan, d, opts)
		if err != nil {
			continue // render failures are the fuzz and golden tests' business
		}
		g.rendered[d.Name()]++
		if se := source.CheckStatement(d.Name(), sql); se != nil {
			g.refused++
			if g.refused <= 20 {
				t.Errorf("%s on %s: the gate refuses the rendered SQL: %v\n%s", name, d.Name(), se, sql)
			}
		}
	}
}

func (g *gateParity) report(t *testing.T, what string) {
	t.Helper()
	var parts []string
	for _, n := range render.Names() {
		parts = append(parts, n+"="+strconv.Itoa(g.rendered[n]))
	}
	t.Logf("%s: rendered %s; refused by the gate: %d", what, strings.Join(parts, " "), g.refused)
	if g.rendered[render.Names()[0]] == 0 {
		t.Errorf("%s: no plan rendered", what)
	}
}

func newGateParity() *gateParity { return &gateParity{rendered: map[string]int{}} }

func TestGateAcceptsGoldenAndCorpusPlans(t *testing.T) {
	g := newGateParity()
	for _, p := range goldenPlans(t) {
		g.check(t, "golden "+p.name, p.v.Plan, goldenOpts)
		g.check(t, "golden "+p.name+" (no row limit)", p.v.Plan, render.Options{})
	}
	g.report(t, "golden plans")

	g = newGateParity()
	for name, data := range corpusPlans(t) {
		q, err := planast.Decode(data, planast.DefaultLimits)
		if err != nil {
			continue
		}
		v, err := validate.Plan(q, fuzzCatalog, fuzzOpts)
		if err != nil {
			continue
		}
		g.check(t, name, v.Plan, goldenOpts)
	}
	g.report(t, "fuzz corpus and hostile plans (valid ones)")
}

// corpusPlans returns the committed fuzz corpus and the stored hostile
// plans (planast/testdata), by name.
func corpusPlans(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	files, _ := filepath.Glob("testdata/fuzz/FuzzDecodeValidateRender/*")
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(raw), "\n", 2)
		if len(lines) < 2 || lines[0] != "go test fuzz v1" {
			t.Fatalf("%s: not a fuzz corpus file", f)
		}
		body := strings.TrimSpace(lines[1])
		body = strings.TrimSuffix(strings.TrimPrefix(body, "[]byte("), ")")
		s, err := strconv.Unquote(body)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out["corpus "+filepath.Base(f)] = []byte(s)
	}
	if len(files) == 0 {
		t.Fatal("no fuzz corpus")
	}
	f, err := os.Open("../planast/testdata/hostile_plans.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var hc struct {
			Plan json.RawMessage `json:"plan"`
		}
		if json.Unmarshal(bytes.TrimSpace(sc.Bytes()), &hc) == nil && len(hc.Plan) > 0 {
			out["hostile line "+strconv.Itoa(n)] = hc.Plan
		}
	}
	return out
}

// TestGateAcceptsLiftedBenchmarkPlans lifts every gold query of the Spider
// and BIRD sets in ../shared into a plan, validates it on its database's
// schema and checks every dialect's rendering against the gate.
func TestGateAcceptsLiftedBenchmarkPlans(t *testing.T) {
	for _, s := range goldSuites(t) {
		t.Run(s.suite, func(t *testing.T) {
			g, lifted := newGateParity(), 0
			n := s.lift(t, func(id string, snap *schema.Snapshot, plan *planast.Query) {
				v, err := validate.Plan(plan, snap, validate.Options{})
				if err != nil {
					return
				}
				lifted++
				g.check(t, id, v.Plan, render.Options{})
			})
			t.Logf("%s: %d of %d gold queries lifted and validated", s.suite, lifted, n)
			g.report(t, s.suite+" lifted plans")
		})
	}
}

// goldSuite is one benchmark set of ../shared/eval: its questions and
// their databases.
type goldSuite struct{ suite, file, root, shared string }

// goldSuites are the Spider and BIRD sets; the test is skipped under
// -short or when ../shared/eval is absent.
func goldSuites(t *testing.T) []goldSuite {
	t.Helper()
	if testing.Short() {
		t.Skip("-short")
	}
	shared := filepath.Join("..", "..", "shared", "eval")
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("the benchmark sets are absent (%s): %v", shared, err)
	}
	return []goldSuite{
		{eval.SuiteSpider, "spider/dev.json", "spider/database", shared},
		{eval.SuiteBird, "bird-minidev/mini_dev_sqlite.json", "bird-minidev/database", shared},
	}
}

// lift lifts every gold query of s into a plan on its database's schema
// and calls f with each that lifts; it returns how many questions s has.
func (s goldSuite) lift(t *testing.T, f func(id string, snap *schema.Snapshot, plan *planast.Query)) int {
	t.Helper()
	qs, err := eval.LoadQuestions(s.suite, filepath.Join(s.shared, s.file))
	if err != nil {
		t.Fatal(err)
	}
	byDB := map[string][]eval.Question{}
	for _, q := range qs {
		byDB[q.DBID] = append(byDB[q.DBID], q)
	}
	ids := make([]string, 0, len(byDB))
	for id := range byDB {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		snap := snapshotOf(t, eval.DBPath(filepath.Join(s.shared, s.root), id), id)
		if snap == nil {
			continue
		}
		for _, q := range byDB[id] {
			if plan, err := lift.Lift(q.Gold, lift.DialectSQLite, snap); err == nil {
				f(q.ID, snap, plan)
			}
		}
	}
	return len(qs)
}

func snapshotOf(t *testing.T, path, id string) *schema.Snapshot {
	t.Helper()
	src, err := sqlite.OpenSQLite(context.Background(), id, path, source.Options{})
	if err != nil {
		t.Logf("%s: %v", id, err)
		return nil
	}
	defer src.Close()
	snap, err := src.Snapshot(context.Background())
	if err != nil {
		t.Logf("%s: %v", id, err)
		return nil
	}
	return snap
}
