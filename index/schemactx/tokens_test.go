package schemactx

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Counting the lines apart gives the count of the joined text, whatever
// the lines start or end with: whitespace, slashes, newlines, quotes,
// digits, punctuation or letters of other scripts (the cut rule of
// joinedTokens).
func TestJoinedTokensCountsTheJoinedText(t *testing.T) {
	pieces := []string{"a", "Z", "é", "Invoice", "1", "2024", " ", "  ", "\t", "/", "//", "\r", "\n", "\n\n", `"`, "_", "$",
		"'s", "]", ";", ".", "\u00a0", "\u2028", "日本", "-", "->", ",", "e.g. [", "(12 rows):", "\u0301"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		lines := make([]string, 1+r.IntN(6))
		for i := range lines {
			var b strings.Builder
			for k := r.IntN(8); k > 0; k-- {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			lines[i] = b.String()
		}
		want := ContextTokens(strings.Join(lines, "\n"))
		if got := joinedTokens(slices.Values(lines)); got != want {
			t.Fatalf("lines %q: %d tokens, joined %d", lines, got, want)
		}
	}
}

// SchemaTokens counts what SchemaContext renders, names that are plain or
// quoted alike.
func TestSchemaTokensCountsTheContext(t *testing.T) {
	rows := int64(12)
	snap := &schema.Snapshot{Datasource: "x", Tables: []schema.Table{
		{Name: "Order Details", RowCount: &rows, Columns: []schema.Column{{Name: "id", Type: planast.TypeInteger}, {Name: " note", Type: planast.TypeText, Comment: "line\none"}}},
		{Name: "_tmp", Columns: []schema.Column{{Name: "$x", Type: planast.TypeText, Profile: &schema.ColumnProfile{SampleValues: []any{"a\nb", "/c"}, AllValues: true, DistinctCount: 2}}}},
		{Name: "/weird", Columns: []schema.Column{{Name: "1st", Type: planast.TypeFloat}}},
		{Name: "Ünïcode", Columns: []schema.Column{{Name: "名前", Type: planast.TypeText}}},
		{Name: " lead", Columns: []schema.Column{{Name: "a", Type: planast.TypeText}}},
	}}
	if got, want := SchemaTokens(snap), ContextTokens(SchemaContext(snap)); got != want {
		t.Errorf("SchemaTokens %d, ContextTokens(SchemaContext) %d", got, want)
	}
}
