package warnings

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: the value index keeps a column's values only up to a bound
// (else samples), and profiling past a row count counts distinct values
// over a prefix. Checked against such a partial list a key can look as if
// it had no exact partner when the partner is simply not in the list; the
// warning would then tell the host to rewrite a correct join. A value
// proves a loose-only match only against a complete list of the other
// side, and a value that has an exact partner is never counted.
func TestKeyWarningNeedsACompleteListOnTheOtherSide(t *testing.T) {
	plan := &planast.Query{
		From:  []planast.From{{Table: "flights", Alias: "f"}, {Table: "airports", Alias: "a"}},
		Joins: []planast.Join{{Type: planast.JoinInner, Left: "f", Right: "a", On: []planast.OnPair{{LeftColumn: "src", RightColumn: "code"}}}},
	}
	type list struct {
		vals     []string
		distinct int64
		sampled  int64
	}
	for _, c := range []struct {
		name              string
		flights, airports list
		want              string // the count of loose-only values named, "" for none
	}{
		{"complete lists", list{[]string{" ABR", " APG"}, 2, 0}, list{[]string{"ABR", "APG"}, 2, 0}, `2 stored values`},
		{"airports partial, flights complete", list{[]string{" ABR", " APG"}, 2, 0}, list{[]string{"ABR", "APG"}, 5, 0}, `2 stored values of "code"`},
		{"both profiled over a prefix", list{[]string{" ABR", " APG"}, 2, 1000}, list{[]string{"ABR", "APG"}, 2, 1000}, ""},
		{"both listed partly", list{[]string{" ABR", " APG"}, 9, 0}, list{[]string{"ABR", "APG"}, 9, 0}, ""},
		{"one exact partner, one loose", list{[]string{"ABR", "apg"}, 2, 0}, list{[]string{"ABR", "APG"}, 2, 0}, `1 stored value of`},
		{"every key exact", list{[]string{"ABR", "APG"}, 2, 0}, list{[]string{"ABR", "APG", "XYZ"}, 3, 0}, ""},
	} {
		stored := func(_, table, _ string) []string {
			if table == "flights" {
				return c.flights.vals
			}
			return c.airports.vals
		}
		snap := &schema.Snapshot{Tables: []schema.Table{
			{Schema: "main", Name: "airports", Columns: []schema.Column{{Name: "code", Type: planast.TypeText,
				Profile: &schema.ColumnProfile{DistinctCount: c.airports.distinct, SampledRows: c.airports.sampled}}}},
			{Schema: "main", Name: "flights", Columns: []schema.Column{{Name: "src", Type: planast.TypeText,
				Profile: &schema.ColumnProfile{DistinctCount: c.flights.distinct, SampledRows: c.flights.sampled}}}},
		}}
		got := strings.Join(keyWarnings(snap, plan, stored, false), "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: warnings %q, want one naming %q (none when empty)", c.name, got, c.want)
		}
	}
}
