package render_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The semantics tests run rendered plans on SQLite and check the meaning
// the plan language promises on every engine.

var semCatalog = memCatalog{
	table("n", []string{"id integer", "a integer", "b integer", "x decimal", "s text", "d date", "grp text"}),
}

var semRows = map[string][]string{"n": {
	`1, 7, 2, 7.5, 'ABCdef', '2025-01-31', 'g1'`,
	`2, -7, 2, -7.5, 'abcdef', '2025-05-17', 'g2'`,
	`3, 7, -2, 0, 'a_b', '2024-02-29', 'g1'`,
	`4, 7, 0, NULL, 'axb', '2025-12-31', 'g2'`,
	`5, NULL, NULL, NULL, NULL, '2025-01-01', 'g1'`,
}}

// semRun validates and renders p for SQLite and returns the rows.
func semRun(t *testing.T, db *sql.DB, p string, opts render.Options) [][]string {
	t.Helper()
	q, err := planast.Decode([]byte(p), planast.Limits{})
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, p)
	}
	v, err := validate.Plan(q, semCatalog, validate.Options{})
	if err != nil {
		t.Fatalf("validate: %v\n%s", err, p)
	}
	s, err := render.SQL(v.Plan, sqliteDialect, opts)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := queryAll(db, s)
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return rows
}

// col returns column i of rows.
func col(rows [][]string, i int) []string {
	out := make([]string, len(rows))
	for k, r := range rows {
		out[k] = r[i]
	}
	return out
}

// exprs selects each expression (aliased e0, e1, ...) from the row with id.
func exprs(id string, es ...string) string {
	items := make([]string, len(es))
	for i, e := range es {
		items[i] = `{"expr":` + e + `,"alias":"e` + string(rune('0'+i)) + `"}`
	}
	return `{"select":[` + strings.Join(items, ",") + `],"from":[{"table":"n","alias":"n"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","column":"id"},"right":{"kind":"literal","value":` + id + `}}}`
}

func num(v string) string { return `{"kind":"literal","value":` + v + `}` }
func str(v string) string { return `{"kind":"literal","value":"` + v + `"}` }
func date(v string) string {
	return `{"kind":"literal","type":"date","value":"` + v + `"}`
}
func column(name string) string { return `{"kind":"column","column":"` + name + `"}` }
func binary(op, l, r string) string {
	return `{"kind":"binary","op":"` + op + `","left":` + l + `,"right":` + r + `}`
}
func call(name string, args ...string) string {
	return `{"kind":"func","name":"` + name + `","args":[` + strings.Join(args, ",") + `]}`
}

func checkRow(t *testing.T, what string, got [][]string, want ...string) {
	t.Helper()
	if len(got) != 1 || !slices.Equal(got[0], want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

func TestSemanticsArithmetic(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	o := render.Options{}
	checkRow(t, "true division", semRun(t, db, exprs("1", binary("/", num("7"), num("2")), binary("/", column("a"), column("b")), binary("/", column("a"), num("0")), binary("/", column("x"), num("0.0"))), o),
		"3.5", "3.5", "NULL", "NULL")
	checkRow(t, "div", semRun(t, db, exprs("2", binary("div", column("a"), column("b")), binary("div", num("7"), num("-2")), binary("div", num("7"), num("2")), binary("div", column("a"), num("0"))), o),
		"-3", "-3", "3", "NULL")
	checkRow(t, "remainder", semRun(t, db, exprs("2", binary("%", column("a"), num("2")), binary("%", num("7"), num("0"))), o), "-1", "NULL")
}

func TestSemanticsLike(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	like := func(pattern string, ci, neg bool) string {
		p := `{"kind":"like","expr":{"kind":"column","column":"s"},"pattern":` + str(pattern)
		if ci {
			p += `,"case_insensitive":true`
		}
		if neg {
			p += `,"negated":true`
		}
		return `{"select":[{"expr":{"kind":"column","column":"id"}}],"from":[{"table":"n","alias":"n"}],"where":` + p + `}}`
	}
	for _, c := range []struct {
		pattern string
		ci, neg bool
		want    []string
	}{
		{"abc%", false, false, []string{"2"}},
		{"ABC%", false, false, []string{"1"}},
		{"abc%", true, false, []string{"1", "2"}},
		{"ABC%", true, false, []string{"1", "2"}},
		{`a\\_b`, false, false, []string{"3"}}, // escaped underscore matches only "_"
		{"a_b", false, false, []string{"3", "4"}},
		{"abc%", false, true, []string{"1", "3", "4"}}, // NULL is neither like nor not like
	} {
		got := col(semRun(t, db, like(c.pattern, c.ci, c.neg), render.Options{}), 0)
		if !slices.Equal(got, c.want) {
			t.Errorf("like %q ci=%v negated=%v: got %v, want %v", c.pattern, c.ci, c.neg, got, c.want)
		}
	}
}

func TestSemanticsNullsLast(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	order := func(dir, nulls string) []string {
		o := `{"expr":{"kind":"column","column":"x"},"direction":"` + dir + `"`
		if nulls != "" {
			o += `,"nulls":"` + nulls + `"`
		}
		p := `{"select":[{"expr":{"kind":"column","column":"id"}}],"from":[{"table":"n","alias":"n"}],"order_by":[` + o + `}]}`
		return col(semRun(t, db, p, render.Options{}), 0)
	}
	for _, c := range []struct {
		dir, nulls string
		want       []string
	}{
		{"asc", "", []string{"2", "3", "1", "4", "5"}},
		{"desc", "", []string{"1", "3", "2", "4", "5"}},
		{"asc", "first", []string{"4", "5", "2", "3", "1"}},
		{"desc", "last", []string{"1", "3", "2", "4", "5"}},
	} {
		if got := order(c.dir, c.nulls); !slices.Equal(got, c.want) {
			t.Errorf("%s nulls %q: got %v, want %v", c.dir, c.nulls, got, c.want)
		}
	}
}

func TestSemanticsDates(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	o := render.Options{}
	unit := func(u string) string { return str(u) }
	checkRow(t, "date_trunc", semRun(t, db, exprs("2", call("DATE_TRUNC", unit("quarter"), column("d")), call("DATE_TRUNC", unit("month"), column("d")),
		call("DATE_TRUNC", unit("year"), column("d")), call("DATE_TRUNC", unit("day"), column("d")), call("DATE_TRUNC", unit("quarter"), date("2025-12-31"))), o),
		"2025-04-01", "2025-05-01", "2025-01-01", "2025-05-17", "2025-10-01")
	checkRow(t, "date_part", semRun(t, db, exprs("2", call("DATE_PART", unit("quarter"), column("d")), call("DATE_PART", unit("quarter"), date("2025-12-31")),
		call("DATE_PART", unit("quarter"), date("2025-01-01")), call("DATE_PART", unit("month"), column("d")), call("DATE_PART", unit("year"), column("d")), call("DATE_PART", unit("day"), column("d"))), o),
		"2", "4", "1", "5", "2025", "17")
	checkRow(t, "date_add at month end", semRun(t, db, exprs("1", call("DATE_ADD", unit("month"), num("1"), column("d")), call("DATE_ADD", unit("month"), num("1"), date("2024-01-31")),
		call("DATE_ADD", unit("year"), num("1"), date("2024-02-29")), call("DATE_ADD", unit("quarter"), num("1"), date("2025-11-30")), call("DATE_ADD", unit("month"), num("-1"), date("2025-03-31")),
		call("DATE_ADD", unit("day"), num("-1"), date("2025-03-01"))), o),
		"2025-02-28", "2024-02-29", "2025-02-28", "2026-02-28", "2025-02-28", "2025-02-28")
	checkRow(t, "date_diff_days", semRun(t, db, exprs("1", call("DATE_DIFF_DAYS", date("2025-03-01"), column("d")), call("DATE_DIFF_DAYS", column("d"), date("2025-03-01")),
		call("DATE_DIFF_DAYS", `{"kind":"literal","type":"timestamp","value":"2025-01-31 23:59:59"}`, column("d"))), o), "29", "-29", "0")
}

// TestSemanticsTotalOrder: a query full of ties returns the same rows in the
// same order whatever order the rows were stored in.
func TestSemanticsTotalOrder(t *testing.T) {
	p := `{"select":[{"expr":{"kind":"column","column":"grp"}},{"expr":{"kind":"column","column":"a"}},{"expr":{"kind":"column","column":"id"}}],"from":[{"table":"n","alias":"n"}],
		"order_by":[{"expr":{"kind":"column","column":"grp"}}]}`
	reversed := map[string][]string{"n": slices.Clone(semRows["n"])}
	slices.Reverse(reversed["n"])
	a := semRun(t, openSQLite(t, semCatalog, semRows), p, render.Options{})
	b := semRun(t, openSQLite(t, semCatalog, reversed), p, render.Options{})
	want := [][]string{{"g1", "7", "1"}, {"g1", "7", "3"}, {"g1", "NULL", "5"}, {"g2", "-7", "2"}, {"g2", "7", "4"}}
	for _, got := range [][][]string{a, b} {
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	// a plain DISTINCT with no order_by is ordered as well
	d := semRun(t, openSQLite(t, semCatalog, reversed), `{"distinct":true,"select":[{"expr":{"kind":"column","column":"grp"}}],"from":[{"table":"n","alias":"n"}]}`, render.Options{})
	if !slices.Equal(col(d, 0), []string{"g1", "g2"}) {
		t.Errorf("distinct: %v", d)
	}
}

func TestSemanticsMaxRows(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	p := func(limit string) string {
		q := `{"select":[{"expr":{"kind":"column","column":"id"}}],"from":[{"table":"n","alias":"n"}]`
		if limit != "" {
			q += `,"limit":` + limit
		}
		return q + `}`
	}
	for _, c := range []struct {
		limit   string
		maxRows int64
		want    int
	}{
		{"100", 2, 2}, {"1", 2, 1}, {"", 3, 3}, {"", 0, 5}, {"0", 3, 0}, {"1000000000000", 4, 4},
	} {
		if got := len(semRun(t, db, p(c.limit), render.Options{MaxRows: c.maxRows})); got != c.want {
			t.Errorf("limit %q, MaxRows %d: %d rows, want %d", c.limit, c.maxRows, got, c.want)
		}
	}
	// the cap applies to the whole compound query, not to a subquery
	sub := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"subquery":` + p("") + `,"alias":"s"}]}`
	if got := semRun(t, db, sub, render.Options{MaxRows: 2}); got[0][0] != "5" {
		t.Errorf("MaxRows capped a subquery: %v", got)
	}
}

// TestSemanticsSetOpsLeftToRight: ((A UNION B) EXCEPT C) INTERSECT D, not
// A UNION B EXCEPT (C INTERSECT D) as standard precedence would read it.
func TestSemanticsSetOpsLeftToRight(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	branch := func(ids ...string) string {
		var list []string
		for _, id := range ids {
			list = append(list, num(id))
		}
		return `{"select":[{"expr":{"kind":"column","column":"id"}}],"from":[{"table":"n","alias":"n"}],"where":{"kind":"in","expr":{"kind":"column","column":"id"},"list":[` + strings.Join(list, ",") + `]}`
	}
	p := branch("1", "2") + `,"set_ops":[{"op":"union","query":` + branch("3") + `}},{"op":"except","query":` + branch("2") + `}},{"op":"intersect","query":` + branch("1", "3", "4") + `}}]}`
	if got := col(semRun(t, db, p, render.Options{}), 0); !slices.Equal(got, []string{"1", "3"}) {
		t.Errorf("got %v, want [1 3]", got)
	}
	// every dialect renders the same tree; PostgreSQL and DuckDB need the parentheses
	q, _ := planast.Decode([]byte(p), planast.Limits{})
	v, err := validate.Plan(q, semCatalog, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dialects() {
		s, _ := render.SQL(v.Plan, d, render.Options{})
		if got := strings.HasPrefix(s, "(("); got != d.ParenthesizeCompound() {
			t.Errorf("%s: parenthesised=%v:\n%s", d.Name(), got, s)
		}
	}
}

// SUBSTR positions before the first character count but yield nothing, as in
// PostgreSQL; SQLite would count a negative start from the end.
func TestSemanticsSubstr(t *testing.T) {
	db := openSQLite(t, semCatalog, semRows)
	sub := func(args ...string) string { return call("SUBSTR", append([]string{column("s")}, args...)...) }
	checkRow(t, "substr", semRun(t, db, exprs("1", sub(num("2")), sub(num("2"), num("3")), sub(binary("-", column("b"), num("3")), num("3")),
		sub(binary("-", column("b"), num("5"))), sub(binary("-", column("b"), num("5")), num("2")), sub(column("a"), num("2"))), render.Options{}),
		"BCdef", "BCd", "f", "def", "de", "")
}
