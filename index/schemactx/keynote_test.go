package schemactx

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: the declared key is the join a planner writes first, and
// it pairs nothing when one side's codes are stored with a leading space
// (" AHD" against "AHD"), or is refused when one side is text and the
// other an integer; the host learns it only after a wasted call. The key
// line says so; a key whose values are written alike, or whose padding is
// only in some values, gets no note.
func TestForeignKeyLineSaysWhatAPlainJoinMisses(t *testing.T) {
	prof := func(vals ...any) *schema.ColumnProfile {
		return &schema.ColumnProfile{DistinctCount: int64(len(vals)), SampleValues: vals}
	}
	for _, c := range []struct {
		name             string
		fromType, toType planast.Type
		fromVals, toVals []any
		want             string
	}{
		{"padded codes", planast.TypeText, planast.TypeText, []any{" AAF", " AHD"}, []any{"AAF", "AHD", "XYZ"}, "join on TRIM of both"},
		{"padded on the referenced side", planast.TypeText, planast.TypeText, []any{"AAF", "AHD"}, []any{"AAF ", "AHD "}, "join on TRIM of both"},
		{"alike", planast.TypeText, planast.TypeText, []any{"AAF", "AHD"}, []any{"AAF", "AHD"}, ""},
		{"one stray padded value", planast.TypeText, planast.TypeText, []any{" AAF", "AHD"}, []any{"AAF", "AHD"}, ""},
		{"one sample only", planast.TypeText, planast.TypeText, []any{" AAF"}, []any{"AAF", "AHD"}, ""},
		{"text against integer", planast.TypeText, planast.TypeInteger, []any{"1", "2"}, nil, `(integer there: join with "condition" CAST(src AS integer) = code, not an "on" pair)`},
		{"integer against text", planast.TypeInteger, planast.TypeText, nil, []any{"1", "2"}, `(text there: join with "condition" src = CAST(code AS integer), not an "on" pair)`},
		{"integer against integer", planast.TypeInteger, planast.TypeInteger, nil, nil, ""},
	} {
		snap := &schema.Snapshot{Datasource: "air", Tables: []schema.Table{
			{Schema: "main", Name: "airports", PrimaryKey: []string{"code"}, Columns: []schema.Column{
				{Name: "code", Type: c.toType, Profile: prof(c.toVals...)}}},
			{Schema: "main", Name: "flights", Columns: []schema.Column{
				{Name: "src", Type: c.fromType, Profile: prof(c.fromVals...)}},
				ForeignKeys: []schema.ForeignKey{{Columns: []string{"src"}, RefSchema: "main", RefTable: "airports", RefColumns: []string{"code"}}}},
		}}
		got := SchemaContext(snap)
		line := got[strings.Index(got, "flights"):]
		noted := strings.Contains(line, "-> airports.code (")
		if noted != (c.want != "") || !strings.Contains(line, c.want) {
			t.Errorf("%s: %s\nwant a note containing %q", c.name, line, c.want)
		}
	}
}

// The threat: a stored value holding a bidi override (U+202E) or a
// zero-width space reached the planner's context raw, where it reverses
// the text around it or hides one value inside another, while the result
// tables escape it. The context escapes it the same way.
func TestContextEscapesFormatCharacters(t *testing.T) {
	stored := []any{"zero\u200bwidth", "\u202eevil\u202c reversed"}
	snap := &schema.Snapshot{Datasource: "crm", Tables: []schema.Table{{Schema: "main", Name: "notes", Columns: []schema.Column{
		{Name: "body", Type: planast.TypeText, Profile: &schema.ColumnProfile{DistinctCount: 2, SampleValues: stored, AllValues: true}},
	}}}}
	got := SchemaContext(snap)
	if strings.ContainsAny(got, "\u200b\u202e\u202c") || !strings.Contains(got, `"zero\u200bwidth"`) || !strings.Contains(got, `"\u202eevil\u202c reversed"`) {
		t.Errorf("context %q: want the format characters escaped", got)
	}
}
