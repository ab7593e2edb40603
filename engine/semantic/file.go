package semantic

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// File is a semantic file as written, before it is checked against a
// schema snapshot. Every element keeps the line and column it was written
// at, so Check can name them.
type File struct {
	Path          string
	Tables        []Table
	Metrics       []Metric
	Filters       []Filter
	Relationships []Relationship
	Fiscal        Fiscal
}

// Pos is a position in the file (1-based; zero when unknown).
type Pos struct {
	Line, Column int
}

// Table describes one table: Name (optionally schema-qualified by Schema)
// names a table of the snapshot.
type Table struct {
	Pos         Pos      `json:"-"`
	Schema      string   `json:"schema,omitempty"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Synonyms    []string `json:"synonyms,omitempty"`
	Columns     []Column `json:"columns,omitempty"`
}

// Column describes one column of its Table. Values maps stored codes (as
// written, e.g. "4") to their meaning ("shipped").
type Column struct {
	Pos         Pos          `json:"-"`
	Name        string       `json:"name"`
	Description string       `json:"description,omitempty"`
	Synonyms    []string     `json:"synonyms,omitempty"`
	Values      []ValueLabel `json:"values,omitempty"`
}

// ValueLabel is one code → meaning pair, in file order.
type ValueLabel struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// Def is what metrics and filters share: a name plans reference, what it
// means, and an expression in the plan language over Table (columns name
// no table or Table itself), kept as its YAML node until Check.
type Def struct {
	Pos         Pos
	Name        string
	Description string
	Synonyms    []string
	Schema      string
	Table       string
	// JoinTables are further tables the expression reads (columns name
	// them by table name), each joined to Table, or to an earlier one of
	// them, by a foreign key or a declared relationship.
	JoinTables []string
	Expr       *yaml.Node
}

// Metric is a named aggregate. TimeColumn ("Table.Column" or a column of
// Table) is the default date to slice it by and Grain its default grain
// (day, week, month, quarter or year).
type Metric struct {
	Def
	TimeColumn string
	Grain      string
	timePos    Pos
}

// Filter is a named boolean condition over Table ("active customer").
type Filter struct {
	Def
}

// Relationship is a join the database does not declare: From
// ("Table.Column") references To ("Table.Column"). Cardinality is
// many_to_one (the default), one_to_one or one_to_many (From is then the
// "one" side and the pair is stored reversed).
type Relationship struct {
	Pos         Pos
	From, To    string
	Cardinality string
}

// Fiscal is the fiscal calendar: the fiscal year starts on the first day
// of YearStartMonth (1-12; 1, the calendar year, when unset).
type Fiscal struct {
	Pos            Pos
	YearStartMonth int
}

// Problem is one thing wrong in a semantic file.
type Problem struct {
	Pos Pos
	Msg string
}

// Error lists the problems of one file; Error() gives one per line as
// "FILE:LINE:COL: message" ("FILE:LINE: message" when the column is not
// known, as for a YAML syntax error).
type Error struct {
	File     string
	Problems []Problem
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		if p.Pos.Column > 0 {
			lines[i] = fmt.Sprintf("%s:%d:%d: %s", e.File, p.Pos.Line, p.Pos.Column, p.Msg)
		} else { // a YAML syntax error knows its line only
			lines[i] = fmt.Sprintf("%s:%d: %s", e.File, p.Pos.Line, p.Msg)
		}
	}
	return "semantic layer: " + strings.Join(lines, "\n")
}

var nameRe = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Parse reads a semantic file strictly: unknown keys, wrong types and
// malformed YAML are problems with their line. name is how errors name the
// file. Parse checks the file's own rules (names, grains, cardinalities,
// duplicates); Check then checks it against a snapshot.
//
//	tables:
//	  - name: Invoice
//	    description: One sale to one customer
//	    synonyms: [order, sale]
//	    columns:
//	      - {name: BillingCountry, synonyms: [country]}
//	metrics:
//	  - name: revenue
//	    table: InvoiceLine
//	    expr: {kind: func, name: SUM, args: [{kind: binary, op: "*",
//	           left: {kind: column, column: UnitPrice}, right: {kind: column, column: Quantity}}]}
//	    time_column: Invoice.InvoiceDate
//	    grain: month
//	filters:
//	  - {name: usa_customer, table: Customer, expr: {kind: binary, op: "=",
//	     left: {kind: column, column: Country}, right: {kind: literal, value: USA}}}
//	relationships:
//	  - {from: Track.GenreId, to: Genre.GenreId, cardinality: many_to_one}
//	fiscal: {year_start_month: 7}
func Parse(name string, data []byte) (*File, error) {
	p := &parser{f: &File{Path: name}}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, &Error{File: name, Problems: []Problem{{Pos: yamlErrPos(err), Msg: err.Error()}}}
	}
	if len(doc.Content) > 0 {
		p.root(doc.Content[0])
	}
	if len(p.problems) > 0 {
		return nil, &Error{File: name, Problems: p.problems}
	}
	return p.f, nil
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

func yamlErrPos(err error) Pos {
	var n int
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		fmt.Sscan(m[1], &n)
	}
	return Pos{Line: n}
}

type parser struct {
	f        *File
	problems []Problem
}

func pos(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

func (p *parser) addf(n *yaml.Node, format string, args ...any) {
	p.problems = append(p.problems, Problem{Pos: pos(n), Msg: fmt.Sprintf(format, args...)})
}

// fields walks a mapping node, calling set for each known key; unknown
// keys and a non-mapping node are problems.
func (p *parser) fields(n *yaml.Node, what string, set map[string]func(v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.addf(n, "%s must be a mapping", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := set[k.Value]
		switch {
		case !ok:
			keys := make([]string, 0, len(set))
			for key := range set {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			p.addf(k, "%s: unknown key %q (known: %s)", what, k.Value, strings.Join(keys, ", "))
		case seen[k.Value]:
			p.addf(k, "%s: key %q given twice", what, k.Value)
		default:
			seen[k.Value] = true
			f(v)
		}
	}
}

func (p *parser) str(dst *string, what string) func(*yaml.Node) {
	return func(v *yaml.Node) {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			p.addf(v, "%s must be a string", what)
			return
		}
		*dst = v.Value
	}
}

func (p *parser) strs(dst *[]string, what string) func(*yaml.Node) {
	return func(v *yaml.Node) {
		if v.Kind != yaml.SequenceNode {
			p.addf(v, "%s must be a list of strings", what)
			return
		}
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || strings.TrimSpace(e.Value) == "" {
				p.addf(e, "%s: each entry must be a non-empty string", what)
				continue
			}
			*dst = append(*dst, e.Value)
		}
	}
}

func (p *parser) list(v *yaml.Node, what string, each func(*yaml.Node)) {
	if v.Kind != yaml.SequenceNode {
		p.addf(v, "%s must be a list", what)
		return
	}
	for _, e := range v.Content {
		each(e)
	}
}

func (p *parser) root(n *yaml.Node) {
	p.fields(n, "the file", map[string]func(*yaml.Node){
		"tables":        func(v *yaml.Node) { p.list(v, "tables", p.table) },
		"metrics":       func(v *yaml.Node) { p.list(v, "metrics", p.metric) },
		"filters":       func(v *yaml.Node) { p.list(v, "filters", p.filter) },
		"relationships": func(v *yaml.Node) { p.list(v, "relationships", p.relationship) },
		"fiscal":        p.fiscal,
	})
	p.unique()
}

func (p *parser) table(n *yaml.Node) {
	t := Table{Pos: pos(n)}
	p.fields(n, "a table", map[string]func(*yaml.Node){
		"schema":      p.str(&t.Schema, "schema"),
		"name":        p.str(&t.Name, "name"),
		"description": p.str(&t.Description, "description"),
		"synonyms":    p.strs(&t.Synonyms, "synonyms"),
		"columns": func(v *yaml.Node) {
			p.list(v, "columns", func(c *yaml.Node) { t.Columns = append(t.Columns, p.column(c)) })
		},
	})
	if t.Name == "" {
		p.addf(n, "a table needs a name")
	}
	p.f.Tables = append(p.f.Tables, t)
}

func (p *parser) column(n *yaml.Node) Column {
	c := Column{Pos: pos(n)}
	p.fields(n, "a column", map[string]func(*yaml.Node){
		"name":        p.str(&c.Name, "name"),
		"description": p.str(&c.Description, "description"),
		"synonyms":    p.strs(&c.Synonyms, "synonyms"),
		"values": func(v *yaml.Node) {
			if v.Kind != yaml.MappingNode {
				p.addf(v, "values must map stored codes to their meaning")
				return
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, l := v.Content[i], v.Content[i+1]
				if k.Kind != yaml.ScalarNode || l.Kind != yaml.ScalarNode {
					p.addf(k, "values: each entry must be code: meaning (an empty meaning is not yet written)")
					continue
				}
				c.Values = append(c.Values, ValueLabel{Code: k.Value, Label: l.Value})
			}
		},
	})
	if c.Name == "" {
		p.addf(n, "a column needs a name")
	}
	return c
}

// grains are the metric grains, the units planast's DATE_TRUNC takes.
var grains = []string{"day", "week", "month", "quarter", "year"}

func (p *parser) metric(n *yaml.Node) {
	m := Metric{}
	keys := p.defFields(n, &m.Def)
	keys["time_column"] = func(v *yaml.Node) { m.timePos = pos(v); p.str(&m.TimeColumn, "time_column")(v) }
	keys["grain"] = func(v *yaml.Node) {
		p.str(&m.Grain, "grain")(v)
		if m.Grain != "" && !slices.Contains(grains, m.Grain) {
			p.addf(v, "grain %q is not one of %s", m.Grain, strings.Join(grains, ", "))
		}
	}
	p.fields(n, "a metric", keys)
	p.definition(n, "metric", &m.Def)
	p.f.Metrics = append(p.f.Metrics, m)
}

func (p *parser) filter(n *yaml.Node) {
	f := Filter{}
	p.fields(n, "a filter", p.defFields(n, &f.Def))
	p.definition(n, "filter", &f.Def)
	p.f.Filters = append(p.f.Filters, f)
}

// defFields are the keys metrics and filters share.
func (p *parser) defFields(n *yaml.Node, d *Def) map[string]func(*yaml.Node) {
	d.Pos = pos(n)
	return map[string]func(*yaml.Node){
		"name":        p.str(&d.Name, "name"),
		"description": p.str(&d.Description, "description"),
		"synonyms":    p.strs(&d.Synonyms, "synonyms"),
		"schema":      p.str(&d.Schema, "schema"),
		"table":       p.str(&d.Table, "table"),
		"join_tables": p.strs(&d.JoinTables, "join_tables"),
		"expr":        func(v *yaml.Node) { d.Expr = v },
	}
}

func (p *parser) definition(n *yaml.Node, kind string, d *Def) {
	switch {
	case !nameRe.MatchString(d.Name):
		p.addf(n, "%s name %q must match %s (plans reference it by this name)", kind, d.Name, nameRe)
	case d.Table == "":
		p.addf(n, "%s %q needs the table it reads", kind, d.Name)
	case d.Expr == nil:
		p.addf(n, "%s %q needs an expr (an expression of the plan language)", kind, d.Name)
	}
}

var cardinalities = []string{"many_to_one", "one_to_one", "one_to_many"}

func (p *parser) relationship(n *yaml.Node) {
	r := Relationship{Pos: pos(n), Cardinality: "many_to_one"}
	p.fields(n, "a relationship", map[string]func(*yaml.Node){
		"from":        p.str(&r.From, "from"),
		"to":          p.str(&r.To, "to"),
		"cardinality": p.str(&r.Cardinality, "cardinality"),
	})
	if !slices.Contains(cardinalities, r.Cardinality) {
		p.addf(n, "cardinality %q is not one of %s (a many_to_many relationship goes through its bridge table: declare both halves)", r.Cardinality, strings.Join(cardinalities, ", "))
	}
	if r.From == "" || r.To == "" {
		p.addf(n, "a relationship needs from and to (Table.Column)")
	}
	p.f.Relationships = append(p.f.Relationships, r)
}

func (p *parser) fiscal(n *yaml.Node) {
	p.f.Fiscal.Pos = pos(n)
	p.fields(n, "fiscal", map[string]func(*yaml.Node){
		"year_start_month": func(v *yaml.Node) {
			if err := v.Decode(&p.f.Fiscal.YearStartMonth); err != nil || p.f.Fiscal.YearStartMonth < 1 || p.f.Fiscal.YearStartMonth > 12 {
				p.addf(v, "year_start_month must be a month number, 1-12")
			}
		},
	})
}

// unique refuses two metrics or two filters of one name, and a table
// described twice.
func (p *parser) unique() {
	seen := map[string]bool{}
	for _, m := range p.f.Metrics {
		if m.Name != "" && seen["metric "+m.Name] {
			p.problems = append(p.problems, Problem{m.Pos, fmt.Sprintf("metric %q is defined twice", m.Name)})
		}
		seen["metric "+m.Name] = true
	}
	for _, f := range p.f.Filters {
		if f.Name != "" && seen["filter "+f.Name] {
			p.problems = append(p.problems, Problem{f.Pos, fmt.Sprintf("filter %q is defined twice", f.Name)})
		}
		seen["filter "+f.Name] = true
	}
	for _, t := range p.f.Tables {
		k := "table " + strings.ToLower(t.Schema+"."+t.Name)
		if t.Name != "" && seen[k] {
			p.problems = append(p.problems, Problem{t.Pos, fmt.Sprintf("table %q is described twice", t.Name)})
		}
		seen[k] = true
	}
}
