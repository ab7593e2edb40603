package render_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

func TestLookupAndNames(t *testing.T) {
	if got := render.Names(); !slices.Equal(got, []string{"duckdb", "postgres", "sqlite"}) {
		t.Errorf("Names() = %v", got)
	}
	for _, n := range []string{"sqlite", "SQLite", "duckdb", "postgres"} {
		d, ok := render.Lookup(n)
		if !ok || d.Name() != strings.ToLower(n) {
			t.Errorf("Lookup(%q) = %v, %v", n, d, ok)
		}
	}
	if _, ok := render.Lookup("mysql"); ok {
		t.Error("Lookup(mysql) succeeded")
	}
}

func TestQuoting(t *testing.T) {
	for in, want := range map[string]string{`a`: `"a"`, `a"b`: `"a""b"`, `select`: `"select"`, `客户 x`: `"客户 x"`, `""`: `""""""`} {
		if got := render.QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{`it's`: `'it''s'`, `a\`: `'a\'`, `''`: `''''''`, `x'); DROP TABLE t; --`: `'x''); DROP TABLE t; --'`} {
		if got := render.QuoteString(in); got != want {
			t.Errorf("QuoteString(%q) = %s, want %s", in, got, want)
		}
	}
}

// renderAll validates a plan over the golden catalog and renders it for
// every dialect, by name.
func renderAll(t *testing.T, plan string, opts render.Options) map[string]string {
	t.Helper()
	q, err := planast.Decode([]byte(plan), planast.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.Plan(q, goldenCatalog, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range dialects() {
		s, err := render.SQL(v.Plan, d, opts)
		if err != nil {
			t.Fatal(err)
		}
		out[d.Name()] = s
	}
	return out
}

// DuckDB treats INTERVAL 30 DAY as equal to INTERVAL 1 MONTH and merges
// x + to_days(30) with x + to_months(1) in one statement, so days are added
// by date arithmetic.
func TestDuckDBAddsDaysWithoutIntervals(t *testing.T) {
	sql := renderAll(t, `{"select":[{"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":30},{"kind":"column","column":"SignupDate"}]},"alias":"d"},
		{"expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"month"},{"kind":"literal","value":1},{"kind":"column","column":"SignupDate"}]},"alias":"m"}],
		"from":[{"table":"Customer","alias":"c"}]}`, render.Options{})["duckdb"]
	if strings.Contains(sql, "to_days") || !strings.Contains(sql, `"c"."SignupDate" + CAST(30 AS INTEGER)`) {
		t.Errorf("duckdb:\n%s", sql)
	}
}

// OFFSET without LIMIT: SQLite needs LIMIT -1; DuckDB returns no rows from a
// correlated subquery under LIMIT 9223372036854775807 OFFSET n.
func TestOffsetWithoutLimit(t *testing.T) {
	sql := renderAll(t, `{"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Genre","alias":"g"}],
		"order_by":[{"expr":{"kind":"column","column":"Name"}}],"offset":2}`, render.Options{})
	for name, want := range map[string]string{"sqlite": "\nLIMIT -1 OFFSET 2", "duckdb": "\nOFFSET 2", "postgres": "\nOFFSET 2"} {
		if !strings.HasSuffix(sql[name], want) || strings.Contains(sql[name], "9223372036854775807") {
			t.Errorf("%s:\n%s", name, sql[name])
		}
	}
}

// A subquery whose LIMIT picks rows is ordered totally; one without is not.
func TestSubqueryTotalOrder(t *testing.T) {
	sub := func(limit string) string {
		return `{"select":[{"expr":{"kind":"column","column":"Name"}},{"expr":{"kind":"subquery","query":{"select":[{"expr":{"kind":"column","column":"Title"}}],
			"from":[{"table":"Album","alias":"al"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"al","column":"ArtistId"},"right":{"kind":"column","table":"a","column":"ArtistId"}}` +
			limit + `}},"alias":"t"}],"from":[{"table":"Artist","alias":"a"}]}`
	}
	with := renderAll(t, sub(`,"limit":1`), render.Options{NoTotalOrder: true})["sqlite"]
	if !strings.Contains(with, "ORDER BY 1 ASC NULLS LAST\nLIMIT 1)") {
		t.Errorf("limited subquery not ordered:\n%s", with)
	}
	without := renderAll(t, sub(``), render.Options{NoTotalOrder: true})["sqlite"]
	if strings.Contains(without, "ORDER BY") {
		t.Errorf("ordered without need:\n%s", without)
	}
}

// TestDocShowsExample keeps the SQL in doc.go in step with ExampleSQL.
func TestDocShowsExample(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, out, _ := strings.Cut(string(src), "// Output:\n")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		line = strings.TrimPrefix(strings.TrimSpace(line), "// ")
		if line == "}" || line == "//" {
			continue
		}
		if !strings.Contains(string(doc), "//\t"+line+"\n") {
			t.Errorf("doc.go lacks the example line %q", line)
		}
	}
}
