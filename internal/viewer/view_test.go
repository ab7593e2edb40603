package viewer

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/planast"
)

// plan decodes the named plan of testdata/plans.json (the plans the
// browser test runs on Chinook).
func plan(t *testing.T, name string) *planast.Query {
	t.Helper()
	b, err := os.ReadFile("testdata/plans.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	q, err := planast.Decode(all[name], planast.Limits{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return q
}

func TestChartFor(t *testing.T) {
	type T = planast.Type
	rows := func(n int, row ...any) [][]any {
		out := make([][]any, n)
		for i := range out {
			out[i] = row
		}
		return out
	}
	cases := []struct {
		name  string
		plan  string
		cols  []string
		types []T
		rows  [][]any
		want  *Chart
	}{
		{"month and two measures: a line", "month_revenue", []string{"month", "revenue", "invoices"}, []T{"text", "decimal", "integer"}, rows(12, "2021-01", 35.64, 6), &Chart{Kind: ChartLine, X: 0, Y: []int{1, 2}}},
		{"a single month is no line", "month_revenue", []string{"month", "revenue", "invoices"}, []T{"text", "decimal", "integer"}, rows(1, "2021-01", 35.64, 6), nil},
		{"genre and a count: bars", "genre_tracks", []string{"genre", "tracks"}, []T{"text", "integer"}, rows(10, "Rock", 1297), &Chart{Kind: ChartBar, X: 0, Y: []int{1}}},
		{"too many categories: no bars", "genre_tracks", []string{"genre", "tracks"}, []T{"text", "integer"}, rows(MaxBars+1, "Rock", 1297), nil},
		{"one row, one number: a big number", "total_revenue", []string{"total_revenue"}, []T{"decimal"}, rows(1, 2328.6), &Chart{Kind: ChartNumber, X: -1, Y: []int{0}}},
		{"one row, NULL: no big number", "total_revenue", []string{"total_revenue"}, []T{"decimal"}, rows(1, nil), nil},
		{"a wide table: none", "wide_customers", strings.Fields("CustomerId FirstName LastName Company Address City State Country PostalCode Phone Fax Email SupportRepId"),
			[]T{"integer", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "integer"}, rows(59, 1, "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", 3), nil},
		{"rows of text and numbers, no aggregate: none", "all_tracks", []string{"TrackId", "Name", "Composer", "UnitPrice"}, []T{"integer", "text", "text", "decimal"}, rows(1000, 1, "x", "y", 0.99), nil},
		{"a date column and a measure without a plan (verified query): a line", "", []string{"day", "n"}, []T{"date", "integer"}, rows(3, "2021-01-01", 3), &Chart{Kind: ChartLine, X: 0, Y: []int{1}}},
		{"a category and a number without a plan: bars", "", []string{"country", "customers"}, []T{"text", "integer"}, rows(5, "USA", 13), &Chart{Kind: ChartBar, X: 0, Y: []int{1}}},
		{"no rows: none", "genre_tracks", []string{"genre", "tracks"}, []T{"text", "integer"}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := &engine.Result{Columns: c.cols, ColumnTypes: c.types, Rows: c.rows}
			if c.plan != "" {
				res.Plan = plan(t, c.plan)
			}
			if got := ChartFor(res); !reflect.DeepEqual(got, c.want) {
				t.Errorf("ChartFor = %+v, want %+v", got, c.want)
			}
		})
	}
}

// A grouped number (a year from DATE_PART, an id) is a label, not a
// measure: "albums by year" is a line over the years, not two lines.
func TestChartGroupedNumberIsALabel(t *testing.T) {
	q, err := planast.Decode([]byte(`{"select":[{"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"year"},{"kind":"column","table":"i","column":"InvoiceDate"}]},"alias":"year"},{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"Total"}]},"alias":"revenue"}],
		"from":[{"table":"Invoice","alias":"i"}],"group_by":[{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"year"},{"kind":"column","table":"i","column":"InvoiceDate"}]}]}`), planast.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	res := &engine.Result{Columns: []string{"year", "revenue"}, ColumnTypes: []planast.Type{"integer", "decimal"}, Rows: [][]any{{2021, 1.5}, {2022, 2.5}}, Plan: q}
	if got, want := ChartFor(res), (&Chart{Kind: ChartLine, X: 0, Y: []int{1}}); !reflect.DeepEqual(got, want) {
		t.Errorf("ChartFor = %+v, want %+v", got, want)
	}
}

// The page shows numbers as the text table does (internal/cellfmt), not
// as JavaScript would: the double's shortest text, and 64-bit integers beyond
// 2^53 digit for digit (JSON.parse would print 9007199254740993 as
// 9007199254740992).
func TestDisplay(t *testing.T) {
	rows := [][]any{
		{"a", 6.659999999999999, int64(9007199254740993), nil},
		{"", 5.308, int64(1), true},
	}
	got := Display(rows, nil)
	text := func(k string) []string {
		var out []string
		for _, p := range got[k] {
			if p == nil {
				out = append(out, "<nil>")
			} else {
				out = append(out, *p)
			}
		}
		return out
	}
	if _, ok := got["0"]; ok {
		t.Errorf("a text column has display text: %v", text("0"))
	}
	if _, ok := got["3"]; ok {
		t.Errorf("a column without numbers has display text: %v", text("3"))
	}
	if g := text("1"); !reflect.DeepEqual(g, []string{"6.659999999999999", "5.308"}) {
		t.Errorf("floats: %v", g)
	}
	if g := text("2"); !reflect.DeepEqual(g, []string{"9007199254740993", "1"}) {
		t.Errorf("integers: %v", g)
	}
}

// A value holding </script> stays inside the embedded JSON block of the
// standalone page: it cannot end the block and run as a script.
func TestStandaloneKeepsValuesAsData(t *testing.T) {
	evil := `</script><script>alert(1)</script><!--`
	res := &engine.Result{Question: evil, Answer: evil, Columns: []string{"x"}, ColumnTypes: []planast.Type{"text"}, Rows: [][]any{{evil}}, RowCount: 1}
	b, err := Standalone(res)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, dataMarker) {
		t.Error("the data marker is still in the page")
	}
	start := strings.Index(s, `<script type="application/json" id="nl2sql-result">`)
	if start < 0 {
		t.Fatal("no embedded result")
	}
	block := s[start:]
	block = block[:strings.Index(block, "</script>")+len("</script>")]
	if strings.Contains(block, "alert(1)</script>") || strings.Count(block, "<") != 2 {
		t.Errorf("the value escaped its block: %s", block)
	}
	var doc struct {
		StructuredContent engine.Result   `json:"structuredContent"`
		Meta              map[string]View `json:"_meta"`
	}
	inner := strings.TrimSuffix(block[strings.Index(block, ">")+1:], "</script>")
	if err := json.Unmarshal([]byte(inner), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.StructuredContent.Rows[0][0] != evil {
		t.Errorf("the value did not survive: %v", doc.StructuredContent.Rows[0][0])
	}
}

// The page declares a policy that loads nothing from anywhere; the
// resource _meta says the same to the host.
func TestPageLoadsNothing(t *testing.T) {
	p := HTML()
	for _, want := range []string{`http-equiv="Content-Security-Policy"`, "default-src 'none'", "connect-src 'none'", "script-src 'sha256-", dataMarker} {
		if !strings.Contains(p, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script src", "<link ", "@import", "unsafe-eval", "sourceMappingURL"} {
		if strings.Contains(p, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	csp := ResourceMeta()["ui"].(map[string]any)["csp"].(map[string]any)
	for k, v := range csp {
		if len(v.([]string)) != 0 {
			t.Errorf("csp %s allows %v", k, v)
		}
	}
}

func TestSupports(t *testing.T) {
	cases := []struct {
		ext  map[string]any
		want bool
	}{
		{nil, false},
		{map[string]any{ExtensionID: map[string]any{}}, false},
		{map[string]any{ExtensionID: map[string]any{"mimeTypes": []any{"text/html"}}}, false},
		{map[string]any{ExtensionID: map[string]any{"mimeTypes": []any{MIMEType}}}, true},
		{map[string]any{"other": map[string]any{"mimeTypes": []any{MIMEType}}}, false},
	}
	for _, c := range cases {
		if got := Supports(c.ext); got != c.want {
			t.Errorf("Supports(%v) = %v", c.ext, got)
		}
	}
}
