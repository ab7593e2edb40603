package warnings

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: the value index keeps a column's values only up to a bound
// (else samples), and profiling past a row count counts distinct values
// over a prefix. From such a partial list a join can look as if no key
// matched exactly when the matching key is simply not in the list; the
// warning would then tell the host to rewrite a correct join. Only
// complete lists on both sides may earn it.
func TestJoinKeyWarningNeedsCompleteValueLists(t *testing.T) {
	plan := &planast.Query{
		From:  []planast.From{{Table: "flights", Alias: "f"}, {Table: "airports", Alias: "a"}},
		Joins: []planast.Join{{Type: planast.JoinInner, Left: "f", Right: "a", On: []planast.OnPair{{LeftColumn: "src", RightColumn: "code"}}}},
	}
	stored := func(_, table, _ string) []string {
		if table == "flights" {
			return []string{" ABR", " APG"}
		}
		return []string{"ABR", "APG"}
	}
	for _, c := range []struct {
		name     string
		distinct int64
		sampled  int64
		want     bool
	}{
		{"complete lists", 2, 0, true},
		{"more distinct values than listed", 5, 0, false},
		{"profiled over a prefix", 2, 1000, false},
	} {
		snap := &schema.Snapshot{Tables: []schema.Table{
			{Schema: "main", Name: "airports", Columns: []schema.Column{{Name: "code", Type: planast.TypeText,
				Profile: &schema.ColumnProfile{DistinctCount: c.distinct, SampledRows: c.sampled}}}},
			{Schema: "main", Name: "flights", Columns: []schema.Column{{Name: "src", Type: planast.TypeText,
				Profile: &schema.ColumnProfile{DistinctCount: 2}}}},
		}}
		got := strings.Join(joinKeyWarnings(snap, plan, stored), "\n")
		if strings.Contains(got, "pairs no stored values exactly") != c.want {
			t.Errorf("%s: warnings %q, want one: %v", c.name, got, c.want)
		}
	}
}
