package index

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a whole schema's context shows values only for the columns
// in its focus, and keys are never in it. When flights.src stores " AAF"
// and airports.code "AAF", the join or NOT IN a planner writes from that
// context pairs nothing, and nothing in the context shows why. A text
// key outside the focus keeps a few examples of its spelling; a text
// column that is no key, and a numeric key, stay bare.
func TestWholeContextShowsHowTextKeysAreSpelled(t *testing.T) {
	prof := func(vals ...any) *schema.ColumnProfile {
		return &schema.ColumnProfile{DistinctCount: int64(len(vals)), SampleValues: vals}
	}
	snap := &schema.Snapshot{Tables: []schema.Table{
		{Schema: "main", Name: "airports", PrimaryKey: []string{"code"}, Columns: []schema.Column{
			{Name: "code", Type: planast.TypeText, Profile: prof("AAF", "ABI", "ABR")},
			{Name: "city", Type: planast.TypeText, Profile: prof("Albany ", "Anchorage ")},
		}},
		{Schema: "main", Name: "flights", PrimaryKey: []string{"no"},
			ForeignKeys: []schema.ForeignKey{{Columns: []string{"src"}, RefSchema: "main", RefTable: "airports", RefColumns: []string{"code"}}},
			Columns: []schema.Column{
				{Name: "no", Type: planast.TypeInteger, Profile: &schema.ColumnProfile{Min: int64(1), Max: int64(9)}},
				{Name: "src", Type: planast.TypeText, Profile: prof(" AAF", " ABI", " ABR")},
				{Name: "remark", Type: planast.TypeText, Profile: prof("late", "on time")},
			}},
	}}
	sel := &Selection{Whole: true,
		Tables: []TableSelection{{Schema: "main", Name: "airports", Columns: []string{"code", "city"}}, {Schema: "main", Name: "flights", Columns: []string{"no", "src", "remark"}}},
		Focus:  []TableSelection{{Schema: "main", Name: "airports", Columns: []string{"city"}}}}
	got := schemactx.SchemaContext(sel.Filter(snap))
	for _, c := range []struct {
		what string
		in   bool
	}{
		{`src text -> airports.code (stored with surrounding spaces on one side only: join on TRIM of both) e.g. [" AAF"," ABI"]`, true},
		{`code text pk e.g. ["AAF","ABI"]`, true},
		{`city text e.g. ["Albany ","Anchorage "]`, true},
		{`"late"`, false},
		{`"ABR"`, false},
		{`range [1,9]`, false},
	} {
		if strings.Contains(got, c.what) != c.in {
			t.Errorf("context holds %s: %v, want %v\n%s", c.what, !c.in, c.in, got)
		}
	}
}

// The threat: a rate table keyed by a surrogate id holds one rate per
// currency and month under a UNIQUE constraint; a planner that does not
// see it guards a correct join against duplicates that cannot exist (a
// DISTINCT, an averaged rate). The context names the unique key when its
// columns are in it, and never a key over a column it leaves out (the
// planner would read a name the context does not otherwise hold).
func TestContextNamesUniqueKeysOfTheColumnsItHolds(t *testing.T) {
	snap := &schema.Snapshot{Tables: []schema.Table{
		{Schema: "main", Name: "fx_rates", PrimaryKey: []string{"id"},
			UniqueKeys: [][]string{{"currency", "rate_month"}, {"source_ref"}},
			Columns: []schema.Column{
				{Name: "id", Type: planast.TypeInteger},
				{Name: "currency", Type: planast.TypeText},
				{Name: "rate_month", Type: planast.TypeDate},
				{Name: "rate", Type: planast.TypeDecimal},
				{Name: "source_ref", Type: planast.TypeText},
			}},
	}}
	sel := &Selection{Tables: []TableSelection{{Schema: "main", Name: "fx_rates", Columns: []string{"id", "currency", "rate_month", "rate"}}}}
	got := schemactx.SchemaContext(sel.Filter(snap))
	if !strings.Contains(got, "unique (currency, rate_month)") || strings.Contains(got, "source_ref") {
		t.Errorf("context %q: want unique (currency, rate_month) and nothing of source_ref", got)
	}
}
