package answer

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// Stored text is quoted in the summary whatever it looks like: a text or
// untyped column's "9007199254740993" or "infinity" printed bare would read
// as a number or an infinite date the database computed. Strings of typed
// columns (big integers, exact decimals, dates, infinities) print bare, and
// JSON documents and arrays as the table prints them.
func TestSummaryQuotesTextByColumnType(t *testing.T) {
	text, unk := planast.TypeText, planast.TypeUnknown
	for _, c := range []struct {
		v    any
		t    planast.Type
		want string
	}{
		{"9007199254740993", text, `"9007199254740993"`},
		{"-0", text, `"-0"`},
		{"2024-02-30", text, `"2024-02-30"`},
		{"infinity", text, `"infinity"`},
		{"0000-00-00", text, `"0000-00-00"`},
		{"1700000000", unk, `"1700000000"`},
		{"Infinity", "", `"Infinity"`},
		{"12abc", text, `"12abc"`},
		{"9007199254740993", planast.TypeInteger, "9007199254740993"},
		{"12345678901234567.89", planast.TypeDecimal, "12345678901234567.89"},
		{"infinity", planast.TypeDate, "infinity"},
		{"2024-01-15 10:20:30", planast.TypeTimestamp, "2024-01-15 10:20:30"},
		{"Infinity", planast.TypeFloat, "Infinity"},
		// JSON text as the table prints it: its strings sit in their own
		// quotes; quoted again, each came back escaped
		{`{"a": "x"}`, planast.TypeJSON, `{"a": "x"}`},
		{`["vip","eu"]`, planast.TypeArray, `["vip","eu"]`},
		{int64(42), unk, "42"},
		{4.5, unk, "4.5"},
		{nil, text, "NULL"},
	} {
		if got := formatValue(c.v, c.t); got != c.want {
			t.Errorf("formatValue(%#v, %q) = %s, want %s", c.v, c.t, got, c.want)
		}
	}
}

// A blob is its placeholder in the summary, as in the table beside it:
// base64 quoted would read as stored text.
func TestSummaryShowsBlobsAsTheTableDoes(t *testing.T) {
	for _, c := range []struct{ v, want string }{
		{"AP8Q", "<binary 3 bytes sha256:2da45f2c>"},
		{"", "<binary 0 bytes sha256:e3b0c442>"},
	} {
		if got := formatValue(c.v, planast.TypeBlob); got != c.want {
			t.Errorf("formatValue(%q, blob) = %s, want %s", c.v, got, c.want)
		}
	}
}

// The threat: "which account manager looks after the most accounts?"
// answered "First: Tom Becker, accounts 52" while Marcus Hill also has
// 52; a host that reads the summary names one manager where two share
// first place. A result sorted by output columns whose first rows hold
// the same values there says how many tie; a first row that stands alone,
// or a sort by something else, adds nothing.
func TestSummarySaysWhenTheFirstRowsTie(t *testing.T) {
	rows := [][]any{{"Tom Becker", int64(52)}, {"Marcus Hill", int64(52)}, {"Lucia Fernandez", int64(49)}, {"Ana Ruiz", int64(40)}}
	plan := func(orderBy string) *planast.Query {
		q, err := planast.Decode([]byte(`{"select":[{"expr":{"kind":"column","table":"m","column":"name"},"alias":"manager"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"accounts"}],`+
			`"from":[{"table":"managers","alias":"m"}],"group_by":[{"kind":"column","table":"m","column":"name"}],"order_by":[`+orderBy+`]}`), planast.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	byCount := plan(`{"expr":{"kind":"column","column":"accounts"},"direction":"desc"}`)
	for _, c := range []struct {
		name string
		plan *planast.Query
		rows [][]any
		want string
	}{
		{"tie for first", byCount, rows, "The first 2 rows tie on accounts."},
		{"all tie", byCount, [][]any{{"A", int64(3)}, {"B", int64(3)}}, "All 2 rows tie on accounts."},
		{"no tie", byCount, rows[1:], ""},
		{"sorted by name", plan(`{"expr":{"kind":"column","table":"m","column":"name"}}`), rows, ""},
		{"sorted by an expression", plan(`{"expr":{"kind":"func","name":"LOWER","args":[{"kind":"column","table":"m","column":"name"}]}}`), rows, ""},
		// rows grouped by more than the name share it: no ranking ties
		{"sorted by a repeated name", plan(`{"expr":{"kind":"column","column":"manager"}}`), [][]any{{"Ana", int64(3)}, {"Ana", int64(5)}, {"Bo", int64(1)}}, ""},
	} {
		r := Rows{Columns: []string{"manager", "accounts"}, ColumnTypes: []planast.Type{planast.TypeText, planast.TypeInteger},
			Rows: c.rows, RowCount: len(c.rows), OrderedBy: orderedBy(c.plan, []string{"manager", "accounts"})}
		got := Summarise(r)
		if c.want == "" && strings.Contains(got, " tie on ") || c.want != "" && !strings.HasSuffix(got, c.want) {
			t.Errorf("%s: %q, want it to end %q", c.name, got, c.want)
		}
	}
}

// The threat: a title cut inside its parenthesis read
// `title "Pandemic preparedness modelling (pending"…`, as if the database
// held a title ending in an open parenthesis. A cut value says it was cut
// and how long the stored value is; a CJK value is cut by the width it
// takes, whole characters only; a value that fits is not marked.
func TestSummarySaysAValueWasCut(t *testing.T) {
	title := "Pandemic preparedness modelling (pending review)"
	got := formatValue(title, planast.TypeText)
	if want := `"Pandemic preparedness modelling (pending"… (cut; 48 characters)`; got != want {
		t.Errorf("cut title = %s, want %s", got, want)
	}
	if got := formatValue("Pandemic preparedness", planast.TypeText); got != `"Pandemic preparedness"` {
		t.Errorf("a whole value is marked: %s", got)
	}
	wide := strings.Repeat("東京運送", 12) // 48 characters, 96 cells
	got = formatValue(wide, planast.TypeText)
	if want := `"` + strings.Repeat("東京運送", 5) + `"… (cut; 48 characters)`; got != want {
		t.Errorf("cut CJK value = %s, want %s", got, want)
	}
	doc := `{"note": "` + strings.Repeat("x", 60) + `"}`
	if got := formatValue(doc, planast.TypeJSON); !strings.HasSuffix(got, "… (cut; 72 characters)") {
		t.Errorf("cut JSON document = %s, want the cut said", got)
	}
}
