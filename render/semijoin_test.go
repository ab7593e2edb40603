package render_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// existsPlan selects the ids of o whose row passes cond (a [NOT] EXISTS
// over i), or, as a column, a CASE on it.
func existsPlan(negated bool, where string) string {
	neg := ""
	if negated {
		neg = `"negated":true,`
	}
	return `{"kind":"exists",` + neg + `"subquery":{"select":[{"expr":` + ocol("i", "id") + `,"alias":"id"}],"from":[{"table":"p","alias":"i"}],"where":` + where + `}}`
}

var semiCatalog = memCatalog{
	table("o", []string{"id integer", "g integer", "s text", "n integer"}),
	table("p", []string{"id integer", "k integer", "s text"}),
}

var semiRows = map[string][]string{
	"o": {"1, 1, 'a', 1", "2, 2, 'b', 2", "3, NULL, 'c', 3", "4, 4, NULL, 4"},
	"p": {"10, 1, 'x'", "11, NULL, 'y'", "12, 4, NULL", "13, 4, 'z'"},
}

// A [NOT] EXISTS tied to its outer row by one equality means the same on
// every engine, with NULL keys on both sides, under NOT, inside a CASE and
// with filters of its own; SQLite runs it as an IN of the inner keys (the
// next test says why), which must not turn a NULL into a match or a
// non-match.
func TestExistsOneMeaningWithNullKeys(t *testing.T) {
	dbs := engines(t, semiCatalog, semiRows)
	eq := binary("=", ocol("i", "k"), ocol("o", "g"))
	ids := func(cond string) string {
		return `{"select":[{"expr":` + ocol("o", "id") + `,"alias":"id"}],"from":[{"table":"o","alias":"o"}],"where":` + cond + `,"order_by":[{"expr":` + ocol("o", "id") + `}]}`
	}
	flag := func(cond string) string {
		return `{"select":[{"expr":` + ocol("o", "id") + `,"alias":"id"},{"expr":{"kind":"case","whens":[{"when":` + cond + `,"then":` + num("1") + `}],"else":` + num("0") + `},"alias":"f"}],"from":[{"table":"o","alias":"o"}],"order_by":[{"expr":` + ocol("o", "id") + `}]}`
	}
	and := func(l, r string) string { return binary("and", l, r) }
	notNull := `{"kind":"is_null","negated":true,"expr":` + ocol("i", "s") + `}`
	cases := []struct{ name, plan, want string }{
		{"exists", ids(existsPlan(false, eq)), "[[1] [4]]"},
		{"not exists", ids(existsPlan(true, eq)), "[[2] [3]]"},
		{"not of exists", ids(`{"kind":"unary","op":"not","expr":` + existsPlan(false, eq) + `}`), "[[2] [3]]"},
		{"not of not exists", ids(`{"kind":"unary","op":"not","expr":` + existsPlan(true, eq) + `}`), "[[1] [4]]"},
		{"exists in a case", flag(existsPlan(false, eq)), "[[1 1] [2 0] [3 0] [4 1]]"},
		{"not exists in a case", flag(existsPlan(true, eq)), "[[1 0] [2 1] [3 1] [4 0]]"},
		{"outer key on the left", ids(existsPlan(false, binary("=", ocol("o", "g"), ocol("i", "k")))), "[[1] [4]]"},
		{"own filter", ids(existsPlan(false, and(eq, notNull))), "[[1] [4]]"},
		{"own filter drops a match", ids(existsPlan(true, and(binary("=", ocol("i", "s"), str("x")), eq))), "[[2] [3] [4]]"},
		{"outer expression", ids(existsPlan(false, binary("=", ocol("i", "k"), binary("+", ocol("o", "g"), num("3"))))), "[[1]]"},
		{"aggregate subquery is one row", ids(`{"kind":"exists","negated":true,"subquery":{"select":[{"expr":` + call("COUNT", ocol("i", "id")) + `,"alias":"c"}],"from":[{"table":"p","alias":"i"}],"where":` + eq + `}}`), "[]"},
	}
	for _, c := range cases {
		got := runOne(t, dbs, semiCatalog, c.name, c.plan)
		for engine, rows := range got {
			if rows != c.want {
				t.Errorf("%s on %s: got %s, want %s", c.name, engine, rows, c.want)
			}
		}
	}
}

// "Which customers have no order" over tables without an index on the key
// ran a correlated NOT EXISTS on SQLite, which scans the inner table once
// per outer row: 60,000 × 40,000 rows ran past a minute (the datasource's
// timeout in a server) where the answer takes a tenth of a second.
func TestExistsOverUnindexedSQLiteTablesAnswersInTime(t *testing.T) {
	cat := memCatalog{table("a", []string{"id integer", "k text"}), table("b", []string{"id integer", "k text"})}
	db := openSQLite(t, cat, nil)
	for _, s := range []string{
		`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 60000) INSERT INTO a SELECT x, 'K' || ((x * 7919) % 80000) FROM n`,
		`WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 40000) INSERT INTO b SELECT x, 'K' || ((x * 104729) % 80000) FROM n`,
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	var want string
	if err := db.QueryRow(`SELECT count(*) FROM a LEFT JOIN b ON b.k = a.k WHERE b.id IS NULL`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	plan := `{"select":[{"expr":` + call("COUNT", ocol("a", "id")) + `,"alias":"n"}],"from":[{"table":"a","alias":"a"}],"where":{"kind":"exists","negated":true,"subquery":{"select":[{"expr":` + ocol("b", "id") + `,"alias":"id"}],"from":[{"table":"b","alias":"b"}],"where":` + binary("=", ocol("b", "k"), ocol("a", "k")) + `}}}`
	q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lite, _ := render.Lookup("sqlite")
	s, err := render.SQL(v.Plan, lite, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got string
	start := time.Now()
	if err := db.QueryRowContext(ctx, s).Scan(&got); err != nil {
		t.Fatalf("the anti-join did not answer in 10 s (%v): %v\n%s", time.Since(start), err, s)
	}
	if got != want {
		t.Errorf("got %s rows without a match, want %s\n%s", got, want, s)
	}
	if !strings.Contains(s, "NOT IN (SELECT") {
		t.Errorf("SQLite's anti-join is not an IN of the inner keys:\n%s", s)
	}
}
