package index

import (
	"slices"

	"github.com/nl2sql/nl2sql/engine/schema"
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
//   - each matched Value added to its column's SampleValues when not there
//     already (a column without a profile gets one holding only them), so
//     the planner sees the stored spelling of the literals in the question.
//
// Profiles are copied, never shared with snap; snap is not changed.
func (s *Selection) Filter(snap *schema.Snapshot) *schema.Snapshot {
	out := &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: []schema.Table{}}
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
				c.Profile = &p
			}
			for _, v := range values[[3]string{t.Schema, t.Name, c.Name}] {
				if c.Profile == nil {
					c.Profile = &schema.ColumnProfile{}
				}
				if !slices.Contains(c.Profile.SampleValues, v) {
					c.Profile.SampleValues = append(c.Profile.SampleValues, v)
				}
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
