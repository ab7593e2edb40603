package semantic

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// Load reads the semantic file at path (display names it in errors) and
// checks it against snap: Parse, then Check. Errors are *Error (every
// problem with its line) or the read error wrapped.
func Load(path, display string, snap *schema.Snapshot) (*Layer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("semantic layer %s: %w", display, err)
	}
	f, err := Parse(display, b)
	if err != nil {
		return nil, err
	}
	l, err := Check(f, snap)
	if err != nil {
		return nil, err
	}
	l.raw = b
	return l, nil
}

// Check checks f against snap: every table and column it names exists;
// each metric's expr is an aggregate and each filter's a condition that
// the plan validator accepts over the definition's table alone (so a
// metric naming a missing column is refused here, with its line); time
// columns are dates or timestamps; relationships join columns of one
// portable type. It returns the Layer, with names spelled as snap spells
// them, or *Error listing every problem.
func Check(f *File, snap *schema.Snapshot) (*Layer, error) {
	c := &checker{f: f, snap: snap, l: &Layer{File: f.Path, Fiscal: f.Fiscal}}
	for _, t := range f.Tables {
		c.table(t)
	}
	for _, r := range f.Relationships { // first: definitions join through them
		c.relationship(r)
	}
	for _, m := range f.Metrics {
		c.metric(m)
	}
	for _, fl := range f.Filters {
		c.filter(fl)
	}
	if len(c.problems) > 0 {
		return nil, &Error{File: f.Path, Problems: c.problems}
	}
	c.l.index()
	return c.l, nil
}

type checker struct {
	f        *File
	snap     *schema.Snapshot
	l        *Layer
	problems []Problem
}

func (c *checker) addf(p Pos, format string, args ...any) {
	c.problems = append(c.problems, Problem{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) lookup(p Pos, what, sch, name string) *schema.Table {
	t, ok := c.snap.Lookup(sch, name)
	if !ok {
		c.addf(p, "%s: datasource %q has no table %q", what, c.snap.Datasource, qualified(sch, name))
		return nil
	}
	return t
}

func qualified(sch, name string) string {
	if sch == "" {
		return name
	}
	return sch + "." + name
}

func (c *checker) table(t Table) {
	st := c.lookup(t.Pos, "table", t.Schema, t.Name)
	if st == nil {
		return
	}
	t.Schema, t.Name = st.Schema, st.Name
	for i, col := range t.Columns {
		sc, ok := st.Column(col.Name)
		if !ok {
			c.addf(col.Pos, "table %q has no column %q%s", st.Name, col.Name, nearColumn(st, col.Name))
			continue
		}
		t.Columns[i].Name = sc.Name
	}
	c.l.Tables = append(c.l.Tables, t)
}

// nearColumn is " (did you mean X?)" for the column of t nearest name by
// the one rule of suggestions (planast.Nearest), or "": the layer's
// author fixes a misspelt name in one look.
func nearColumn(t *schema.Table, name string) string {
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	if near := planast.Nearest(name, names); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

// column resolves "Table.Column" or a column of def.
func (c *checker) column(p Pos, what, ref string, def *schema.Table) (*schema.Table, *schema.Column) {
	t := def
	name := ref
	if tn, cn, ok := strings.Cut(ref, "."); ok {
		if t = c.lookup(p, what, "", tn); t == nil {
			return nil, nil
		}
		name = cn
	}
	if t == nil {
		c.addf(p, "%s %q must be written Table.Column", what, ref)
		return nil, nil
	}
	col, ok := t.Column(name)
	if !ok {
		c.addf(p, "%s: table %q has no column %q%s", what, t.Name, name, nearColumn(t, name))
		return nil, nil
	}
	return t, col
}

func (c *checker) metric(m Metric) {
	t := c.lookup(m.Pos, fmt.Sprintf("metric %q", m.Name), m.Schema, m.Table)
	if t == nil {
		return
	}
	what := fmt.Sprintf("metric %q", m.Name)
	joins, ok := c.joinTables(m.Def, what, t)
	if !ok {
		return
	}
	e, ok := c.expr(what, m.Expr, t, joins, "select[0].expr", func(x planast.Expr) *planast.Query {
		return &planast.Query{Select: []planast.SelectItem{{Expr: x, Alias: "value"}}}
	})
	if !ok {
		return
	}
	if !hasAggregate(e) {
		c.addf(pos(m.Expr), "%s: expr must aggregate (SUM, COUNT, AVG, MIN or MAX), so that it means one number per group", what)
		return
	}
	def := Definition{Kind: "metric", Name: m.Name, Description: m.Description, Synonyms: m.Synonyms,
		Schema: t.Schema, Table: t.Name, JoinTables: tableNames(joins), Expr: e, Grain: m.Grain}
	if m.TimeColumn != "" {
		tt, col := c.column(m.timePos, what+" time_column", m.TimeColumn, t)
		if col == nil {
			return
		}
		if !col.Type.IsTemporal() && (col.Profile == nil || col.Profile.Temporal == "") {
			c.addf(m.timePos, "%s: time_column %s.%s is %s, not a date or timestamp", what, tt.Name, col.Name, col.Type)
			return
		}
		def.TimeColumn = tt.Name + "." + col.Name
	}
	c.l.Metrics = append(c.l.Metrics, def)
}

func (c *checker) filter(f Filter) {
	what := fmt.Sprintf("filter %q", f.Name)
	t := c.lookup(f.Pos, what, f.Schema, f.Table)
	if t == nil {
		return
	}
	joins, ok := c.joinTables(f.Def, what, t)
	if !ok {
		return
	}
	one := &planast.Literal{Type: planast.TInteger, Int: 1}
	e, ok := c.expr(what, f.Expr, t, joins, "where", func(x planast.Expr) *planast.Query {
		return &planast.Query{Select: []planast.SelectItem{{Expr: one, Alias: "one"}}, Where: x}
	})
	if !ok {
		return
	}
	c.l.Filters = append(c.l.Filters, Definition{Kind: "filter", Name: f.Name, Description: f.Description,
		Synonyms: f.Synonyms, Schema: t.Schema, Table: t.Name, JoinTables: tableNames(joins), Expr: e})
}

// expr decodes a definition's expression and validates it inside wrap's
// query over t and its joined tables (each aliased by its own name, joined
// on the keys joinTables found). at is where wrap puts the expression, so
// that issue paths map back onto the YAML node. It returns the validated
// expression, names spelled as snap spells them.
func (c *checker) expr(what string, n *yaml.Node, t *schema.Table, joins []joinedTable, at string, wrap func(planast.Expr) *planast.Query) (planast.Expr, bool) {
	var v any
	if err := n.Decode(&v); err != nil {
		c.addf(pos(n), "%s: expr: %v", what, err)
		return nil, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		c.addf(pos(n), "%s: expr is not a plan-language expression: %v", what, err)
		return nil, false
	}
	e, err := planast.DecodeExpr(raw, planast.Limits{})
	if err != nil {
		c.planIssues(what, n, "", err)
		return nil, false
	}
	q := wrap(e)
	q.From = []planast.From{{Schema: t.Schema, Table: t.Name, Alias: t.Name}}
	for _, j := range joins {
		q.From = append(q.From, planast.From{Schema: j.t.Schema, Table: j.t.Name, Alias: j.t.Name})
		q.Joins = append(q.Joins, planast.Join{Type: planast.JoinInner, Left: j.left, Right: j.t.Name, On: j.on})
	}
	vd, err := validate.Plan(q, c.snap, validate.Options{})
	if err != nil {
		c.planIssues(what, n, at, err)
		return nil, false
	}
	if at == "where" {
		return vd.Plan.Where, true
	}
	return vd.Plan.Select[0].Expr, true
}

// planIssues turns planast issues into problems at the YAML node their
// path leads to (prefix is the path of the expression in the query).
func (c *checker) planIssues(what string, n *yaml.Node, prefix string, err error) {
	var pe *planast.Error
	if !errors.As(err, &pe) {
		c.addf(pos(n), "%s: %v", what, err)
		return
	}
	// the first issue only: later ones tend to follow from it (a missing
	// column makes its aggregate look like an outer reference)
	for _, is := range pe.Issues[:1] {
		rel, ok := strings.CutPrefix(is.Path, prefix)
		at := n
		if ok {
			at = nodeAt(n, strings.TrimPrefix(rel, "."))
		}
		msg := is.Message
		if is.Code == planast.CodeAliasNotFound {
			// a definition has no from: its tables are table and join_tables
			msg = "names a table the definition does not read; list it under join_tables (columns name their table by its name)"
		}
		c.addf(pos(at), "%s: %s: %s", what, is.Code, msg)
	}
}

// nodeAt follows a planast issue path ("args[0].left.column") from n
// through mappings and sequences, stopping at the deepest node it finds.
func nodeAt(n *yaml.Node, path string) *yaml.Node {
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			continue
		}
		key, rest, _ := strings.Cut(part, "[")
		if key != "" {
			next := mapValue(n, key)
			if next == nil {
				return n
			}
			n = next
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if err != nil || n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				return n
			}
			n = n.Content[i]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return n
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			// point at the key when the value is a scalar written on its line
			return n.Content[i+1]
		}
	}
	return nil
}

func hasAggregate(e planast.Expr) bool {
	found := false
	planast.Inspect(e, func(n planast.Node) bool {
		if _, ok := n.(*planast.Query); ok {
			return false
		}
		if f, ok := n.(*planast.Func); ok {
			if spec, ok := planast.LookupFunc(f.Name); ok && spec.Kind == planast.Aggregate {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *checker) relationship(r Relationship) {
	ft, fc := c.column(r.Pos, "relationship from", r.From, nil)
	tt, tc := c.column(r.Pos, "relationship to", r.To, nil)
	if fc == nil || tc == nil {
		return
	}
	if fc.Type != tc.Type && !(fc.Type.IsNumeric() && tc.Type.IsNumeric()) {
		c.addf(r.Pos, "relationship %s → %s joins %s with %s", r.From, r.To, fc.Type, tc.Type)
		return
	}
	rel := Relationship{Pos: r.Pos, From: ft.Name + "." + fc.Name, To: tt.Name + "." + tc.Name, Cardinality: r.Cardinality}
	if r.Cardinality == "one_to_many" {
		rel.From, rel.To, rel.Cardinality = rel.To, rel.From, "many_to_one"
	}
	c.l.Relationships = append(c.l.Relationships, rel)
}

// joinedTable is one of a definition's join_tables, resolved: the table,
// the earlier table (by name) it joins to and the key pairs.
type joinedTable struct {
	t    *schema.Table
	left string
	on   []planast.OnPair
}

// joinTables resolves d's join_tables: each must exist and be joined to the
// definition's table, or an earlier join table, by a foreign key of the
// database or a relationship the file declares (in either direction).
func (c *checker) joinTables(d Def, what string, t *schema.Table) ([]joinedTable, bool) {
	in := []*schema.Table{t}
	var out []joinedTable
	for _, name := range d.JoinTables {
		jt := c.lookup(d.Pos, what+" join_tables", d.Schema, name)
		if jt == nil {
			return nil, false
		}
		if slices.ContainsFunc(in, func(x *schema.Table) bool { return x.Name == jt.Name && x.Schema == jt.Schema }) {
			c.addf(d.Pos, "%s: join_tables names %q twice (or the definition's own table)", what, jt.Name)
			return nil, false
		}
		found := false
		for _, prev := range in {
			if on, ok := c.joinKey(prev, jt); ok {
				out = append(out, joinedTable{t: jt, left: prev.Name, on: on})
				found = true
				break
			}
		}
		if !found {
			c.addf(d.Pos, "%s: join_tables %q has no foreign key or declared relationship to %q (declare one under relationships)", what, jt.Name, t.Name)
			return nil, false
		}
		in = append(in, jt)
	}
	return out, true
}

// joinKey finds the key pairs joining a (left) to b (right): a foreign key
// of either table referencing the other, else a declared relationship.
func (c *checker) joinKey(a, b *schema.Table) ([]planast.OnPair, bool) {
	pairs := func(cols, refs []string, flip bool) []planast.OnPair {
		var on []planast.OnPair
		for i := range cols {
			if flip {
				on = append(on, planast.OnPair{LeftColumn: refs[i], RightColumn: cols[i]})
			} else {
				on = append(on, planast.OnPair{LeftColumn: cols[i], RightColumn: refs[i]})
			}
		}
		return on
	}
	for _, fk := range a.ForeignKeys {
		if fk.RefTable == b.Name && (fk.RefSchema == "" || fk.RefSchema == b.Schema) {
			return pairs(fk.Columns, fk.RefColumns, false), true
		}
	}
	for _, fk := range b.ForeignKeys {
		if fk.RefTable == a.Name && (fk.RefSchema == "" || fk.RefSchema == a.Schema) {
			return pairs(fk.Columns, fk.RefColumns, true), true
		}
	}
	for _, r := range c.l.Relationships {
		ft, fc, _ := strings.Cut(r.From, ".")
		tt, tc, _ := strings.Cut(r.To, ".")
		switch {
		case ft == a.Name && tt == b.Name:
			return []planast.OnPair{{LeftColumn: fc, RightColumn: tc}}, true
		case ft == b.Name && tt == a.Name:
			return []planast.OnPair{{LeftColumn: tc, RightColumn: fc}}, true
		}
	}
	return nil, false
}

func tableNames(js []joinedTable) []string {
	var out []string
	for _, j := range js {
		out = append(out, j.t.Name)
	}
	return out
}
