package planast

import (
	"strconv"
)

// MarshalJSON writes q in one pass over the tree, into one buffer, the
// bytes encoding/json writes for the struct (its field tags, and each
// expression node's MarshalJSON): encoding/json compacts the output of
// every MarshalJSON it calls again inside each enclosing one, so a plan
// nested n levels deep was scanned n times over. The encoding tests
// compare the two on every plan they have.
func (q *Query) MarshalJSON() ([]byte, error) {
	return appendQuery(make([]byte, 0, 512), q)
}

// plainQuery is Query without its MarshalJSON: what encoding/json makes of
// the struct and its nodes' methods (the reference the tests compare with).
type plainQuery Query

// appendQuery appends q's encoding (null for a nil q).
func appendQuery(b []byte, q *Query) ([]byte, error) {
	if q == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '{')
	first := true
	// field writes the key of the next field; add writes a field that
	// stands (err set on failure)
	field := func(name string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
	}
	add := func(name string, write func([]byte) ([]byte, error)) {
		if err != nil {
			return
		}
		field(name)
		b, err = write(b)
	}
	if len(q.With) > 0 {
		add("with", func(b []byte) ([]byte, error) { return appendList(b, q.With, appendCTE) })
	}
	if q.Distinct {
		add("distinct", appendTrue)
	}
	add("select", func(b []byte) ([]byte, error) { return appendList(b, q.Select, appendSelectItem) })
	add("from", func(b []byte) ([]byte, error) { return appendList(b, q.From, appendFrom) })
	if len(q.Joins) > 0 {
		add("joins", func(b []byte) ([]byte, error) { return appendList(b, q.Joins, appendJoin) })
	}
	if q.Where != nil {
		add("where", func(b []byte) ([]byte, error) { return appendExpr(b, q.Where) })
	}
	if len(q.GroupBy) > 0 {
		add("group_by", func(b []byte) ([]byte, error) { return appendList(b, q.GroupBy, appendExpr) })
	}
	if q.Having != nil {
		add("having", func(b []byte) ([]byte, error) { return appendExpr(b, q.Having) })
	}
	if q.Qualify != nil {
		add("qualify", func(b []byte) ([]byte, error) { return appendExpr(b, q.Qualify) })
	}
	if len(q.SetOps) > 0 {
		add("set_ops", func(b []byte) ([]byte, error) { return appendList(b, q.SetOps, appendSetOp) })
	}
	if len(q.OrderBy) > 0 {
		add("order_by", func(b []byte) ([]byte, error) { return appendList(b, q.OrderBy, appendOrderItem) })
	}
	if q.Limit != nil {
		add("limit", func(b []byte) ([]byte, error) { return strconv.AppendInt(b, *q.Limit, 10), nil })
	}
	if q.WithTies {
		add("with_ties", appendTrue)
	}
	if q.Offset != nil {
		add("offset", func(b []byte) ([]byte, error) { return strconv.AppendInt(b, *q.Offset, 10), nil })
	}
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func appendTrue(b []byte) ([]byte, error) { return append(b, "true"...), nil }

// appendList appends xs as a JSON array, each element by each (null for
// a nil list, as encoding/json writes one).
func appendList[T any](b []byte, xs []T, each func([]byte, T) ([]byte, error)) ([]byte, error) {
	if xs == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = each(b, x); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

func appendCTE(b []byte, c CTE) ([]byte, error) { return appendNamedQuery(b, "name", c.Name, c.Query) }

func appendSetOp(b []byte, s SetOp) ([]byte, error) {
	return appendNamedQuery(b, "op", string(s.Op), s.Query)
}

// appendNamedQuery appends {"key": name, "query": q} (a CTE, a set op).
func appendNamedQuery(b []byte, key, name string, q *Query) ([]byte, error) {
	b = append(b, `{"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	b = appendString(b, name)
	b = append(b, `,"query":`...)
	b, err := appendQuery(b, q)
	return append(b, '}'), err
}

func appendSelectItem(b []byte, it SelectItem) ([]byte, error) {
	b = append(b, `{"expr":`...)
	b, err := appendExpr(b, it.Expr)
	if it.Alias != "" { // none yet (a plan not validated): Decode refuses an empty one
		b = append(b, `,"alias":`...)
		b = appendString(b, it.Alias)
	}
	return append(b, '}'), err
}

func appendFrom(b []byte, f From) ([]byte, error) {
	b = append(b, '{')
	if f.Schema != "" {
		b = append(b, `"schema":`...)
		b = appendString(b, f.Schema)
		b = append(b, ',')
	}
	if f.Table != "" {
		b = append(b, `"table":`...)
		b = appendString(b, f.Table)
		b = append(b, ',')
	}
	var err error
	if f.Subquery != nil {
		b = append(b, `"subquery":`...)
		b, err = appendQuery(b, f.Subquery)
		b = append(b, ',')
	}
	b = append(b, `"alias":`...)
	b = appendString(b, f.Alias)
	return append(b, '}'), err
}

func appendJoin(b []byte, j Join) ([]byte, error) {
	b = append(b, `{"type":`...)
	b = appendString(b, string(j.Type))
	b = append(b, `,"left":`...)
	b = appendString(b, j.Left)
	b = append(b, `,"right":`...)
	b = appendString(b, j.Right)
	b = append(b, `,"on":`...)
	b, _ = appendList(b, j.On, func(b []byte, p OnPair) ([]byte, error) {
		b = append(b, `{"left_column":`...)
		b = appendString(b, p.LeftColumn)
		b = append(b, `,"right_column":`...)
		b = appendString(b, p.RightColumn)
		return append(b, '}'), nil
	})
	var err error
	if j.Condition != nil {
		b = append(b, `,"condition":`...)
		b, err = appendExpr(b, j.Condition)
	}
	return append(b, '}'), err
}

func appendOrderItem(b []byte, o OrderItem) ([]byte, error) {
	b = append(b, `{"expr":`...)
	b, err := appendExpr(b, o.Expr)
	if o.Direction != "" {
		b = append(b, `,"direction":`...)
		b = appendString(b, string(o.Direction))
	}
	if o.Nulls != "" {
		b = append(b, `,"nulls":`...)
		b = appendString(b, string(o.Nulls))
	}
	return append(b, '}'), err
}

// appendExpr appends an expression node as its MarshalJSON writes it: the
// common nodes directly, any other (and a nil one) through encoding/json,
// whose output is compact and escaped.
func appendExpr(b []byte, x Expr) ([]byte, error) {
	switch n := x.(type) {
	case *Column:
		if n != nil {
			return appendColumn(b, n), nil
		}
	case *Literal:
		if n != nil {
			lit, err := n.MarshalJSON() // compact and escaped already
			return append(b, lit...), err
		}
	case *Binary:
		if n != nil {
			return appendBinary(b, n)
		}
	case *Func:
		if n != nil {
			return appendFunc(b, n)
		}
	case *Cast:
		if n != nil {
			b = append(b, `{"kind":"cast","expr":`...)
			b, err := appendExpr(b, n.Expr)
			b = append(b, `,"type":`...)
			b = appendString(b, string(n.Type))
			return append(b, '}'), err
		}
	}
	out, err := JSON(x)
	return append(b, out...), err
}

func appendColumn(b []byte, n *Column) []byte {
	b = append(b, `{"kind":"column",`...)
	if n.Table != "" {
		b = append(b, `"table":`...)
		b = appendString(b, n.Table)
		b = append(b, ',')
	}
	b = append(b, `"column":`...)
	b = appendString(b, n.Column)
	return append(b, '}')
}

func appendBinary(b []byte, n *Binary) ([]byte, error) {
	b = append(b, `{"kind":"binary","op":`...)
	b = appendString(b, n.Op)
	b = append(b, `,"left":`...)
	b, err := appendExpr(b, n.Left)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"right":`...)
	if b, err = appendExpr(b, n.Right); err != nil {
		return nil, err
	}
	if n.Temporal != "" {
		b = append(b, `,"temporal":`...)
		b = appendString(b, string(n.Temporal))
	}
	return append(b, '}'), nil
}

func appendFunc(b []byte, n *Func) ([]byte, error) {
	b = append(b, `{"kind":"func","name":`...)
	b = appendString(b, n.Name)
	b = append(b, `,"args":`...)
	args := n.Args
	if args == nil {
		args = []Expr{}
	}
	b, err := appendList(b, args, appendExpr)
	if err != nil {
		return nil, err
	}
	if n.Distinct {
		b = append(b, `,"distinct":true`...)
	}
	return append(b, '}'), nil
}

// appendString appends s as encoding/json writes a string: directly when
// every byte is printable ASCII that needs no escape, else through
// encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			out, _ := JSON(s)
			return append(b, out...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
