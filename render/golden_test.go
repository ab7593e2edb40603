package render_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

var update = flag.Bool("update", false, "rewrite the golden SQL files in testdata/golden")

const goldenDir = "testdata/golden"

// goldenOpts are the options every golden plan is rendered with.
var goldenOpts = render.Options{MaxRows: 1000}

type goldenPlan struct {
	name string
	raw  []byte
	v    *validate.Result
}

// goldenPlans decodes and validates every testdata/golden/NAME.plan.json.
func goldenPlans(t testing.TB) []goldenPlan {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.plan.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden plans: %v", err)
	}
	var out []goldenPlan
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".plan.json")
		q, err := planast.Decode(raw, planast.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		v, err := validate.Plan(q, goldenCatalog, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, goldenPlan{name, raw, v})
	}
	return out
}

func TestGolden(t *testing.T) {
	for _, g := range goldenPlans(t) {
		for _, d := range dialects() {
			sql, err := render.SQL(g.v.Plan, d, goldenOpts)
			if err != nil {
				t.Errorf("%s/%s: %v", g.name, d.Name(), err)
				continue
			}
			sql += "\n"
			path := filepath.Join(goldenDir, g.name+"."+d.Name()+".sql")
			if *update {
				if err := os.WriteFile(path, []byte(sql), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: %v (run go test ./render -update)", path, err)
				continue
			}
			if string(want) != sql {
				t.Errorf("%s differs (run go test ./render -update and review the diff)\ngot:\n%s\nwant:\n%s", path, sql, want)
			}
		}
	}
	// no stale golden SQL without a plan
	sqls, _ := filepath.Glob(filepath.Join(goldenDir, "*.sql"))
	for _, s := range sqls {
		base := strings.TrimSuffix(filepath.Base(s), ".sql")
		plan := base[:strings.LastIndexByte(base, '.')] + ".plan.json"
		if _, err := os.Stat(filepath.Join(goldenDir, plan)); err != nil {
			t.Errorf("%s has no %s", s, plan)
		}
	}
}

// TestGoldenCoverage: the golden plans hold every expression kind, every
// allow-listed function, every date unit of every unit function, every join
// type and every set operation.
func TestGoldenCoverage(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range goldenPlans(t) {
		planast.Inspect(g.v.Plan, func(n planast.Node) bool {
			switch n := n.(type) {
			case *planast.Query:
				for _, j := range n.Joins {
					seen["join "+string(j.Type)] = true
				}
				for _, s := range n.SetOps {
					seen["set_op "+string(s.Op)] = true
				}
			case *planast.Func:
				seen["func "+n.Name] = true
				if spec, _ := planast.LookupFunc(n.Name); spec.UnitArg >= 0 {
					seen["func "+n.Name+" "+n.Args[spec.UnitArg].(*planast.Literal).Text] = true
				}
			case *planast.Window:
				seen["func "+n.Name] = true
			case *planast.Literal:
				seen["literal "+string(n.Type)] = true
			case *planast.Cast:
				seen["cast "+string(n.Type)] = true
			}
			if e, ok := n.(planast.Expr); ok {
				seen["kind "+e.Kind()] = true
			}
			return true
		})
	}
	var want []string
	for _, k := range planast.Kinds {
		if k == "metric" || k == "filter" {
			continue // semantic references: planast.Expand replaces them before validation
		}
		want = append(want, "kind "+k)
	}
	for name, spec := range planast.Functions {
		want = append(want, "func "+name)
		if spec.UnitArg >= 0 {
			for _, u := range planast.UnitsOf(name) {
				want = append(want, "func "+name+" "+u)
			}
		}
	}
	for _, s := range []string{"join inner", "join left", "join right", "join full", "set_op union", "set_op union_all",
		"set_op intersect", "set_op except", "literal string", "literal integer", "literal decimal", "literal boolean",
		"literal date", "literal timestamp", "literal null", "cast integer", "cast decimal", "cast float", "cast text",
		"cast boolean", "cast date", "cast timestamp"} {
		want = append(want, s)
	}
	sort.Strings(want)
	var missing []string
	for _, w := range want {
		if !seen[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no golden plan covers: %s", strings.Join(missing, ", "))
	}
	if !slices.Contains(want, "func DATE_ADD quarter") {
		t.Fatal("coverage list is broken")
	}
}

// TestGoldenSQLiteRuns runs every golden SQLite rendering on a database
// holding the golden catalog's tables, proving syntax and function support.
func TestGoldenSQLiteRuns(t *testing.T) {
	db := openSQLite(t, goldenCatalog, goldenRows)
	for _, g := range goldenPlans(t) {
		sql, err := render.SQL(g.v.Plan, sqliteDialect, goldenOpts)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		rows, err := queryAll(db, sql)
		if err != nil {
			t.Errorf("%s: %v\n%s", g.name, err, sql)
			continue
		}
		if len(rows) == 0 && g.name != "set_ops_chained" {
			t.Errorf("%s: no rows; the golden data should exercise every plan", g.name)
		}
	}
}
