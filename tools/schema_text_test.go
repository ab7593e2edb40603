package tools

import (
	"context"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A host checks a spelling ('Welcome to NY') against a column's samples
// before it filters on it. A sample cut in the middle ("Do no…") cannot be
// checked, and a list that does not say whether it is complete cannot tell
// the host that a value is absent. Samples show whole, say how many did
// not fit, and say when they are all the column's values.
func TestSampleListShowsWholeValues(t *testing.T) {
	long := strings.Repeat("x", 150)
	for _, c := range []struct {
		name string
		vals []string
		all  bool
		want string
	}{
		{"fits, complete", []string{`"Ann"`, `"Bo"`}, true, `  all values: "Ann" | "Bo"`},
		{"fits, samples", []string{`"Ann"`, `"Bo"`}, false, `  e.g. "Ann" | "Bo"`},
		{"cut at a value", []string{`"A history of Arts"`, `"About Korea"`, `"Customer reviews"`, `"Data base"`, `"Do not panic"`, `"Welcome to NY"`, `"Zoo"`}, false,
			`  e.g. "A history of Arts" | "About Korea" | "Customer reviews" | "Data base" | "Do not panic" | … 2 more examples`},
		// every value of a column of few shows whole, as the ask context
		// shows it: a host checks which spellings exist
		{"all of few", []string{`"A history of Arts"`, `"About Korea"`, `"Customer reviews"`, `"Data base"`, `"Do not panic"`, `"Welcome to NY"`, `"Zoo"`}, true,
			`  all values: "A history of Arts" | "About Korea" | "Customer reviews" | "Data base" | "Do not panic" | "Welcome to NY" | "Zoo"`},
		{"one value beyond the budget", []string{`"` + long + `"`, `"b"`}, false, `  e.g. "` + long[:sampleBudget-2] + `… | … 1 more example`},
	} {
		if got := sampleList(c.vals, c.all); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// Threat: a host plans "orders per month" over a TEXT column of dates in
// which some values are '05/01/2024' or 'n/a'. The result warns after the
// run, but a host that reads describe_schema first could have filtered
// them out or told the user; the column's line must say how many values a
// cast reads as NULL and show one, and say nothing for a clean column.
func TestSchemaTextSaysHowManyValuesACastLoses(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts []schema.CastNulls
		want   string
	}{
		{"dates", []schema.CastNulls{{To: planast.TypeDate, Invalid: 3, InvalidExample: "05/01/2024"}, {To: planast.TypeTimestamp, Invalid: 4, InvalidExample: "05/01/2024"}},
			`  day        text       TEXT             3 values are not dates, 4 not timestamps (such as "05/01/2024"), read as NULL when cast`},
		{"one number", []schema.CastNulls{{To: planast.TypeFloat, Invalid: 1, InvalidExample: "abc"}},
			`  day        text       TEXT             1 value is not a number (such as "abc"), read as NULL when cast`},
		{"clean", nil, `  day        text       TEXT`},
	} {
		snap := &schema.Snapshot{Datasource: "d", Dialect: "sqlite", Tables: []schema.Table{{Schema: "main", Name: "t", Kind: schema.KindTable,
			Columns: []schema.Column{{Name: "day", DeclaredType: "TEXT", Type: planast.TypeText, Nullable: true, Profile: &schema.ColumnProfile{CastNulls: c.counts}}}}}}
		lines := strings.Split(SnapshotText(snap), "\n")
		if got := strings.Join(strings.Fields(lines[len(lines)-2]), " "); got != strings.Join(strings.Fields(c.want), " ") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, lines[len(lines)-2], c.want)
		}
	}
}

// The threat: a list of all of a column's values that leaves NULL out
// reads as every value there is, and a NOT IN over the column keeps no
// row while it holds one. The list says NULL, unquoted (a stored "NULL"
// string is quoted), and only when the column holds one.
func TestSchemaTextAllValuesNameNull(t *testing.T) {
	for _, c := range []struct {
		name string
		null float64
		want string
	}{
		{"with NULL", 0.25, `all values: "C005" | "C012" | NULL`},
		{"without", 0, `all values: "C005" | "C012"`},
	} {
		snap := &schema.Snapshot{Datasource: "d", Dialect: "sqlite", Tables: []schema.Table{{Schema: "main", Name: "blocked", Kind: schema.KindTable,
			Columns: []schema.Column{{Name: "customer_id", DeclaredType: "TEXT", Type: planast.TypeText, Nullable: true,
				Profile: &schema.ColumnProfile{DistinctCount: 2, NullFraction: c.null, SampleValues: []any{"C005", "C012"}, AllValues: true}}}}}}
		got := SnapshotText(snap)
		if !strings.Contains(got, c.want+"\n") && !strings.HasSuffix(strings.TrimSpace(got), c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The threat: an integer beyond 2^53 is carried as a string to keep its
// digits, and schema show printed it quoted ("9223372036854775807"), so a
// reader took the column's range for text; a text value that looks like
// a number must stay quoted, or a code ("007") reads as a number.
func TestSchemaValuesReadAsTheirType(t *testing.T) {
	for _, c := range []struct {
		v    any
		typ  planast.Type
		want string
	}{
		{"9223372036854775807", planast.TypeInteger, "9223372036854775807"},
		{"-9007199254740993", planast.TypeInteger, "-9007199254740993"},
		{"12345678901234567890.25", planast.TypeDecimal, "12345678901234567890.25"},
		{"007", planast.TypeText, `"007"`},
		{"abc", planast.TypeInteger, `"abc"`},
		{"1e5", planast.TypeInteger, `"1e5"`},
		{int64(12), planast.TypeInteger, "12"},
	} {
		if got := quotedValue(c.v, c.typ); got != c.want {
			t.Errorf("%v as %s: %s, want %s", c.v, c.typ, got, c.want)
		}
	}
}

// The threat: a host reading describe_schema's text missed the table
// comment saying which way a rate converts ("1 unit of base_currency =
// rate units of quote_currency"), which only the structured content
// carried, and converted the other way. The text shows it, quoted, under
// the table's line.
func TestSchemaTextShowsTheTablesComment(t *testing.T) {
	snap := &schema.Snapshot{Datasource: "d", Dialect: "postgres", Tables: []schema.Table{{Schema: "public", Name: "currency_rates", Kind: schema.KindTable,
		Comment: "1 unit of base_currency = rate units of quote_currency",
		Columns: []schema.Column{{Name: "rate", DeclaredType: "numeric", Type: planast.TypeDecimal}}}}}
	text := SnapshotText(snap)
	if !strings.Contains(text, "public.currency_rates (table)\n  note \"1 unit of base_currency = rate units of quote_currency\"\n  rate") {
		t.Errorf("text:\n%s", text)
	}
}

// The threat: the owner's note on account types runs on for a few
// sentences before the one that decides a revenue question ("only
// customer accounts are real revenue"); describe_schema's text cut it at
// 200 characters, so the sentence was only in the structured content and
// a host counted every account as revenue. The text shows a table's and
// a column's note whole, however long.
func TestSchemaTextShowsALongNoteWhole(t *testing.T) {
	note := "All account types run through the billing system: customer, partner, internal and test accounts are invoiced alike, " +
		"with the same plans, discounts and currencies, so that finance can reconcile every invoice against the ledger each month. " +
		strings.Repeat("Credits, refunds and write-offs are recorded against the account that received the invoice. ", 8) +
		"Only customer accounts are real revenue."
	snap := &schema.Snapshot{Datasource: "d", Dialect: "duckdb", Tables: []schema.Table{{Schema: "main", Name: "accounts", Kind: schema.KindTable,
		Comment: note, Columns: []schema.Column{{Name: "account_type", DeclaredType: "VARCHAR", Type: planast.TypeText, Comment: note}}}}}
	text := SnapshotText(snap)
	if n := strings.Count(text, cellfmt.Quote(note)); n != 2 {
		t.Errorf("the note is whole %d times in the text, want the table's and the column's:\n%s", n, text)
	}
}

// A datasource of two tables and a view was described as "3 tables", and
// a host looked for a third table; every surface counts them apart.
func TestSnapshotTextCountsTablesAndViews(t *testing.T) {
	snap := &schema.Snapshot{Datasource: "d", Dialect: "sqlite", Tables: []schema.Table{
		{Name: "a", Kind: schema.KindTable}, {Name: "b", Kind: schema.KindTable}, {Name: "v", Kind: schema.KindView}}}
	if text := SnapshotText(snap); !strings.HasPrefix(text, "datasource d (sqlite), 2 tables, 1 view\n") {
		t.Errorf("text:\n%s", text)
	}
}

// describeFake is a SchemaDescriber of one snapshot, without a semantic
// layer.
type describeFake struct{ snap *schema.Snapshot }

func (f describeFake) VisibleSnapshot(context.Context, string) (*schema.Snapshot, error) {
	return f.snap, nil
}
func (describeFake) Semantic(context.Context, string) (*semantic.Layer, error) { return nil, nil }

// Threat: a host asks describe_schema for one table, credit_notes, whose
// customer_id repeats a little (a customer's second credit note); invoices,
// not asked for, declares customer_id a foreign key. Judged on the page
// alone the column looked like an id with copies from a retried import,
// and the host spent calls proving it was not. What a column is said to
// be is judged on the whole visible schema, not on the tables asked for.
func TestDescribeSchemaJudgesAColumnOnTheWholeSchema(t *testing.T) {
	rows := int64(100)
	snap := &schema.Snapshot{Datasource: "billing", Dialect: "postgres", Tables: []schema.Table{
		{Schema: "public", Name: "invoices", RowCount: &rows, PrimaryKey: []string{"invoice_id"},
			ForeignKeys: []schema.ForeignKey{{Columns: []string{"customer_id"}, RefTable: "account_keys", RefColumns: []string{"billing_customer_id"}}},
			Columns:     []schema.Column{{Name: "invoice_id", Type: planast.TypeInteger}, {Name: "customer_id", Type: planast.TypeText}}},
		{Schema: "public", Name: "credit_notes", RowCount: &rows, PrimaryKey: []string{"credit_note_id"}, Columns: []schema.Column{
			{Name: "credit_note_id", Type: planast.TypeInteger},
			{Name: "customer_id", Type: planast.TypeText, Profile: &schema.ColumnProfile{DistinctCount: 97}}}},
	}}
	res, err := DescribeSchemaHandler(describeFake{snap})(context.Background(), mcpCall(map[string]any{"datasource": "billing", "table": "credit_notes"}))
	if err != nil || res.IsError {
		t.Fatalf("describe_schema: %v %+v", err, res)
	}
	if text := res.Content[0].(mcpgo.TextContent).Text; strings.Contains(text, "nearly unique") || !strings.Contains(text, "customer_id") {
		t.Errorf("credit_notes.customer_id is judged on the page alone:\n%s", text)
	}
}

// The threat: a number column's line showed its range alone, so 15 of 95
// empty readings read as none, and a host counted and averaged over "all"
// the rows. A column holding NULL says what share it is, never 0% for a
// few nor 100% for most; a complete value list names NULL itself.
func TestSchemaTextSaysHowManyValuesAreNull(t *testing.T) {
	for _, c := range []struct {
		null float64
		want string
	}{
		{15.0 / 95, "range [72, 99]  16% NULL"},
		{0.001, "range [72, 99]  <1% NULL"},
		{0.999, "range [72, 99]  >99% NULL"},
		{0, "range [72, 99]\n"},
	} {
		snap := &schema.Snapshot{Datasource: "d", Dialect: "sqlite", Tables: []schema.Table{{Schema: "main", Name: "tests", Kind: schema.KindTable,
			Columns: []schema.Column{{Name: "noise_db", DeclaredType: "INTEGER", Type: planast.TypeInteger, Nullable: true,
				Profile: &schema.ColumnProfile{DistinctCount: 20, NullFraction: c.null, Min: int64(72), Max: int64(99)}}}}}}
		if got := SnapshotText(snap) + "\n"; !strings.Contains(got, c.want) {
			t.Errorf("null share %v: %q, want %q", c.null, got, c.want)
		}
	}
}

// The threat: describe_schema padded column names by bytes, so a column
// named in CJK or with accents ended its name column early on a terminal
// and its type stood off the column of types the other lines form. Each
// line's type starts at the same display column.
func TestSnapshotTextAlignsWideColumnNames(t *testing.T) {
	snap := &schema.Snapshot{Datasource: "d", Dialect: "sqlite", Tables: []schema.Table{{Schema: "main", Name: "t", Kind: schema.KindTable,
		Columns: []schema.Column{{Name: "qty", Type: planast.TypeInteger, DeclaredType: "INTEGER"},
			{Name: "数量", Type: planast.TypeInteger, DeclaredType: "INTEGER"},
			{Name: "Zürich", Type: planast.TypeText, DeclaredType: "TEXT"}}}}}
	var at []int
	for _, line := range strings.Split(SnapshotText(snap), "\n") {
		if i := strings.Index(line, " integer"); i >= 0 {
			at = append(at, cellfmt.Width(line[:i]))
		} else if i := strings.Index(line, " text"); i >= 0 && strings.HasPrefix(line, "  ") {
			at = append(at, cellfmt.Width(line[:i]))
		}
	}
	if len(at) != 3 || at[0] != at[1] || at[0] != at[2] {
		t.Errorf("the type column starts at display columns %v, not one:\n%s", at, SnapshotText(snap))
	}
}

// The threat: describe_schema showed a view driver_km with its columns
// and nothing of what it covers, so a host took its all-time total of
// completed trips for 2024's. Its text says what the view is, whole and
// quoted as data (a line break in it cannot start a line of its own),
// and says when the definition is withheld from the caller.
func TestSchemaTextShowsViewDefinitions(t *testing.T) {
	def := "SELECT d.id AS driver_id, SUM(t.km) AS km -- all years\n  FROM trips t JOIN drivers d ON d.id = t.driver_id\n  WHERE t.status = 'done\nx'\n  GROUP BY d.id"
	view := schema.Table{Schema: "main", Name: "driver_km", Kind: schema.KindView, Definition: def,
		Columns: []schema.Column{{Name: "driver_id", Type: planast.TypeInteger}, {Name: "km", Type: planast.TypeFloat}}}
	text := SnapshotText(&schema.Snapshot{Datasource: "fleet", Dialect: "sqlite", Tables: []schema.Table{view}})
	want := "main.driver_km (view)\n  as " + cellfmt.Quote("SELECT d.id AS driver_id, SUM(t.km) AS km /* all years */ FROM trips t JOIN drivers d ON d.id = t.driver_id WHERE t.status = 'done\nx' GROUP BY d.id") + "\n  driver_id"
	if !strings.Contains(text, want) {
		t.Errorf("text:\n%s\nwant it to hold:\n%s", text, want)
	}
	// describe_schema's structured output carries it too
	res, err := DescribeSchemaHandler(describeFake{&schema.Snapshot{Datasource: "fleet", Dialect: "sqlite", Tables: []schema.Table{view}}})(
		context.Background(), mcpCall(map[string]any{"datasource": "fleet", "table": "driver_km"}))
	if err != nil || res.IsError {
		t.Fatalf("describe_schema: %v %+v", err, res)
	}
	if out, ok := res.StructuredContent.(DescribeOutput); !ok || len(out.Tables) != 1 || out.Tables[0].Definition != def {
		t.Errorf("structured output %+v, want driver_km's definition", res.StructuredContent)
	}
	view.Definition, view.DefinitionWithheld = "", true
	text = SnapshotText(&schema.Snapshot{Datasource: "fleet", Dialect: "sqlite", Tables: []schema.Table{view}})
	if !strings.Contains(text, "main.driver_km (view)\n  definition withheld (it names what you may not read)\n") {
		t.Errorf("withheld:\n%s", text)
	}
}

// A host shown happened_at's range 2024-01-01..2024-05-01 took it for
// every date the column holds and missed the Unix times a loader stored
// beside them. describe_schema's text says how many there are, their
// dates, and that the range leaves them out, as the ask context does.
func TestSnapshotTextNamesUnixTimes(t *testing.T) {
	rows := int64(5)
	snap := &schema.Snapshot{Tables: []schema.Table{{Schema: "main", Name: "events", RowCount: &rows, Columns: []schema.Column{
		{Name: "happened_at", Type: planast.TypeTimestamp, DeclaredType: "DATETIME", Nullable: true, Profile: &schema.ColumnProfile{
			Min: "2024-01-01 10:00:00", Max: "2024-05-01 00:00:00", Invalid: 2, InvalidExample: int64(1706745600),
			Numbers: &schema.StoredNumbers{Count: 2, Min: int64(1706745600), Max: int64(1711929600)}}},
	}}}}
	want := "(2 values are Unix seconds, 2024-02-01 to 2024-04-01, outside the range and read as NULL; to count them read COALESCE(x, FROM_EPOCH_SECONDS(CAST(x AS text))))"
	if got := SnapshotText(snap); !strings.Contains(got, want) {
		t.Errorf("text %q: want %q", got, want)
	}
}
