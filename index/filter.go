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
//     the focus keeps only a temporal or numeric column's range, a text
//     key's first samples and a code's few values (outline), so
//     SchemaContext shows it by name and type and little more;
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
		nt.UniqueKeys = nil
		nt.ForeignKeys = nil
		for _, c := range t.Columns {
			if !keep[c.Name] {
				continue
			}
			if c.Profile != nil {
				p := *c.Profile
				p.SampleValues = slices.Clone(p.SampleValues)
				if s.Whole && len(s.Focus) > 0 && !focus[[3]string{t.Schema, t.Name, c.Name}] {
					p = outline(p, c.Type, p.Temporal != "", isKeyColumn(&t, c.Name), t.RowCount)
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
		for _, k := range t.UniqueKeys {
			if all(keep, k) {
				nt.UniqueKeys = append(nt.UniqueKeys, slices.Clone(k))
			}
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
// the counts, a temporal column's range (relative dates are resolved
// against the data's range), a text key's first KeyExamples samples, and,
// of a column that is no key, a number's range, a boolean's spellings
// as text (ColumnProfile.Respelled) and a code's every value
// (text with at most CodeValues distinct values, all known, each on two
// rows or more on average: not a name per row). A text key's
// spelling is what a join or an IN must match exactly
// (flights.SourceAirport " AAF" against airports.AirportCode "AAF");
// without its examples a planner cannot see that the keys differ. A
// status or type code is what a filter on the question's condition must
// name, and a number's range shows its zeros and negatives: a planner
// shown neither summed a PENDING grant as money received and counted
// students on a stipend of 0 as paid. Both cost a few tokens.
func outline(p schema.ColumnProfile, t planast.Type, temporalText, key bool, rows *int64) schema.ColumnProfile {
	out := schema.ColumnProfile{DistinctCount: p.DistinctCount, NullFraction: p.NullFraction}
	switch {
	case t.IsTemporal() || temporalText:
		out.Min, out.Max = p.Min, p.Max
	case t == planast.TypeText && key:
		out.SampleValues = p.SampleValues[:min(len(p.SampleValues), KeyExamples)]
	case key:
	case t.IsNumeric():
		out.Min, out.Max = p.Min, p.Max
	case t == planast.TypeText && p.AllValues && len(p.SampleValues) <= CodeValues && repeats(p, rows):
		out.SampleValues, out.AllValues = p.SampleValues, true
	case t == planast.TypeBoolean && p.Respelled > 0 && p.AllValues:
		// a SQLite flag that also writes 'y' or 'yes': a few values, and
		// the only sign that SQL written for SQLite counts those as false
		out.SampleValues, out.AllValues, out.Respelled = p.SampleValues, true, p.Respelled
	}
	return out
}

// repeats reports whether a column's values are each on two rows or more
// on average.
func repeats(p schema.ColumnProfile, rows *int64) bool {
	if rows == nil {
		return false
	}
	filled := float64(*rows) * (1 - p.NullFraction)
	return p.DistinctCount > 0 && 2*float64(p.DistinctCount) <= filled
}

// CodeValues is how many distinct values a text column outside a whole
// selection's focus may have for its values to be listed (outline).
const CodeValues = 8

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
