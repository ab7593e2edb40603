package answer

import (
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// Stored text is quoted in the summary whatever it looks like: a text or
// untyped column's "9007199254740993" or "infinity" printed bare would read
// as a number or an infinite date the database computed. Strings of typed
// columns (big integers, exact decimals, dates, infinities) print bare.
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
		{`{"a": 1}`, planast.TypeJSON, `"{\"a\": 1}"`},
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
