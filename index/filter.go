package index

import (
	"slices"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Filter returns the sub-snapshot of snap (the snapshot the index was built
// from) that the selection keeps, for SchemaContext to render:
//
//   - the selected tables, in snap's order, with only their selected
//     columns (in table order);
//   - a primary key only when all its columns are kept;
//   - a foreign key only when its columns, its referenced table and the
//     referenced columns are all kept, so the context never names a table
//     or column the selection left out (or access denied);
//   - with Focus set (a whole selection), the profile of a column outside
//     the focus keeps only a temporal column's range and a text key's
//     first samples (outline), so SchemaContext shows it by name and type
//     (and date range, or how its keys are spelled) alone;
//   - each matched Value added to its column's SampleValues when not there
//     already (a column without a profile gets one holding only them), so
//     the planner sees the stored spelling of the literals in the question.
//
// Profiles are copied, never shared with snap; snap is not changed.
func (s *Selection) Filter(snap *schema.Snapshot) *schema.Snapshot {
	out := snap.WithTables([]schema.Table{})
	cols := map[[2]string]map[string]bool{}
	for _, t := range s.Tables {
		m := map[string]bool{}
		for _, c := range t.Columns {
			m[c] = true
		}
		cols[[2]string{t.Schema, t.Name}] = m
	}
	values := map[[3]string][]any{}
	for _, v := range s.Values {
		k := [3]string{v.Schema, v.Table, v.Column}
		values[k] = append(values[k], v.Value)
	}
	focus := map[[3]string]bool{}
	for _, t := range s.Focus {
		for _, c := range t.Columns {
			focus[[3]string{t.Schema, t.Name, c}] = true
		}
	}
	all := func(m map[string]bool, names []string) bool {
		for _, n := range names {
			if !m[n] {
				return false
			}
		}
		return true
	}
	for _, t := range snap.Tables {
		keep, ok := cols[[2]string{t.Schema, t.Name}]
		if !ok {
			continue
		}
		nt := t
		nt.Columns = nil
		nt.PrimaryKey = nil
		nt.ForeignKeys = nil
		for _, c := range t.Columns {
			if !keep[c.Name] {
				continue
			}
			if c.Profile != nil {
				p := *c.Profile
				p.SampleValues = slices.Clone(p.SampleValues)
				if s.Whole && len(s.Focus) > 0 && !focus[[3]string{t.Schema, t.Name, c.Name}] {
					p = outline(p, c.Type.IsTemporal() || p.Temporal != "", c.Type == planast.TypeText && isKeyColumn(&t, c.Name))
				}
				c.Profile = &p
			}
			if matched := values[[3]string{t.Schema, t.Name, c.Name}]; len(matched) > 0 {
				if c.Profile == nil {
					c.Profile = &schema.ColumnProfile{}
				}
				c.Profile.SampleValues = withMatched(c.Profile.SampleValues, matched)
			}
			nt.Columns = append(nt.Columns, c)
		}
		if len(t.PrimaryKey) > 0 && all(keep, t.PrimaryKey) {
			nt.PrimaryKey = slices.Clone(t.PrimaryKey)
		}
		for _, fk := range t.ForeignKeys {
			ref, ok := cols[[2]string{fk.RefSchema, fk.RefTable}]
			if ok && all(keep, fk.Columns) && all(ref, fk.RefColumns) {
				nt.ForeignKeys = append(nt.ForeignKeys, fk)
			}
		}
		out.Tables = append(out.Tables, nt)
	}
	return out
}

// withMatched adds a question's matched stored values to a column's sample
// values, first: SchemaContext shows only the first few samples of a
// column whose values are not all listed, and of a complete list whose
// values are each on one row (names), so a matched value anywhere else
// would not reach the planner, who then writes the question's spelling
// ("zoe angstrom") instead of the stored one. A complete list stays
// complete, in its order after them.
func withMatched(samples, matched []any) []any {
	var front []any
	for _, v := range matched {
		if !slices.Contains(front, v) {
			front = append(front, v)
		}
	}
	rest := slices.DeleteFunc(slices.Clone(samples), func(x any) bool { return slices.Contains(front, x) })
	return append(front, rest...)
}

// outline is the profile of a column outside a whole selection's focus:
// only a temporal column's range is kept (relative dates are resolved
// against the data's range), a text key's first KeyExamples samples, the
// counts, nothing else. A text key's spelling is what a join or an IN
// must match exactly (flights.SourceAirport " AAF" against
// airports.AirportCode "AAF"); without its examples a planner cannot see
// that the keys differ.
func outline(p schema.ColumnProfile, temporal, textKey bool) schema.ColumnProfile {
	out := schema.ColumnProfile{DistinctCount: p.DistinctCount, NullFraction: p.NullFraction}
	if temporal {
		out.Min, out.Max = p.Min, p.Max
	}
	if textKey {
		out.SampleValues = p.SampleValues[:min(len(p.SampleValues), KeyExamples)]
	}
	return out
}

// KeyExamples is how many samples a text key outside a whole selection's
// focus keeps.
const KeyExamples = 2

// isKeyColumn reports whether column c of t is in its primary key or in
// one of its foreign keys.
func isKeyColumn(t *schema.Table, c string) bool {
	if slices.Contains(t.PrimaryKey, c) {
		return true
	}
	for _, fk := range t.ForeignKeys {
		if slices.Contains(fk.Columns, c) {
			return true
		}
	}
	return false
}
