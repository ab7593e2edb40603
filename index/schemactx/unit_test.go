package schemactx

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A planner summed or compared weights as they are, kilograms beside
// pounds, though a column beside them named the unit: the context ties
// the measure to its unit column where that holds several, and says
// nothing of a unit column holding one, nor of a column no unit names.
func TestUnitNoteTiesAMeasureToItsUnits(t *testing.T) {
	units := func(vals ...any) *schema.ColumnProfile {
		return &schema.ColumnProfile{AllValues: true, SampleValues: vals}
	}
	for _, c := range []struct {
		name string
		unit schema.Column
		want string
	}{
		{"two units", schema.Column{Name: "weight_unit", Type: planast.TypeText, Profile: units("kg", "lb")}, `its unit is in weight_unit ["kg","lb"]`},
		{"a plain uom column", schema.Column{Name: "uom", Type: planast.TypeText, Profile: units("h", "min")}, `its unit is in uom ["h","min"]`},
		{"one unit", schema.Column{Name: "weight_unit", Type: planast.TypeText, Profile: units("kg")}, ""},
		{"another measure's unit", schema.Column{Name: "length_unit", Type: planast.TypeText, Profile: units("cm", "in")}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := schema.Table{Name: "items", Columns: []schema.Column{{Name: "weight", Type: planast.TypeFloat}, c.unit}}
			got := UnitNote(&tb, &tb.Columns[0])
			if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
				t.Errorf("UnitNote = %q, want %q…", got, c.want)
			}
			ctx := SchemaContext(&schema.Snapshot{Tables: []schema.Table{tb}})
			if c.want != "" && !strings.Contains(ctx, c.want) {
				t.Errorf("the context leaves the unit out:\n%s", ctx)
			}
		})
	}
}
