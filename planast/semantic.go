package planast

import (
	"encoding/json"
	"fmt"
	"strings"
)

// MetricRef names a metric of the datasource's semantic layer (package
// engine/semantic) instead of spelling out its expression:
//
//	{"kind": "metric", "name": "revenue", "table": "il"}
//
// Table is the alias of the source that reads the metric's table; it may
// be omitted when exactly one source of the query reads that table. Expand
// replaces the node with the metric's definition before Validate, which
// refuses any MetricRef left in a plan.
type MetricRef struct {
	Name  string `json:"name" jsonschema:"description=A metric name from the schema context's metric lines"`
	Table string `json:"table,omitempty" jsonschema:"description=Alias of the source reading the metric's table; omit when only one source reads it"`
}

// FilterRef names a named filter (a boolean condition) of the semantic
// layer, with the same rules as MetricRef:
//
//	{"kind": "filter", "name": "active_customer", "table": "c"}
type FilterRef struct {
	Name  string `json:"name" jsonschema:"description=A filter name from the schema context's filter lines"`
	Table string `json:"table,omitempty" jsonschema:"description=Alias of the source reading the filter's table; omit when only one source reads it"`
}

func (*MetricRef) exprNode() {}
func (*FilterRef) exprNode() {}

// Kind implementations.
func (*MetricRef) Kind() string { return "metric" }
func (*FilterRef) Kind() string { return "filter" }

func (n *MetricRef) MarshalJSON() ([]byte, error) { return marshalRef("metric", n.Name, n.Table) }
func (n *FilterRef) MarshalJSON() ([]byte, error) { return marshalRef("filter", n.Name, n.Table) }

func marshalRef(kind, name, table string) ([]byte, error) {
	return json.Marshal(struct {
		Kind  string `json:"kind"`
		Name  string `json:"name"`
		Table string `json:"table,omitempty"`
	}{kind, name, table})
}

// DecodeExpr parses one expression document with the rules and limits of
// Decode (zero fields of lim take DefaultLimits). Errors are *Error; their
// paths are relative to the expression ("args[0].column").
func DecodeExpr(data []byte, lim Limits) (Expr, error) {
	v, d, err := parseDoc(data, lim, "expression")
	if err != nil {
		return nil, err
	}
	return d.expr(v, "", 0)
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultLimits.MaxNodes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	return l
}

// Definition is what Expand needs of one metric or named filter: the table
// it reads (Schema may be empty), any further tables it reads (Joins: a
// metric such as revenue minus refunds spans two), and its expression,
// whose columns name no table (Table's), Table itself, or one of Joins by
// table name.
type Definition struct {
	Schema, Table string
	Joins         []TableRef
	Expr          Expr
}

// TableRef names a stored table (Schema may be empty).
type TableRef struct {
	Schema, Table string
}

// Definitions is the semantic layer as Expand sees it. It is implemented
// by engine/semantic.Layer. Lookups are by exact name.
type Definitions interface {
	Metric(name string) (Definition, bool)
	Filter(name string) (Definition, bool)
}

// Used is one definition a plan referenced: Kind is "metric" or "filter".
type Used struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Expand returns a copy of q in which every MetricRef and FilterRef is
// replaced by its definition, with the definition's columns qualified by
// the alias of the source that reads its table, and the definitions used
// (in order of first use, each once). q itself is not changed. A plan
// without references comes back as the same pointer with no Used.
//
// Errors are *Error: INVALID_VALUE for a name defs does not define (or any
// reference when defs is nil), ALIAS_NOT_FOUND when Table names no source
// reading the definition's table or none (or several) can be inferred.
// The same definition expands to the same expression every time, so two
// plans that use one metric through the same alias render one SQL
// fragment.
func Expand(q *Query, defs Definitions) (*Query, []Used, error) {
	has := false
	Inspect(q, func(n Node) bool {
		switch n.(type) {
		case *MetricRef, *FilterRef:
			has = true
		}
		return !has
	})
	if !has {
		return q, nil, nil
	}
	raw, err := json.Marshal(q)
	if err != nil {
		return nil, nil, fmt.Errorf("planast: expand: encode: %w", err)
	}
	cp, err := Decode(raw, Limits{MaxBytes: len(raw) + 1, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		return nil, nil, fmt.Errorf("planast: expand: decode copy: %w", err)
	}
	x := &expander{defs: defs, seen: map[Used]bool{}}
	x.query(cp, "")
	if len(x.issues) > 0 {
		return nil, nil, &Error{Issues: x.issues}
	}
	return cp, x.used, nil
}

type expander struct {
	defs   Definitions
	used   []Used
	seen   map[Used]bool
	issues []Issue
}

// query expands the references of one query; sources are the query's own
// From list (references resolve against the query they appear in).
func (x *expander) query(q *Query, path string) {
	if q == nil {
		return
	}
	for i := range q.With {
		x.query(q.With[i].Query, fmt.Sprintf("%s[%d].query", JoinPath(path, "with"), i))
	}
	for i := range q.Select {
		x.expr(&q.Select[i].Expr, fmt.Sprintf("%s[%d].expr", JoinPath(path, "select"), i), q)
	}
	for i := range q.From {
		x.query(q.From[i].Subquery, fmt.Sprintf("%s[%d].subquery", JoinPath(path, "from"), i))
	}
	for i := range q.Joins {
		x.expr(&q.Joins[i].Condition, fmt.Sprintf("%s[%d].condition", JoinPath(path, "joins"), i), q)
	}
	x.expr(&q.Where, JoinPath(path, "where"), q)
	for i := range q.GroupBy {
		x.expr(&q.GroupBy[i], fmt.Sprintf("%s[%d]", JoinPath(path, "group_by"), i), q)
	}
	x.expr(&q.Having, JoinPath(path, "having"), q)
	for i := range q.SetOps {
		x.query(q.SetOps[i].Query, fmt.Sprintf("%s[%d].query", JoinPath(path, "set_ops"), i))
	}
	for i := range q.OrderBy {
		x.expr(&q.OrderBy[i].Expr, fmt.Sprintf("%s[%d].expr", JoinPath(path, "order_by"), i), q)
	}
}

// expr replaces *p when it is a reference, else descends into it.
func (x *expander) expr(p *Expr, path string, q *Query) {
	switch e := (*p).(type) {
	case nil:
	case *MetricRef:
		*p = x.resolve("metric", e.Name, e.Table, path, q)
	case *FilterRef:
		*p = x.resolve("filter", e.Name, e.Table, path, q)
	case *Column, *Literal:
	case *Binary:
		x.expr(&e.Left, JoinPath(path, "left"), q)
		x.expr(&e.Right, JoinPath(path, "right"), q)
	case *Unary:
		x.expr(&e.Expr, JoinPath(path, "expr"), q)
	case *In:
		x.expr(&e.Expr, JoinPath(path, "expr"), q)
		for i := range e.List {
			x.expr(&e.List[i], IndexPath(JoinPath(path, "list"), i), q)
		}
		x.query(e.Subquery, JoinPath(path, "subquery"))
	case *Exists:
		x.query(e.Subquery, JoinPath(path, "subquery"))
	case *Subquery:
		x.query(e.Query, JoinPath(path, "query"))
	case *Between:
		x.expr(&e.Expr, JoinPath(path, "expr"), q)
		x.expr(&e.Low, JoinPath(path, "low"), q)
		x.expr(&e.High, JoinPath(path, "high"), q)
	case *Like:
		x.expr(&e.Expr, JoinPath(path, "expr"), q)
		x.expr(&e.Pattern, JoinPath(path, "pattern"), q)
	case *IsNull:
		x.expr(&e.Expr, JoinPath(path, "expr"), q)
	case *Case:
		x.expr(&e.Operand, JoinPath(path, "operand"), q)
		for i := range e.Whens {
			x.expr(&e.Whens[i].When, IndexPath(JoinPath(path, "whens"), i)+".when", q)
			x.expr(&e.Whens[i].Then, IndexPath(JoinPath(path, "whens"), i)+".then", q)
		}
		x.expr(&e.Else, JoinPath(path, "else"), q)
	case *Cast:
		x.expr(&e.Expr, JoinPath(path, "expr"), q)
	case *Func:
		for i := range e.Args {
			x.expr(&e.Args[i], IndexPath(JoinPath(path, "args"), i), q)
		}
	case *Window:
		for i := range e.Args {
			x.expr(&e.Args[i], IndexPath(JoinPath(path, "args"), i), q)
		}
		for i := range e.PartitionBy {
			x.expr(&e.PartitionBy[i], IndexPath(JoinPath(path, "partition_by"), i), q)
		}
		for i := range e.OrderBy {
			x.expr(&e.OrderBy[i].Expr, IndexPath(JoinPath(path, "order_by"), i)+".expr", q)
		}
	}
}

func (x *expander) resolve(kind, name, alias, path string, q *Query) Expr {
	var def Definition
	ok := false
	if x.defs != nil {
		if kind == "metric" {
			def, ok = x.defs.Metric(name)
		} else {
			def, ok = x.defs.Filter(name)
		}
	}
	if !ok {
		msg := fmt.Sprintf("there is no %s %q", kind, name)
		if x.defs == nil {
			msg += "; this datasource has no semantic layer, so write the expression out"
		} else {
			msg += "; use a name from the schema context's " + kind + " lines"
		}
		x.issues = append(x.issues, Issue{Code: CodeBadValue, Path: JoinPath(path, "name"), Message: msg})
		return &MetricRef{Name: name, Table: alias}
	}
	src, msg := sourceFor(q, def.Schema, def.Table, alias)
	if msg != "" {
		x.issues = append(x.issues, Issue{Code: CodeAliasNotFound, Path: JoinPath(path, "table"),
			Message: fmt.Sprintf("%s %q reads table %q: %s", kind, name, def.Table, msg)})
		return &MetricRef{Name: name, Table: alias}
	}
	aliases := map[string]string{strings.ToLower(def.Table): src}
	for _, j := range def.Joins {
		a, msg := sourceFor(q, j.Schema, j.Table, "")
		if msg != "" {
			x.issues = append(x.issues, Issue{Code: CodeAliasNotFound, Path: path,
				Message: fmt.Sprintf("%s %q also reads table %q: %s (joined to %q)", kind, name, j.Table, msg, def.Table)})
			return &MetricRef{Name: name, Table: alias}
		}
		aliases[strings.ToLower(j.Table)] = a
	}
	u := Used{Kind: kind, Name: name}
	if !x.seen[u] {
		x.seen[u] = true
		x.used = append(x.used, u)
	}
	return qualify(def, aliases)
}

// sourceFor finds the alias of q's source that reads table: alias itself
// when given (it must read that table), else the only such source.
func sourceFor(q *Query, schema, table, alias string) (string, string) {
	var hits []string
	for _, f := range q.From {
		if f.Subquery != nil || !strings.EqualFold(f.Table, table) ||
			(schema != "" && f.Schema != "" && !strings.EqualFold(f.Schema, schema)) {
			continue
		}
		if alias != "" && f.Alias == alias {
			return alias, ""
		}
		hits = append(hits, f.Alias)
	}
	switch {
	case alias != "":
		return "", fmt.Sprintf("alias %q does not read it; add that table to from and name its alias", alias)
	case len(hits) == 1:
		return hits[0], ""
	case len(hits) == 0:
		return "", "no source of this query reads it; add it to from"
	}
	return "", fmt.Sprintf("several sources read it (%s); name one in table", strings.Join(hits, ", "))
}

// qualify copies def.Expr (through its canonical JSON) with every column
// qualified by the alias of the table it names (aliases, keyed by lower-
// case table name; a column that names no table is def.Table's).
func qualify(def Definition, aliases map[string]string) Expr {
	raw, _ := json.Marshal(def.Expr)
	e, err := DecodeExpr(raw, Limits{MaxBytes: len(raw) + 1, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		panic("planast: a definition's canonical JSON does not decode: " + err.Error()) // MarshalJSON and decode are inverses
	}
	Inspect(e, func(n Node) bool {
		if _, ok := n.(*Query); ok {
			return false // a subquery's columns belong to its own sources
		}
		if c, ok := n.(*Column); ok {
			t := c.Table
			if t == "" {
				t = def.Table
			}
			if a, ok := aliases[strings.ToLower(t)]; ok {
				c.Table = a
			}
		}
		return true
	})
	return e
}
