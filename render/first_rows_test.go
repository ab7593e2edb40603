package render_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// firstRowsCatalog is a table and a view standing for a huge unindexed one:
// every engine replaces "big" by a view of 100M generated rows whose
// millionth row fails, so a plan over it succeeds only when the engine
// stops reading near the limit.
var firstRowsCatalog = memCatalog{
	table("p", []string{"id integer", "grp text", "n integer"}),
	table("big", []string{"i integer"}),
}

var firstRowsViews = map[string][]string{
	"sqlite": {`DROP TABLE "big"`, `CREATE VIEW "big" AS WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 100000000)
		SELECT CASE WHEN i >= 1000000 THEN abs(-9223372036854775807 - 1) ELSE i END AS "i" FROM r`},
	"duckdb": {`DROP TABLE "big"`, `CREATE VIEW "big" AS SELECT CASE WHEN i >= 1000000 THEN error('read row ' || i) ELSE i END AS "i" FROM range(100000000) t(i)`},
	"postgres": {`DROP TABLE "big"`, `CREATE VIEW "big" AS SELECT CASE WHEN i >= 1000000 THEN (1 / (i - i))::bigint ELSE i END AS "i"
		FROM (SELECT generate_series(0::bigint, 100000000) AS i) s`},
}

// firstRowsData holds 40 rows of p stored in an order that is neither id
// order nor the order of any output, with ties on grp and n.
func firstRowsData() map[string][]string {
	var ps []string
	for k := range 40 {
		id := (k*17)%40 + 1
		ps = append(ps, fmt.Sprintf("%d, '%c', %d", id, 'a'+rune(id%3), id%4))
	}
	return map[string][]string{"p": ps}
}

// A plan without order_by takes its first rows before sorting them: the
// engine stops near the limit instead of reading a huge input, and the
// result is still the same on every run (byte-identical rows, sorted by
// every output) and, when the limit does not cut it, on every engine.
func TestFirstRowsBeforeTheSort(t *testing.T) {
	dbs := engines(t, firstRowsCatalog, firstRowsData())
	for _, e := range dbs {
		for _, s := range firstRowsViews[e.d.Name()] {
			if _, err := e.db.Exec(s); err != nil {
				t.Fatalf("%s: %s: %v", e.d.Name(), s, err)
			}
		}
	}
	plan := func(js string) *planast.Query {
		q, err := planast.Decode([]byte(js), planast.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		v, err := validate.Plan(q, firstRowsCatalog, validate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return v.Plan
	}
	sel := `"select": [{"expr": {"kind": "column", "table": "p", "column": "grp"}, "alias": "grp"}, {"expr": {"kind": "column", "table": "p", "column": "n"}, "alias": "n"}], "from": [{"table": "p", "alias": "p"}]`
	sorted := func(rows [][]string) bool {
		return slices.IsSortedFunc(rows, func(a, b []string) int { return strings.Compare(strings.Join(a, "\x00"), strings.Join(b, "\x00")) })
	}
	t.Run("huge view stops at the limit", func(t *testing.T) {
		q := plan(`{"select": [{"expr": {"kind": "column", "table": "b", "column": "i"}, "alias": "i"}], "from": [{"table": "big", "alias": "b"}]}`)
		for _, e := range dbs {
			s, err := render.SQL(q, e.d, render.Options{MaxRows: 11})
			if err != nil {
				t.Fatal(err)
			}
			got, err := queryAll(e.db, s)
			if err != nil || fmt.Sprint(got) != "[[0] [1] [2] [3] [4] [5] [6] [7] [8] [9] [10]]" {
				t.Errorf("%s: %v, %v\n%s", e.d.Name(), got, err, s)
			}
		}
	})
	t.Run("cut by the limit: same rows on every run", func(t *testing.T) {
		q := plan(`{` + sel + `}`)
		for _, e := range dbs {
			s, err := render.SQL(q, e.d, render.Options{MaxRows: 7})
			if err != nil {
				t.Fatal(err)
			}
			first, err := queryAll(e.db, s)
			if err != nil || len(first) != 7 || !sorted(first) {
				t.Fatalf("%s: %v, %v\n%s", e.d.Name(), first, err, s)
			}
			for range 5 {
				again, err := queryAll(e.db, s)
				if err != nil || fmt.Sprint(again) != fmt.Sprint(first) {
					t.Errorf("%s: run gave %v, first run %v", e.d.Name(), again, first)
				}
			}
		}
	})
	t.Run("grouped rows are sorted before the limit", func(t *testing.T) {
		// which groups come first is no scan order (DuckDB's parallel hash
		// aggregate emits them in any order): only the whole sort keeps
		// the same groups on every run
		q := plan(`{"select": [{"expr": {"kind": "column", "table": "p", "column": "n"}, "alias": "n"}, {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "c"}],
			"from": [{"table": "p", "alias": "p"}], "group_by": [{"kind": "column", "table": "p", "column": "n"}]}`)
		for _, e := range dbs {
			s, err := render.SQL(q, e.d, render.Options{MaxRows: 2})
			if err != nil {
				t.Fatal(err)
			}
			got, err := queryAll(e.db, s)
			if err != nil || fmt.Sprint(got) != "[[0 10] [1 10]]" || strings.Contains(s, "first_rows") {
				t.Errorf("%s: %v, %v\n%s", e.d.Name(), got, err, s)
			}
		}
	})
	t.Run("window outputs are sorted before the limit", func(t *testing.T) {
		q := plan(`{"select": [{"expr": {"kind": "column", "table": "p", "column": "id"}, "alias": "id"},
			{"expr": {"kind": "window", "name": "RANK", "args": [], "order_by": [{"expr": {"kind": "column", "table": "p", "column": "id"}, "direction": "desc"}]}, "alias": "r"}],
			"from": [{"table": "p", "alias": "p"}]}`)
		for _, e := range dbs {
			s, err := render.SQL(q, e.d, render.Options{MaxRows: 2})
			if err != nil {
				t.Fatal(err)
			}
			got, err := queryAll(e.db, s)
			if err != nil || fmt.Sprint(got) != "[[1 40] [2 39]]" || strings.Contains(s, "first_rows") {
				t.Errorf("%s: %v, %v\n%s", e.d.Name(), got, err, s)
			}
		}
	})
	t.Run("not cut: same rows on every engine", func(t *testing.T) {
		q := plan(`{` + sel + `, "where": {"kind": "binary", "op": "<=", "left": {"kind": "column", "table": "p", "column": "id"}, "right": {"kind": "literal", "value": 9}}, "limit": 20}`)
		var want [][]string
		for i, e := range dbs {
			s, err := render.SQL(q, e.d, render.Options{MaxRows: 11})
			if err != nil {
				t.Fatal(err)
			}
			got, err := queryAll(e.db, s)
			if err != nil || len(got) != 9 || !sorted(got) {
				t.Fatalf("%s: %v, %v\n%s", e.d.Name(), got, err, s)
			}
			if i == 0 {
				want = got
			} else if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %v; %s gave %v", e.d.Name(), got, dbs[0].d.Name(), want)
			}
		}
	})
}
