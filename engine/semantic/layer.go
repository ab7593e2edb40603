package semantic

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Layer is a semantic file checked against a snapshot: names spelled as
// the snapshot spells them, expressions validated and canonical. It
// implements planast.Definitions. A Layer is read-only after Check and
// safe for concurrent use.
type Layer struct {
	File          string
	Tables        []Table
	Metrics       []Definition
	Filters       []Definition
	Relationships []Relationship
	Fiscal        Fiscal

	raw     []byte
	metrics map[string]*Definition
	filters map[string]*Definition
	base    *schema.Snapshot // the snapshot Apply first enriched (see Describe)
}

// Definition is one checked metric or filter. Expr is the validated
// expression whose columns are qualified by Table (the plan language's
// canonical JSON, see planast's encoding). TimeColumn ("Table.Column")
// and Grain are set for metrics that declare them.
type Definition struct {
	Kind        string       `json:"kind"` // "metric" or "filter"
	Name        string       `json:"name"`
	Description string       `json:"description,omitempty"`
	Synonyms    []string     `json:"synonyms,omitempty"`
	Schema      string       `json:"schema,omitempty"`
	Table       string       `json:"table"`
	JoinTables  []string     `json:"join_tables,omitempty"` // further tables the expression reads (same schema as Table)
	Expr        planast.Expr `json:"expr"`
	TimeColumn  string       `json:"time_column,omitempty"`
	Grain       string       `json:"grain,omitempty"`
}

var _ planast.Definitions = (*Layer)(nil)

func (l *Layer) index() {
	l.metrics, l.filters = map[string]*Definition{}, map[string]*Definition{}
	for i := range l.Metrics {
		l.metrics[l.Metrics[i].Name] = &l.Metrics[i]
	}
	for i := range l.Filters {
		l.filters[l.Filters[i].Name] = &l.Filters[i]
	}
}

// Metric implements planast.Definitions.
func (l *Layer) Metric(name string) (planast.Definition, bool) { return lookup(l.metrics, name) }

// Filter implements planast.Definitions.
func (l *Layer) Filter(name string) (planast.Definition, bool) { return lookup(l.filters, name) }

func lookup(m map[string]*Definition, name string) (planast.Definition, bool) {
	d, ok := m[name]
	if !ok {
		return planast.Definition{}, false
	}
	def := planast.Definition{Schema: d.Schema, Table: d.Table, Expr: d.Expr}
	for _, j := range d.JoinTables {
		def.Joins = append(def.Joins, planast.TableRef{Schema: d.Schema, Table: j})
	}
	return def, true
}

// Describe returns visible (a caller's filtered copy of the snapshot Apply
// enriched) with its tables' and columns' comments annotated again from
// only what allow lets the caller see of the layer: a metric or filter
// over a column the caller may not read is not named in a table's
// comment. Without a base (Apply not called) it returns visible.
func (l *Layer) Describe(visible *schema.Snapshot, allow Allow) *schema.Snapshot {
	if l.base == nil || visible == nil {
		return visible
	}
	annotated := l.Visible(allow).Apply(withoutWithheldNotes(l.base, visible))
	out := *visible
	out.Tables = make([]schema.Table, len(visible.Tables))
	for i, t := range visible.Tables {
		if at, ok := annotated.Lookup(t.Schema, t.Name); ok {
			t.Comment = at.Comment
			cols := make([]schema.Column, len(t.Columns))
			for j, c := range t.Columns {
				if ac, ok := at.Column(c.Name); ok {
					c.Comment = ac.Comment
				}
				cols[j] = c
			}
			t.Columns = cols
		}
		out.Tables[i] = t
	}
	return &out
}

// withoutWithheldNotes is base without the notes of documentation tables
// (CommentFrom) that the caller's copy visible lost (scope.FilterSnapshot):
// annotated again from base, they would come back.
func withoutWithheldNotes(base, visible *schema.Snapshot) *schema.Snapshot {
	out := base
	if len(base.Dictionaries) == 0 {
		return base
	}
	for ti, bt := range base.Tables {
		vt, ok := visible.Lookup(bt.Schema, bt.Name)
		if !ok {
			continue
		}
		if bt.CommentFrom != nil && vt.CommentFrom == nil {
			out = clonedTables(base, out)
			out.Tables[ti].Comment, out.Tables[ti].CommentFrom = "", nil
		}
		for ci, bc := range bt.Columns {
			if vc, ok := vt.Column(bc.Name); ok && bc.CommentFrom != nil && vc.CommentFrom == nil {
				out = clonedTables(base, out)
				out.Tables[ti].Columns[ci].Comment, out.Tables[ti].Columns[ci].CommentFrom = "", nil
			}
		}
	}
	return out
}

// clonedTables is out when it is already a copy of base, else a copy of
// base whose tables and columns may be changed.
func clonedTables(base, out *schema.Snapshot) *schema.Snapshot {
	if out != base {
		return out
	}
	c := *base
	c.Tables = slices.Clone(base.Tables)
	for i := range c.Tables {
		c.Tables[i].Columns = slices.Clone(c.Tables[i].Columns)
	}
	return &c
}

// Raw is the file's bytes as loaded (what the MCP resource serves).
func (l *Layer) Raw() []byte { return l.raw }

// Find returns the metric or filter (kind "metric" or "filter") called name.
func (l *Layer) Find(kind, name string) (*Definition, bool) {
	m := l.metrics
	if kind == "filter" {
		m = l.filters
	}
	d, ok := m[name]
	return d, ok
}

// Apply returns a copy of snap enriched for retrieval and display: each
// described table's and column's Comment gets its description, synonyms
// and value labels appended ("…. Also called: order, sale. Values: 1 =
// MPEG audio"), each table's Comment names the metrics and filters that
// read it, and relationships become foreign keys (unless declared). snap
// itself is not changed.
func (l *Layer) Apply(snap *schema.Snapshot) *schema.Snapshot {
	if l.base == nil {
		l.base = snap // what Describe annotates again for one caller
	}
	out := *snap
	out.Tables = make([]schema.Table, len(snap.Tables))
	for i, t := range snap.Tables {
		t.Columns = slices.Clone(t.Columns)
		t.ForeignKeys = slices.Clone(t.ForeignKeys)
		out.Tables[i] = t
	}
	for _, d := range l.Tables {
		t, ok := out.Lookup(d.Schema, d.Name)
		if !ok {
			continue
		}
		t.Comment = joinText(t.Comment, d.Description, also(d.Synonyms))
		for _, dc := range d.Columns {
			c, ok := t.Column(dc.Name)
			if !ok {
				continue
			}
			c.Comment = joinText(c.Comment, dc.Description, also(dc.Synonyms), labels(dc.Values))
		}
	}
	for _, defs := range [][]Definition{l.Metrics, l.Filters} {
		for _, d := range defs {
			if t, ok := out.Lookup(d.Schema, d.Table); ok {
				label := d.Kind + " " + strings.ReplaceAll(d.Name, "_", " ")
				if d.Description != "" {
					label += ": " + d.Description
				}
				t.Comment = joinText(t.Comment, label, also(d.Synonyms))
			}
		}
	}
	for _, r := range l.Relationships {
		ft, fc, _ := strings.Cut(r.From, ".")
		tt, tc, _ := strings.Cut(r.To, ".")
		t, ok := out.Lookup("", ft)
		ref, ok2 := out.Lookup("", tt)
		if !ok || !ok2 {
			continue
		}
		fk := schema.ForeignKey{Columns: []string{fc}, RefSchema: ref.Schema, RefTable: ref.Name, RefColumns: []string{tc}}
		if !slices.ContainsFunc(t.ForeignKeys, func(x schema.ForeignKey) bool {
			return slices.Equal(x.Columns, fk.Columns) && x.RefTable == fk.RefTable && slices.Equal(x.RefColumns, fk.RefColumns)
		}) {
			t.ForeignKeys = append(t.ForeignKeys, fk)
		}
	}
	return &out
}

func also(syn []string) string {
	if len(syn) == 0 {
		return ""
	}
	return "Also called: " + strings.Join(syn, ", ")
}

func labels(vs []ValueLabel) string {
	if len(vs) == 0 {
		return ""
	}
	var parts []string
	for _, v := range vs {
		if v.Label != "" {
			parts = append(parts, v.Code+" = "+v.Label)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Values: " + strings.Join(parts, "; ")
}

func joinText(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, strings.TrimSuffix(p, "."))
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return strings.Join(keep, ". ") + "."
}

// Context renders what concerns sel's tables and columns (sel is the
// retrieved part of the snapshot; nil means everything) for the planner's
// schema context: one compact JSON object per line, after a line saying
// how to reference metrics and filters,
//
//	{"semantic":"reference a metric as {\"kind\":\"metric\",\"name\":NAME,\"table\":ALIAS} …"}
//	{"describe":"Invoice","description":"One sale","synonyms":["order"],"columns":[{"name":"Total",…}]}
//	{"metric":"revenue","table":"InvoiceLine","description":"…","time_column":"Invoice.InvoiceDate","grain":"month"}
//	{"filter":"usa_customer","table":"Customer","description":"…"}
//	{"fiscal_year_start_month":7,"how":"a fiscal year is named by the calendar year it ends in; …"}
//
// in file order, so the same layer and selection render the same bytes.
// A description that only repeats its name ("airline id" for airline_id)
// is left out. It returns "" when nothing concerns sel.
func (l *Layer) Context(sel *schema.Snapshot) string {
	in := func(name string) bool {
		if sel == nil {
			return true
		}
		_, ok := sel.Lookup("", name)
		return ok
	}
	hasCol := func(table, col string) bool {
		if sel == nil {
			return true
		}
		t, ok := sel.Lookup("", table)
		if !ok {
			return false
		}
		_, ok = t.Column(col)
		return ok
	}
	type colCtx struct {
		Name        string            `json:"name"`
		Description string            `json:"description,omitempty"`
		Synonyms    []string          `json:"synonyms,omitempty"`
		Values      map[string]string `json:"values,omitempty"`
	}
	type tableCtx struct {
		Describe    string   `json:"describe"`
		Description string   `json:"description,omitempty"`
		Synonyms    []string `json:"synonyms,omitempty"`
		Columns     []colCtx `json:"columns,omitempty"`
	}
	type defCtx struct {
		Metric      string   `json:"metric,omitempty"`
		Filter      string   `json:"filter,omitempty"`
		Table       string   `json:"table"`
		JoinTables  []string `json:"join_tables,omitempty"`
		Description string   `json:"description,omitempty"`
		Synonyms    []string `json:"synonyms,omitempty"`
		TimeColumn  string   `json:"time_column,omitempty"`
		Grain       string   `json:"grain,omitempty"`
	}
	var lines []any
	for _, t := range l.Tables {
		if !in(t.Name) {
			continue
		}
		tc := tableCtx{Describe: t.Name, Description: news(t.Name, t.Description), Synonyms: t.Synonyms}
		for _, c := range t.Columns {
			cc := colCtx{Name: c.Name, Description: news(c.Name, c.Description), Synonyms: c.Synonyms}
			if !hasCol(t.Name, c.Name) {
				continue
			}
			for _, v := range c.Values {
				if v.Label == "" {
					continue
				}
				if cc.Values == nil {
					cc.Values = map[string]string{}
				}
				cc.Values[v.Code] = v.Label
			}
			if cc.Description != "" || len(cc.Synonyms) > 0 || len(cc.Values) > 0 {
				tc.Columns = append(tc.Columns, cc)
			}
		}
		if tc.Description == "" && len(tc.Synonyms) == 0 && len(tc.Columns) == 0 {
			continue
		}
		lines = append(lines, tc)
	}
	defs := 0
	for _, d := range slices.Concat(l.Metrics, l.Filters) {
		if !in(d.Table) {
			continue
		}
		dc := defCtx{Table: d.Table, JoinTables: d.JoinTables, Description: d.Description, Synonyms: d.Synonyms, TimeColumn: d.TimeColumn, Grain: d.Grain}
		if d.Kind == "metric" {
			dc.Metric = d.Name
		} else {
			dc.Filter = d.Name
		}
		lines = append(lines, dc)
		defs++
	}
	if m := l.Fiscal.YearStartMonth; m > 1 {
		lines = append(lines, fiscalLine{StartMonth: m, How: FiscalHowTo(m)})
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	if defs > 0 {
		b.WriteString(`{"semantic":"reference a metric as {\"kind\":\"metric\",\"name\":NAME,\"table\":ALIAS} and a filter as {\"kind\":\"filter\",\"name\":NAME,\"table\":ALIAS}, ALIAS being the from alias of its table; they expand to their definitions"}` + "\n")
	}
	for _, x := range lines {
		line, _ := json.Marshal(x)
		b.Write(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// news is description unless it only repeats name's words.
func news(name, description string) string {
	if strings.EqualFold(lex.SplitName(name), lex.SplitName(description)) {
		return ""
	}
	return description
}

// fiscalLine is the schema context's fiscal calendar line.
type fiscalLine struct {
	StartMonth int    `json:"fiscal_year_start_month"`
	How        string `json:"how"`
}

// FiscalHowTo tells the planner how to write fiscal periods for a year
// starting in month m (2-12) with the plan language's date functions: a
// fiscal year is named by the calendar year it ends in (start month 7:
// July 2024 – June 2025 is fiscal 2025), so shifting a date forward by
// 13−m months puts it in its fiscal year's calendar year and quarter.
func FiscalHowTo(m int) string {
	shift := 13 - m
	return fmt.Sprintf("a fiscal year is named by the calendar year it ends in; fiscal year of a date d: "+
		"DATE_PART('year', DATE_ADD('month', %d, d)); fiscal quarter: DATE_PART('quarter', DATE_ADD('month', %d, d))", shift, shift)
}
