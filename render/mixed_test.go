package render_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/render"
)

// SQLite stores any value in any column; PostgreSQL and DuckDB cannot.
// Each pair is what SQLite holds in a column of the type and what the
// others hold for it: the value, or NULL where the stored one is not of
// the type. A column marked Mixed (its profile counted such values) reads
// them as NULL (render.ReadAs), so random plans over these columns must
// return the same rows on the three engines.
var mixedValues = map[string][][2]string{
	"k integer": {{"7", "7"}, {"'abc'", "NULL"}, {"-3", "-3"}, {"'12abc'", "NULL"}, {"'Infinity'", "NULL"}, {"''", "NULL"},
		{"42", "42"}, {"'null'", "NULL"}, {"NULL", "NULL"}, {"X'00'", "NULL"}, {"'1,5'", "NULL"}, {"0", "0"}, {"'0x1A'", "NULL"}},
	"r float": {{"12.5", "12.5"}, {"'abc'", "NULL"}, {"-0.25", "-0.25"}, {"'NaN'", "NULL"}, {"1000", "1000"}, {"'n/a'", "NULL"},
		{"NULL", "NULL"}, {"3", "3"}, {"' '", "NULL"}},
	"v date": {{"'2024-02-29'", "'2024-02-29'"}, {"'2024-02-30'", "NULL"}, {"'n/a'", "NULL"}, {"45000", "NULL"},
		{"'2024-03-01 10:11:12'", "'2024-03-01'"}, {"'0000-01-01'", "NULL"}, {"'2024-13-01'", "NULL"}, {"'9999-12-31'", "'9999-12-31'"},
		{"'20240301'", "NULL"}, {"'2024-3-1'", "NULL"}, {"NULL", "NULL"}, {"'2023-12-31'", "'2023-12-31'"}},
	"w timestamp": {{"'2024-03-01 10:11:12'", "'2024-03-01 10:11:12'"}, {"'2024-03-01 24:00:00'", "NULL"}, {"'2024-03-01 10:61'", "NULL"},
		{"'2024-03-01'", "'2024-03-01 00:00:00'"}, {"'junk'", "NULL"}, {"1700000000", "NULL"}, {"'2024-01-31 23:59:59'", "'2024-01-31 23:59:59'"},
		{"NULL", "NULL"}, {"'2024-02-29T06:00:00'", "'2024-02-29 06:00:00'"},
		// Z and UTC offsets: the instant in UTC
		{"'2024-03-01T10:15:00.000Z'", "'2024-03-01 10:15:00'"}, {"'2024-03-06T00:15:00+02:00'", "'2024-03-05 22:15:00'"},
		{"'2024-02-29 23:30-05:30'", "'2024-03-01 05:00:00'"}, {"'2024-03-01Z'", "NULL"}, {"'2024-03-01 10:00+25:00'", "NULL"}},
}

var mixedCols = []string{"k integer", "r float", "v date", "w timestamp"}

// mixedCatalog is table x with the columns above, each marked Mixed.
func mixedCatalog() memCatalog {
	t := table("x", append([]string{"id integer"}, mixedCols...))
	for i := range t.Columns[1:] {
		t.Columns[1+i].Mixed = true
	}
	return memCatalog{t}
}

// mixedRows are x's rows as SQLite holds them (raw) and as the others do.
func mixedRows(raw bool) map[string][]string {
	side := 1
	if raw {
		side = 0
	}
	var rows []string
	for i := range 24 {
		vals := []string{strconv.Itoa(i + 1)}
		for j, c := range mixedCols {
			vs := mixedValues[c]
			vals = append(vals, vs[(i+7*j)%len(vs)][side])
		}
		rows = append(rows, strings.Join(vals, ", "))
	}
	return map[string][]string{"x": rows}
}

type mixedGen struct{ r *rand.Rand }

func (g mixedGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g mixedGen) num() string {
	switch g.r.IntN(4) {
	case 0:
		return binary(g.pick("+", "-", "*"), column(g.pick("k", "r")), num(g.pick("2", "-1", "0.5")))
	case 1:
		return call("COALESCE", column(g.pick("k", "r")), num("0"))
	}
	return column(g.pick("k", "r"))
}

func (g mixedGen) temporal() string {
	switch g.r.IntN(3) {
	case 0:
		return call("DATE_TRUNC", str(g.pick("month", "year", "day")), column(g.pick("v", "w")))
	case 1:
		return call("DATE_PART", str(g.pick("year", "month", "day", "hour")), column(g.pick("v", "w")))
	}
	return column(g.pick("v", "w"))
}

func (g mixedGen) pred() string {
	switch g.r.IntN(4) {
	case 0:
		return binary(g.pick("<", ">=", "=", "!="), g.num(), num(g.pick("5", "0", "12.5")))
	case 1:
		return binary(g.pick("<", ">="), column("v"), date(g.pick("2024-01-01", "2024-02-29")))
	case 2:
		return `{"kind":"is_null","expr":` + column(g.pick("k", "r", "v", "w")) + `}`
	}
	return binary(">", column("w"), `{"kind":"literal","type":"timestamp","value":"2024-02-01 00:00:00"}`)
}

func (g mixedGen) plan() string {
	where := ""
	if g.r.IntN(2) == 0 {
		where = `,"where":` + g.pred()
	}
	if g.r.IntN(3) == 0 {
		aggs := []string{
			`{"expr":{"kind":"func","name":"COUNT","args":[` + column(g.pick("k", "r", "v", "w")) + `]},"alias":"c"}`,
			`{"expr":` + call(g.pick("SUM", "AVG", "MIN", "MAX"), column(g.pick("k", "r"))) + `,"alias":"a"}`,
			`{"expr":` + call(g.pick("MIN", "MAX"), column(g.pick("v", "w"))) + `,"alias":"t"}`,
		}
		return `{"select":[` + strings.Join(aggs, ",") + `],"from":[{"table":"x","alias":"x"}]` + where + `}`
	}
	items := []string{`{"expr":` + column("id") + `,"alias":"id"}`}
	for i := range 1 + g.r.IntN(3) {
		e := g.num()
		if g.r.IntN(2) == 0 {
			e = g.temporal()
		}
		items = append(items, `{"expr":`+e+`,"alias":"e`+strconv.Itoa(i)+`"}`)
	}
	return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"x","alias":"x"}]` + where + `,"order_by":[{"expr":` + column("id") + `}]}`
}

func TestDifferentialMixedColumns(t *testing.T) {
	cat := mixedCatalog()
	dbs := engines(t, cat, mixedRows(false))
	for i := range dbs {
		if dbs[i].d.Name() == "sqlite" {
			dbs[i].db = openSQLite(t, cat, mixedRows(true))
		}
	}
	n := 300
	if s := os.Getenv("NL2SQL_DIFF_PLANS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	g := mixedGen{rand.New(rand.NewPCG(23, 1))}
	counts := map[diffOutcome]int{}
	for i := range n {
		counts[diffRun(t, dbs, cat, i, g.plan())]++
	}
	if counts[diffRefused] > n/2 {
		t.Errorf("%d of %d plans refused: the generator tests too little", counts[diffRefused], n)
	}
	t.Logf("mixed columns: %d plans on %d engines, %d refused by the validator, %d differed", n, len(dbs), counts[diffRefused], counts[diffDiffered])
}

// The guard is SQLite's alone: the other engines read the column as it is.
func TestReadAsOnlyOnSQLite(t *testing.T) {
	for _, name := range []string{"duckdb", "postgres"} {
		d, _ := render.Lookup(name)
		if got := render.ReadAs(d, `"k"`, "integer"); got != `"k"` {
			t.Errorf("%s: ReadAs = %s", name, got)
		}
	}
	lite, _ := render.Lookup("sqlite")
	if got := render.ReadAs(lite, `"k"`, "integer"); !strings.Contains(got, "typeof") {
		t.Errorf("sqlite: ReadAs = %s, want a typeof guard", got)
	}
}
