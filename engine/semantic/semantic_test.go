package semantic_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	_ "modernc.org/sqlite"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

const chinookFile = "../../examples/chinook/semantic/semantic.yaml"

func snapshotOf(t testing.TB, path string) *schema.Snapshot {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, "db", path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Profile(ctx, snap); err != nil {
		t.Fatal(err)
	}
	return snap
}

func chinook(t *testing.T) *schema.Snapshot { return chinookSnapshot(t) }

func chinookSnapshot(t testing.TB) *schema.Snapshot {
	return snapshotOf(t, "../../examples/chinook/chinook.sqlite")
}

func TestLoadChinook(t *testing.T) {
	l, err := semantic.Load(chinookFile, "semantic.yaml", chinook(t))
	if err != nil {
		t.Fatal(err)
	}
	d, ok := l.Find("metric", "revenue")
	if !ok {
		t.Fatal("no metric revenue")
	}
	b, _ := json.Marshal(d.Expr)
	want := `{"kind":"func","name":"SUM","args":[{"kind":"binary","op":"*","left":{"kind":"column","table":"InvoiceLine","column":"UnitPrice"},"right":{"kind":"column","table":"InvoiceLine","column":"Quantity"}}]}`
	if string(b) != want || d.TimeColumn != "Invoice.InvoiceDate" || d.Grain != "month" {
		t.Errorf("revenue = %s %s %s", b, d.TimeColumn, d.Grain)
	}
	if f, ok := l.Filter("big_order"); !ok || f.Table != "Invoice" {
		t.Errorf("filter big_order = %+v %v", f, ok)
	}
	if len(l.Raw()) == 0 || l.Fiscal.YearStartMonth != 7 {
		t.Errorf("raw %d bytes, fiscal %d", len(l.Raw()), l.Fiscal.YearStartMonth)
	}
}

// writeFile writes a semantic file into a temporary directory.
func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "semantic.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadRefusesWithFileAndLine(t *testing.T) {
	snap := chinook(t)
	cases := []struct{ name, body, want string }{
		{"metric over a missing column", `metrics:
  - name: revenue
    table: InvoiceLine
    expr:
      kind: func
      name: SUM
      args:
        - {kind: column, column: Discount}
`, `semantic.yaml:8:34: metric "revenue": COLUMN_NOT_FOUND`},
		{"unknown table", "tables:\n  - name: Invoices\n", `semantic.yaml:2:5: table: datasource "db" has no table "Invoices"`},
		{"unknown column", "tables:\n  - name: Invoice\n    columns:\n      - {name: Totl}\n", `semantic.yaml:4:9: table "Invoice" has no column "Totl" (did you mean "Total"?)`},
		{"unknown key", "tables:\n  - name: Invoice\n    descripton: x\n", `semantic.yaml:3:5: a table: unknown key "descripton"`},
		{"metric that does not aggregate", "metrics:\n  - {name: price, table: Track, expr: {kind: column, column: UnitPrice}}\n", `semantic.yaml:2:39: metric "price": expr must aggregate`},
		{"filter that is no condition", "filters:\n  - {name: f, table: Track, expr: {kind: column, column: Name}}\n", `metric`},
		{"time column not temporal", "metrics:\n  - name: n\n    table: Invoice\n    expr: {kind: func, name: COUNT, args: []}\n    time_column: Total\n", `semantic.yaml:5:18: metric "n": time_column Invoice.Total is decimal`},
		{"bad name", "metrics:\n  - {name: Net Revenue, table: Invoice, expr: {kind: func, name: COUNT, args: []}}\n", `must match`},
		{"bad grain", "metrics:\n  - {name: n, table: Invoice, grain: fortnight, expr: {kind: func, name: COUNT, args: []}}\n", `grain "fortnight"`},
		{"duplicate metric", "metrics:\n  - {name: n, table: Invoice, expr: {kind: func, name: COUNT, args: []}}\n  - {name: n, table: Invoice, expr: {kind: func, name: COUNT, args: []}}\n", `semantic.yaml:3:5: metric "n" is defined twice`},
		{"bad yaml", "tables: [\n", `semantic.yaml:1: yaml: line 1:`}, // no column 0: YAML gives the line only
		{"fiscal month", "fiscal: {year_start_month: 13}\n", `year_start_month must be a month number`},
		{"relationship column", "relationships:\n  - {from: Track.GenreIdx, to: Genre.GenreId}\n", `semantic.yaml:2:5: relationship from: table "Track" has no column "GenreIdx" (did you mean "GenreId"?)`},
		// metrics over several tables
		{"unknown join table", "metrics:\n  - {name: n, table: InvoiceLine, join_tables: [Invoices], expr: {kind: func, name: COUNT, args: []}}\n",
			`semantic.yaml:2:5: metric "n" join_tables: datasource "db" has no table "Invoices"`},
		{"join table without a key", "metrics:\n  - {name: n, table: Genre, join_tables: [Customer], expr: {kind: func, name: COUNT, args: []}}\n",
			`semantic.yaml:2:5: metric "n": join_tables "Customer" has no foreign key or declared relationship to "Genre"`},
		{"join table twice", "metrics:\n  - {name: n, table: InvoiceLine, join_tables: [Invoice, Invoice], expr: {kind: func, name: COUNT, args: []}}\n",
			`join_tables names "Invoice" twice`},
		{"column of a table not joined", "metrics:\n  - {name: n, table: InvoiceLine, join_tables: [Invoice], expr: {kind: func, name: SUM, args: [{kind: column, table: Track, column: Milliseconds}]}}\n",
			`metric "n": ALIAS_NOT_FOUND`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := semantic.Load(writeFile(t, tc.body), "semantic.yaml", snap)
			var se *semantic.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want *semantic.Error", err)
			}
			if tc.name == "filter that is no condition" {
				if !strings.Contains(err.Error(), `filter "f": TYPE_MISMATCH`) {
					t.Errorf("got %v", err)
				}
				return
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestApplyAndContext(t *testing.T) {
	snap := chinook(t)
	l, err := semantic.Load(chinookFile, "semantic.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	rich := l.Apply(snap)
	inv, _ := rich.Lookup("", "Invoice")
	if c, _ := inv.Column("BillingCountry"); !strings.Contains(c.Comment, "Also called: market, sales region") {
		t.Errorf("BillingCountry comment %q", c.Comment)
	}
	if !strings.Contains(inv.Comment, "metric order count: Number of invoices") || !strings.Contains(inv.Comment, "filter big order") {
		t.Errorf("Invoice comment %q", inv.Comment)
	}
	tr, _ := rich.Lookup("", "Track")
	if c, _ := tr.Column("MediaTypeId"); !strings.Contains(c.Comment, "1 = MPEG audio file") {
		t.Errorf("MediaTypeId comment %q", c.Comment)
	}
	if orig, _ := snap.Lookup("", "Invoice"); orig.Comment != "" {
		t.Errorf("Apply changed its input: %q", orig.Comment)
	}
	only := func(names ...string) *schema.Snapshot {
		out := &schema.Snapshot{}
		for _, n := range names {
			t, _ := snap.Lookup("", n)
			out.Tables = append(out.Tables, *t)
		}
		return out
	}
	ctx := l.Context(only("InvoiceLine", "Genre"))
	if !strings.Contains(ctx, `{"metric":"revenue","table":"InvoiceLine"`) || strings.Contains(ctx, "big_order") || strings.Contains(ctx, `"describe":"Invoice"`) {
		t.Errorf("context for InvoiceLine, Genre:\n%s", ctx)
	}
	if !strings.HasPrefix(ctx, `{"semantic":"reference a metric as`) {
		t.Errorf("context lacks the usage line:\n%s", ctx)
	}
	if got := l.Context(only("Genre")); got != `{"fiscal_year_start_month":7,"how":"a fiscal year is named by the calendar year it ends in; fiscal year of a date d: DATE_PART('year', DATE_ADD('month', 6, d)); fiscal quarter: DATE_PART('quarter', DATE_ADD('month', 6, d))"}` {
		t.Errorf("context for Genre: %q", got)
	}
	invSel := only("Invoice")
	invSel.Tables[0].Columns = invSel.Tables[0].Columns[:1] // InvoiceId only: no column lines
	if got := l.Context(invSel); strings.Contains(got, "BillingCountry") || !strings.Contains(got, `"describe":"Invoice"`) {
		t.Errorf("context for Invoice(InvoiceId): %s", got)
	}
	if a, b := l.Context(nil), l.Context(nil); a != b {
		t.Error("Context is not deterministic")
	}
}

func TestRelationshipsBecomeForeignKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nofk.sqlite")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT)",
		"CREATE TABLE emp (id INTEGER PRIMARY KEY, dept INTEGER, name TEXT)", "INSERT INTO dept VALUES (1, 'a')",
		"INSERT INTO emp VALUES (1, 1, 'x')"} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	snap := snapshotOf(t, path)
	l, err := semantic.Load(writeFile(t, "relationships:\n  - {from: dept.id, to: emp.dept, cardinality: one_to_many}\n"), "s.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	rich := l.Apply(snap)
	emp, _ := rich.Lookup("", "emp")
	if len(emp.ForeignKeys) != 1 || emp.ForeignKeys[0].RefTable != "dept" || emp.ForeignKeys[0].Columns[0] != "dept" {
		t.Errorf("emp foreign keys %+v", emp.ForeignKeys)
	}
	// the validator's declared-join check accepts the join through the
	// relationship, and only through it
	plan, err := planast.Decode([]byte(`{"select":[{"expr":{"kind":"column","table":"d","column":"name"},"alias":"n"}],
		"from":[{"table":"emp","alias":"e"},{"table":"dept","alias":"d"}],
		"joins":[{"left":"e","right":"d","on":[{"left_column":"dept","right_column":"id"}]}]}`), planast.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := validate.Plan(plan, snap, validate.Options{Joins: validate.JoinDeclared}); err == nil {
		t.Error("without the relationship the declared-join check accepted the join")
	}
	if _, err := validate.Plan(plan, rich, validate.Options{Joins: validate.JoinDeclared}); err != nil {
		t.Errorf("with the relationship: %v", err)
	}
}

// What a caller may not read leaves the layer: definitions over hidden
// columns, descriptions of hidden tables, and the raw file.
func TestVisible(t *testing.T) {
	l, err := semantic.Load(chinookFile, "semantic.yaml", chinook(t))
	if err != nil {
		t.Fatal(err)
	}
	all := l.Visible(func(string, string, string) bool { return true })
	if len(all.Raw()) == 0 || len(all.Metrics) != 4 || len(all.Filters) != 1 {
		t.Errorf("unrestricted view lost something: raw %d, %d metrics, %d filters", len(all.Raw()), len(all.Metrics), len(all.Filters))
	}
	v := l.Visible(func(_, table, column string) bool {
		return table != "Customer" && !(table == "Invoice" && column == "Total")
	})
	if v.Raw() != nil {
		t.Error("a restricted view keeps the raw file")
	}
	if _, ok := v.Filter("big_order"); ok {
		t.Error("big_order reads the hidden Invoice.Total")
	}
	if _, ok := v.Metric("revenue"); !ok {
		t.Error("revenue reads nothing hidden")
	}
	if _, ok := l.Visible(func(_, table, column string) bool { return !(table == "Invoice" && column == "CustomerId") }).Metric("revenue_per_customer"); ok {
		t.Error("revenue_per_customer reads the hidden Invoice.CustomerId through its join table")
	}
	ts, _ := v.For([]string{"Customer", "Invoice"})
	if len(ts) != 1 || ts[0].Name != "Invoice" {
		t.Errorf("visible descriptions %+v", ts)
	}
}

// A definition's join_tables join through a database foreign key or a
// declared relationship, and the layer hands Expand every table.
func TestJoinTables(t *testing.T) {
	snap := chinook(t)
	body := `relationships:
  - {from: Playlist.Name, to: Genre.Name}
metrics:
  - name: paid_per_customer
    table: InvoiceLine
    join_tables: [Invoice, Customer]
    expr: {kind: binary, op: /, left: {kind: func, name: SUM, args: [{kind: column, column: UnitPrice}]}, right: {kind: func, name: COUNT, distinct: true, args: [{kind: column, table: Customer, column: CustomerId}]}}
filters:
  - name: genre_playlist
    table: Genre
    join_tables: [Playlist]
    expr: {kind: is_null, expr: {kind: column, table: Playlist, column: PlaylistId}, negated: true}
`
	l, err := semantic.Load(writeFile(t, body), "semantic.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := l.Metric("paid_per_customer")
	if !ok || len(m.Joins) != 2 || m.Joins[0].Table != "Invoice" || m.Joins[1].Table != "Customer" {
		t.Fatalf("metric definition %+v", m)
	}
	if f, ok := l.Filter("genre_playlist"); !ok || len(f.Joins) != 1 || f.Joins[0].Table != "Playlist" {
		t.Fatalf("filter definition %+v", f)
	}
}
