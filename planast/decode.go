package planast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Limits bound what Decode accepts. They are checked before any other work:
// the byte size first, then node count and nesting depth while building.
type Limits struct {
	MaxBytes int // size of the JSON document in bytes
	MaxNodes int // queries + sources + expressions
	MaxDepth int // nesting of queries and expressions
}

// DefaultLimits are generous for hand-written and model-written plans
// (the largest Spider/BIRD gold query lifts to well under 300 nodes).
var DefaultLimits = Limits{MaxBytes: 256 << 10, MaxNodes: 4000, MaxDepth: 64}

// MaxSelectItems bounds one query's select list. Every engine has its own
// ceiling (PostgreSQL 1,664 target-list entries, SQLite 2,000 result
// columns), met only at run time and phrased as the engine's error; a
// bound below all of them lets check_plan refuse what run_plan would.
const MaxSelectItems = 1000

// MaxSources bounds one query's from list: SQLite joins at most 64 tables
// ("at most 64 tables in a join", met only when it runs), so a bound on
// every engine lets check_plan refuse what run_plan would, alike
// everywhere.
const MaxSources = 64

// Decode parses a plan document. It accepts omitted optional fields and
// explicit nulls alike, rejects unknown fields, duplicate keys, wrong JSON types and values
// outside the language, and enforces lim (zero fields take DefaultLimits).
// Errors are *Error with codes PLAN_TOO_LARGE, PLAN_MALFORMED, UNKNOWN_FIELD
// or INVALID_VALUE.
func Decode(data []byte, lim Limits) (*Query, error) {
	v, d, err := parseDoc(data, lim, "plan")
	if err != nil {
		return nil, err
	}
	return d.query(v, "", 0)
}

// parseDoc checks data against lim (zero fields take DefaultLimits) and
// parses it as exactly one JSON value, numbers as json.Number; what names
// the document in errors.
func parseDoc(data []byte, lim Limits, what string) (any, *decoder, error) {
	lim = lim.withDefaults()
	if len(data) > lim.MaxBytes {
		return nil, nil, NewError(CodeTooLarge, "", "%s is %d bytes; the limit is %d", what, len(data), lim.MaxBytes)
	}
	if err := checkNesting(data, lim.MaxDepth*3+4); err != nil {
		return nil, nil, err
	}
	jd := json.NewDecoder(bytes.NewReader(data))
	jd.UseNumber()
	var v any
	if err := jd.Decode(&v); err != nil {
		// with the fault's line and column: a file's author finds it
		msg := JSONTextError(string(data))
		if msg == "" {
			msg = err.Error()
		}
		return nil, nil, NewError(CodeMalformed, "", "%s is not valid JSON: %s", what, msg)
	}
	if err := CheckDuplicateKeys(data, what); err != nil {
		return nil, nil, err
	}
	if _, err := jd.Token(); err != io.EOF {
		return nil, nil, NewError(CodeMalformed, "", "%s must be exactly one JSON object with nothing after it", what)
	}
	return v, &decoder{lim: lim}, nil
}

// DecodeValue builds a plan from an already parsed JSON value (as produced by
// encoding/json with or without UseNumber), with the same rules as Decode.
func DecodeValue(v any, lim Limits) (*Query, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, NewError(CodeMalformed, "", "plan cannot be encoded: %v", err)
	}
	return Decode(b, lim)
}

// checkNesting refuses documents nested deeper than max brackets before they
// reach the JSON decoder, so depth bombs cost no allocation.
func checkNesting(data []byte, max int) error {
	depth, inStr, esc := 0, false, false
	for _, c := range data {
		switch {
		case inStr:
			if esc {
				esc = false
			} else if c == '\\' {
				esc = true
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > max {
				return NewError(CodeTooLarge, "", "plan nests deeper than %d JSON brackets (its nodes may nest %d levels)", max, (max-4)/3)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

type decoder struct {
	lim   Limits
	nodes int
	cur   *obj // the innermost node being read: a new node's parent
}

func (d *decoder) count(path string, depth int) error {
	d.nodes++
	if d.nodes > d.lim.MaxNodes {
		return NewError(CodeTooLarge, path, "plan has more than %d nodes", d.lim.MaxNodes)
	}
	if depth > d.lim.MaxDepth {
		return NewError(CodeTooLarge, path, "plan nests deeper than %d levels", d.lim.MaxDepth)
	}
	return nil
}

// obj reads one JSON object, remembering which keys were consumed so that
// done can report unknown fields.
type obj struct {
	m    map[string]any
	path string
	what string // "a from item": the node's kind, as errors name it
	used map[string]bool
	// fields are every field this kind of node has (nil until an
	// expression's kind is read): an unknown field in a node inside it
	// may be one of them, written one level too deep
	fields []string
	parent *obj // the node this one is written in, nil at the top
	d      *decoder
}

// JoinPath spells the path of a field under path, as Issue.Path shows it:
// "select[0].expr".
func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// IndexPath spells the path of the i-th element of the array at path.
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func (d *decoder) asObj(v any, path, what string) (*obj, error) {
	m, ok := v.(map[string]any)
	if !ok {
		if what == "an expression" && (typeName(v) == "string" || typeName(v) == "number" || typeName(v) == "boolean") {
			// a value where an expression stands is a literal the writer
			// meant: show it as one
			lit, _ := JSON(map[string]any{"kind": "literal", "value": v})
			return nil, NewError(CodeMalformed, path, "%s must be a JSON object, got %s: write a value as a literal, %s", what, typeName(v), lit)
		}
		return nil, NewError(CodeMalformed, path, "%s must be a JSON object, got %s", what, typeName(v))
	}
	o := &obj{m: m, path: path, what: what, used: map[string]bool{}, parent: d.cur, d: d}
	o.fields = nodeFields[what]
	d.cur = o
	return o, nil
}

// get returns the value under key; missing and null both report false.
func (o *obj) get(key string) (any, bool) {
	o.used[key] = true
	v, ok := o.m[key]
	if !ok || v == nil {
		return nil, false
	}
	return v, true
}

func (o *obj) str(key string, required bool) (string, error) {
	v, ok := o.get(key)
	if !ok {
		if required {
			return "", NewError(CodeMalformed, JoinPath(o.path, key), "field %q is required", key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", NewError(CodeMalformed, JoinPath(o.path, key), "field %q must be a string, got %s", key, typeName(v))
	}
	if strings.ContainsRune(s, 0) {
		return "", NewError(CodeBadValue, JoinPath(o.path, key), "field %q may not contain a NUL character", key)
	}
	return s, nil
}

// alias is a select item's "alias": left out (or null) it names the
// column after its source column, so written empty it is refused rather
// than read as left out, which gave a plan that meant to name its column
// another header without a word. (A required name written empty, a from
// item's alias or a CTE's name, is the validator's to refuse, with what
// else a name must be: validate.unreadable.)
func (o *obj) alias() (string, error) {
	s, err := o.str("alias", false)
	if _, given := o.get("alias"); err == nil && given && s == "" {
		e := NewError(CodeBadValue, JoinPath(o.path, "alias"), "field \"alias\" is empty")
		e.Issues[0].Hint = "write a name, or leave \"alias\" out (or null) to name the column after its source column"
		return "", e
	}
	return s, err
}

func (o *obj) boolean(key string) (bool, error) {
	v, ok := o.get(key)
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, NewError(CodeMalformed, JoinPath(o.path, key), "field %q must be a boolean, got %s", key, typeName(v))
	}
	return b, nil
}

func (o *obj) intp(key string) (*int64, error) {
	v, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	n, ok := v.(json.Number)
	if !ok {
		return nil, NewError(CodeMalformed, JoinPath(o.path, key), "field %q must be an integer, got %s", key, typeName(v))
	}
	i, ok := jsonInt(n.String())
	if !ok {
		return nil, NewError(CodeBadValue, JoinPath(o.path, key), "field %q must be a 64-bit integer, got %s", key, n)
	}
	return &i, nil
}

func (o *obj) array(key string) ([]any, error) {
	v, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok {
		return nil, NewError(CodeMalformed, JoinPath(o.path, key), "field %q must be an array, got %s", key, typeName(v))
	}
	return a, nil
}

// done ends the reading of the node: the next node read is its sibling
// or its parent's, and a field the node's kind does not read is refused.
func (o *obj) done() error {
	o.d.cur = o.parent
	var unknown []string
	for k := range o.m {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return o.unknownField(unknown[0])
}

func (d *decoder) query(v any, path string, depth int) (*Query, error) {
	if err := d.count(path, depth); err != nil {
		return nil, err
	}
	o, err := d.asObj(v, path, "a query")
	if err != nil {
		return nil, err
	}
	q := &Query{}
	ctes, err := o.array("with")
	if err != nil {
		return nil, err
	}
	for i, cv := range ctes {
		p := IndexPath(JoinPath(path, "with"), i)
		co, err := d.asObj(cv, p, "a CTE")
		if err != nil {
			return nil, err
		}
		var c CTE
		if c.Name, err = co.str("name", true); err != nil {
			return nil, err
		}
		qv, ok := co.get("query")
		if !ok {
			return nil, NewError(CodeMalformed, JoinPath(p, "query"), "field \"query\" is required")
		}
		if c.Query, err = d.query(qv, JoinPath(p, "query"), depth+1); err != nil {
			return nil, err
		}
		if err := co.done(); err != nil {
			return nil, err
		}
		q.With = append(q.With, c)
	}
	if q.Distinct, err = o.boolean("distinct"); err != nil {
		return nil, err
	}
	sel, err := o.array("select")
	if err != nil {
		return nil, err
	}
	if len(sel) > MaxSelectItems {
		e := NewError(CodeTooLarge, JoinPath(path, "select"), "the query selects %d items; the limit is %d", len(sel), MaxSelectItems)
		e.Issues[0].Hint = "select only the columns the answer needs, or split the columns over several queries"
		return nil, e
	}
	for i, sv := range sel {
		p := IndexPath(JoinPath(path, "select"), i)
		so, err := d.asObj(sv, p, "a select item")
		if err != nil {
			return nil, err
		}
		var it SelectItem
		ev, ok := so.get("expr")
		if !ok {
			return nil, NewError(CodeMalformed, JoinPath(p, "expr"), "field \"expr\" is required")
		}
		if it.Expr, err = d.expr(ev, JoinPath(p, "expr"), depth+1); err != nil {
			return nil, err
		}
		if it.Alias, err = so.alias(); err != nil {
			return nil, err
		}
		if err := so.done(); err != nil {
			return nil, err
		}
		q.Select = append(q.Select, it)
	}
	from, err := o.array("from")
	if err != nil {
		return nil, err
	}
	if len(from) > MaxSources {
		e := NewError(CodeTooLarge, JoinPath(path, "from"), "the query joins %d sources; the limit is %d", len(from), MaxSources)
		e.Issues[0].Hint = "join only the tables the answer needs, or aggregate parts in subqueries first"
		return nil, e
	}
	for i, fv := range from {
		f, err := d.from(fv, IndexPath(JoinPath(path, "from"), i), depth+1)
		if err != nil {
			return nil, err
		}
		q.From = append(q.From, f)
	}
	joins, err := o.array("joins")
	if err != nil {
		return nil, err
	}
	for i, jv := range joins {
		j, err := d.join(jv, IndexPath(JoinPath(path, "joins"), i), depth+1)
		if err != nil {
			return nil, err
		}
		q.Joins = append(q.Joins, j)
	}
	if q.Where, err = d.optExpr(o, "where", depth+1); err != nil {
		return nil, err
	}
	gb, err := o.array("group_by")
	if err != nil {
		return nil, err
	}
	for i, gv := range gb {
		e, err := d.expr(gv, IndexPath(JoinPath(path, "group_by"), i), depth+1)
		if err != nil {
			return nil, err
		}
		q.GroupBy = append(q.GroupBy, e)
	}
	if q.Having, err = d.optExpr(o, "having", depth+1); err != nil {
		return nil, err
	}
	if q.Qualify, err = d.optExpr(o, "qualify", depth+1); err != nil {
		return nil, err
	}
	sops, err := o.array("set_ops")
	if err != nil {
		return nil, err
	}
	for i, sv := range sops {
		p := IndexPath(JoinPath(path, "set_ops"), i)
		so, err := d.asObj(sv, p, "a set operation")
		if err != nil {
			return nil, err
		}
		var s SetOp
		op, err := so.str("op", true)
		if err != nil {
			return nil, err
		}
		s.Op = SetOpKind(op)
		switch s.Op {
		case Union, UnionAll, Intersect, Except:
		default:
			return nil, NewError(CodeBadValue, JoinPath(p, "op"), "set operation %q is not one of union, union_all, intersect, except", op)
		}
		qv, ok := so.get("query")
		if !ok {
			return nil, NewError(CodeMalformed, JoinPath(p, "query"), "field \"query\" is required")
		}
		if s.Query, err = d.query(qv, JoinPath(p, "query"), depth+1); err != nil {
			return nil, err
		}
		if err := so.done(); err != nil {
			return nil, err
		}
		q.SetOps = append(q.SetOps, s)
	}
	if q.OrderBy, err = d.orderBy(o, "order_by", depth+1); err != nil {
		return nil, err
	}
	if q.Limit, err = o.intp("limit"); err != nil {
		return nil, err
	}
	if q.WithTies, err = o.boolean("with_ties"); err != nil {
		return nil, err
	}
	if q.Offset, err = o.intp("offset"); err != nil {
		return nil, err
	}
	if err := o.done(); err != nil {
		return nil, err
	}
	return q, nil
}

func (d *decoder) orderBy(o *obj, key string, depth int) ([]OrderItem, error) {
	arr, err := o.array(key)
	if err != nil {
		return nil, err
	}
	var out []OrderItem
	for i, v := range arr {
		p := IndexPath(JoinPath(o.path, key), i)
		io, err := d.asObj(v, p, "an order_by item")
		if err != nil {
			return nil, err
		}
		var it OrderItem
		ev, ok := io.get("expr")
		if !ok {
			return nil, NewError(CodeMalformed, JoinPath(p, "expr"), "field \"expr\" is required")
		}
		if it.Expr, err = d.expr(ev, JoinPath(p, "expr"), depth); err != nil {
			return nil, err
		}
		dir, err := io.str("direction", false)
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(dir) {
		case "", "asc":
			it.Direction = Asc
		case "desc":
			it.Direction = Desc
		default:
			return nil, NewError(CodeBadValue, JoinPath(p, "direction"), "direction %q is not asc or desc", dir)
		}
		nulls, err := io.str("nulls", false)
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(nulls) {
		case "":
		case "first":
			it.Nulls = NullsFirst
		case "last":
			it.Nulls = NullsLast
		default:
			return nil, NewError(CodeBadValue, JoinPath(p, "nulls"), "nulls %q is not first or last", nulls)
		}
		if err := io.done(); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

func (d *decoder) from(v any, path string, depth int) (From, error) {
	var f From
	if err := d.count(path, depth); err != nil {
		return f, err
	}
	o, err := d.asObj(v, path, "a from item")
	if err != nil {
		return f, err
	}
	if f.Schema, err = o.str("schema", false); err != nil {
		return f, err
	}
	if f.Table, err = o.str("table", false); err != nil {
		return f, err
	}
	if sv, ok := o.get("subquery"); ok {
		if f.Subquery, err = d.query(sv, JoinPath(path, "subquery"), depth+1); err != nil {
			return f, err
		}
	}
	if f.Alias, err = o.str("alias", true); err != nil {
		return f, err
	}
	if (f.Table == "") == (f.Subquery == nil) {
		return f, NewError(CodeMalformed, path, "a from item needs exactly one of \"table\" and \"subquery\"")
	}
	return f, o.done()
}

func (d *decoder) join(v any, path string, depth int) (Join, error) {
	var j Join
	if err := d.count(path, depth); err != nil {
		return j, err
	}
	o, err := d.asObj(v, path, "a join")
	if err != nil {
		return j, err
	}
	t, err := o.str("type", false)
	if err != nil {
		return j, err
	}
	switch strings.ToLower(t) {
	case "", "inner":
		j.Type = JoinInner
	case "left":
		j.Type = JoinLeft
	case "right":
		j.Type = JoinRight
	case "full":
		j.Type = JoinFull
	default:
		return j, NewError(CodeBadValue, JoinPath(path, "type"), "join type %q is not inner, left, right or full", t)
	}
	if j.Left, err = o.str("left", true); err != nil {
		return j, err
	}
	if j.Right, err = o.str("right", true); err != nil {
		return j, err
	}
	on, err := o.array("on")
	if err != nil {
		return j, err
	}
	for i, pv := range on {
		p := IndexPath(JoinPath(path, "on"), i)
		po, err := d.asObj(pv, p, "a join key pair")
		if err != nil {
			return j, err
		}
		var pair OnPair
		if pair.LeftColumn, err = po.str("left_column", true); err != nil {
			return j, err
		}
		if pair.RightColumn, err = po.str("right_column", true); err != nil {
			return j, err
		}
		if err := po.done(); err != nil {
			return j, err
		}
		j.On = append(j.On, pair)
	}
	if j.Condition, err = d.optExpr(o, "condition", depth+1); err != nil {
		return j, err
	}
	return j, o.done()
}

func (d *decoder) optExpr(o *obj, key string, depth int) (Expr, error) {
	v, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	return d.expr(v, JoinPath(o.path, key), depth)
}

func (d *decoder) exprs(o *obj, key string, depth int) ([]Expr, error) {
	arr, err := o.array(key)
	if err != nil {
		return nil, err
	}
	out := make([]Expr, 0, len(arr))
	for i, v := range arr {
		e, err := d.expr(v, IndexPath(JoinPath(o.path, key), i), depth)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

func (d *decoder) reqExpr(o *obj, key string, depth int) (Expr, error) {
	v, ok := o.get(key)
	if !ok {
		return nil, NewError(CodeMalformed, JoinPath(o.path, key), "field %q is required", key)
	}
	return d.expr(v, JoinPath(o.path, key), depth)
}

func (d *decoder) reqQuery(o *obj, key string, depth int) (*Query, error) {
	v, ok := o.get(key)
	if !ok {
		return nil, NewError(CodeMalformed, JoinPath(o.path, key), "field %q is required", key)
	}
	return d.query(v, JoinPath(o.path, key), depth)
}

var (
	dateRe      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timestampRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,9})?$`)
	decimalRe   = regexp.MustCompile(`^-?\d{1,38}(\.\d{1,38})?$`)
	// zoned is a timestamp written with a zone: Z, +02:00, -0500
	zoned = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)$`)
)

func (d *decoder) literal(o *obj, path string) (*Literal, error) {
	t, err := o.str("type", false)
	if err != nil {
		return nil, err
	}
	_, written := o.m["value"]
	v, present := o.get("value")
	lt := LiteralType(strings.ToLower(t))
	if lt == "" && !written {
		// neither a type nor a value: a value left out, not a NULL meant
		// (a comparison with it matches nothing), which "value": null or
		// "type": "null" says
		return nil, NewError(CodeMalformed, JoinPath(path, "value"), `field "value" is required ("value": null for NULL)`)
	}
	if lt == "" { // infer from the JSON value, for hand-written plans
		switch x := v.(type) {
		case nil:
			lt = TNull
		case bool:
			lt = TBoolean
		case string:
			lt = TString
		case json.Number:
			if _, err := strconv.ParseInt(x.String(), 10, 64); err == nil {
				lt = TInteger
			} else {
				lt = TDecimal
			}
		default:
			return nil, NewError(CodeMalformed, JoinPath(path, "value"), "a literal value must be a string, number, boolean or null, got %s", typeName(v))
		}
	}
	l := &Literal{Type: lt}
	vp := JoinPath(path, "value")
	switch lt {
	case TNull:
		if present {
			return nil, NewError(CodeBadValue, vp, "a null literal has no value")
		}
	case TBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, NewError(CodeBadValue, vp, "a boolean literal needs true or false, got %s", typeName(v))
		}
		l.Bool = b
	case TInteger:
		var s string
		switch x := v.(type) {
		case json.Number:
			s = x.String()
			if n, ok := jsonInt(s); ok {
				s = strconv.FormatInt(n, 10)
			}
		case string:
			s = x
		default:
			return nil, NewError(CodeBadValue, vp, "an integer literal needs a number, got %s", typeName(v))
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, NewError(CodeBadValue, vp, "%q is not a 64-bit integer", s)
		}
		l.Int = n
	case TDecimal:
		var s string
		switch x := v.(type) {
		case json.Number:
			s = x.String()
		case string:
			s = x
		default:
			return nil, NewError(CodeBadValue, vp, "a decimal literal needs a number or numeric string, got %s", typeName(v))
		}
		if !decimalRe.MatchString(s) {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, NewError(CodeBadValue, vp, "%q is not a decimal number", s)
			}
			s = strconv.FormatFloat(f, 'f', -1, 64)
		}
		l.Text = s
	case TString, TDate, TTimestamp:
		s, ok := v.(string)
		if !ok {
			return nil, NewError(CodeBadValue, vp, "a %s literal needs a string value, got %s", lt, typeName(v))
		}
		if strings.ContainsRune(s, 0) {
			return nil, NewError(CodeBadValue, vp, "a literal may not contain a NUL character")
		}
		if (lt == TDate || lt == TTimestamp) && isInfinity(s) {
			// SQLite has no infinite dates, and PostgreSQL and DuckDB sort
			// 'infinity' after every real date: a far date finds it everywhere
			e := NewError(CodeBadValue, vp, "a %s literal cannot be %q: not every engine has infinite dates", lt, s)
			e.Issues[0].Hint = infinityHint
			return nil, e
		}
		if lt == TDate && !IsDateLiteral(s) {
			return nil, NewError(CodeBadValue, vp, "a date literal is a real calendar date written YYYY-MM-DD (year 0001 or later), got %q", Truncate(s, 40))
		}
		if lt == TTimestamp {
			sent := s
			s = strings.Replace(s, "T", " ", 1) // one canonical form: SQLite compares timestamps as text
			if !IsTimestampLiteral(s) {
				// quoted as sent: the canonical form is ours, not the user's
				e := NewError(CodeBadValue, vp, "a timestamp literal is a real time written YYYY-MM-DD HH:MM:SS, got %q", Truncate(sent, 40))
				if zoned.MatchString(s) {
					e.Issues[0].Hint = "a timestamp literal has no time zone: write the time in UTC without the Z or offset (instants read in UTC)"
				}
				return nil, e
			}
		}
		l.Text = s
	default:
		return nil, NewError(CodeBadValue, JoinPath(path, "type"), "literal type %q is not one of string, integer, decimal, boolean, date, timestamp, null", t)
	}
	return l, nil
}

// temporalMark reads the "temporal" mark of a comparison, which only the
// canonical form of a validated plan carries (Validate sets it afresh, so
// what an author writes there changes nothing): "date" or "timestamp".
func temporalMark(o *obj, path string) (Type, error) {
	s, err := o.str("temporal", false)
	if err != nil || s == "" {
		return "", err
	}
	if t := Type(s); t == TypeDate || t == TypeTimestamp {
		return t, nil
	}
	return "", NewError(CodeBadValue, JoinPath(path, "temporal"), "temporal is \"date\" or \"timestamp\", got %q", Truncate(s, 40))
}

// infinityHint says how to find infinite dates without an infinite literal.
const infinityHint = `compare with a far date instead: > "9999-12-31" finds 'infinity' (and < "0001-01-01" '-infinity') on PostgreSQL and DuckDB`

func isInfinity(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return s == "infinity" || s == "-infinity" || s == "+infinity"
}

// validCalendar reports whether s (already shaped by a regexp) names a real
// date or time, year 1 or later: every engine but SQLite refuses the others
// at run time, and SQLite would silently compare them as text.
func validCalendar(layout, s string) bool {
	t, err := time.Parse(layout, s)
	return err == nil && t.Year() >= 1
}

// IsDateLiteral reports whether s is the text of a date literal: a real
// calendar date written YYYY-MM-DD, year 1 or later.
func IsDateLiteral(s string) bool { return dateRe.MatchString(s) && validCalendar("2006-01-02", s) }

// IsTimestampLiteral reports whether s is the text of a timestamp literal:
// a real time written YYYY-MM-DD HH:MM:SS[.fraction], year 1 or later.
func IsTimestampLiteral(s string) bool {
	return timestampRe.MatchString(s) && validCalendar("2006-01-02 15:04:05.999999999", s)
}

func (d *decoder) expr(v any, path string, depth int) (Expr, error) {
	if err := d.count(path, depth); err != nil {
		return nil, err
	}
	o, err := d.asObj(v, path, "an expression")
	if err != nil {
		return nil, err
	}
	kind, err := o.str("kind", true)
	if err != nil {
		return nil, err
	}
	if slices.Contains(Kinds, kind) {
		// errors about this node name its kind: "a column expression"
		o.fields, o.what = exprFields[kind], "a "+kind+" expression"
		if kind[0] == 'i' || kind[0] == 'e' {
			o.what = "an " + kind + " expression"
		}
	}
	var e Expr
	switch kind {
	case "column":
		c := &Column{}
		if c.Table, err = o.str("table", false); err == nil {
			c.Column, err = o.str("column", true)
		}
		e = c
	case "literal":
		e, err = d.literal(o, path)
	case "binary":
		b := &Binary{}
		var op string
		if op, err = o.str("op", true); err == nil {
			b.Op, err = normBinaryOp(op, JoinPath(path, "op"))
		}
		if err == nil {
			b.Left, err = d.reqExpr(o, "left", depth+1)
		}
		if err == nil {
			b.Right, err = d.reqExpr(o, "right", depth+1)
		}
		if err == nil {
			b.Temporal, err = temporalMark(o, path)
		}
		e = b
	case "unary":
		u := &Unary{}
		var op string
		if op, err = o.str("op", true); err == nil {
			switch strings.ToLower(op) {
			case "not":
				u.Op = "not"
			case "-":
				u.Op = "-"
			default:
				err = NewError(CodeBadValue, JoinPath(path, "op"), "unary operator %q is not \"not\" or \"-\"", op)
			}
		}
		if err == nil {
			u.Expr, err = d.reqExpr(o, "expr", depth+1)
		}
		e = u
	case "in":
		n := &In{}
		if n.Expr, err = d.reqExpr(o, "expr", depth+1); err == nil {
			if _, ok := o.m["list"]; ok && o.m["list"] != nil {
				n.List, err = d.exprs(o, "list", depth+1)
				if err == nil && len(n.List) == 0 {
					err = NewError(CodeMalformed, JoinPath(path, "list"), "an IN list needs at least one value")
				}
			}
		}
		if err == nil {
			if sv, ok := o.get("subquery"); ok {
				n.Subquery, err = d.query(sv, JoinPath(path, "subquery"), depth+1)
			}
		}
		if err == nil {
			n.Negated, err = o.boolean("negated")
		}
		if err == nil {
			n.Temporal, err = temporalMark(o, path)
		}
		o.used["list"] = true
		if err == nil && (n.List == nil) == (n.Subquery == nil) {
			// a misspelt list ("values") is the likelier cause: name it
			if err = o.done(); err == nil {
				err = NewError(CodeMalformed, path, "an in expression needs exactly one of \"list\" and \"subquery\"")
			}
		}
		e = n
	case "exists":
		n := &Exists{}
		if n.Subquery, err = d.reqQuery(o, "subquery", depth+1); err == nil {
			n.Negated, err = o.boolean("negated")
		}
		e = n
	case "subquery":
		n := &Subquery{}
		n.Query, err = d.reqQuery(o, "query", depth+1)
		e = n
	case "between":
		n := &Between{}
		if n.Expr, err = d.reqExpr(o, "expr", depth+1); err == nil {
			if n.Low, err = d.reqExpr(o, "low", depth+1); err == nil {
				if n.High, err = d.reqExpr(o, "high", depth+1); err == nil {
					if n.Negated, err = o.boolean("negated"); err == nil {
						n.Temporal, err = temporalMark(o, path)
					}
				}
			}
		}
		e = n
	case "like":
		n := &Like{}
		if n.Expr, err = d.reqExpr(o, "expr", depth+1); err == nil {
			if n.Pattern, err = d.reqExpr(o, "pattern", depth+1); err == nil {
				if n.CaseInsensitive, err = o.boolean("case_insensitive"); err == nil {
					n.Negated, err = o.boolean("negated")
				}
			}
		}
		e = n
	case "is_null":
		n := &IsNull{}
		if n.Expr, err = d.reqExpr(o, "expr", depth+1); err == nil {
			n.Negated, err = o.boolean("negated")
		}
		e = n
	case "case":
		n := &Case{}
		if n.Operand, err = d.optExpr(o, "operand", depth+1); err == nil {
			var arr []any
			if arr, err = o.array("whens"); err == nil {
				if len(arr) == 0 {
					err = NewError(CodeMalformed, JoinPath(path, "whens"), "a case needs at least one when")
				}
				for i, wv := range arr {
					if err != nil {
						break
					}
					p := IndexPath(JoinPath(path, "whens"), i)
					var wo *obj
					if wo, err = d.asObj(wv, p, "a when arm"); err != nil {
						break
					}
					var w When
					if w.When, err = d.reqExpr(wo, "when", depth+1); err == nil {
						if w.Then, err = d.reqExpr(wo, "then", depth+1); err == nil {
							err = wo.done()
						}
					}
					n.Whens = append(n.Whens, w)
				}
			}
			if err == nil {
				n.Else, err = d.optExpr(o, "else", depth+1)
			}
		}
		e = n
	case "cast":
		n := &Cast{}
		if n.Expr, err = d.reqExpr(o, "expr", depth+1); err == nil {
			var t string
			if t, err = o.str("type", true); err == nil {
				n.Type = CastType(strings.ToLower(t))
				switch n.Type {
				case CastInteger, CastDecimal, CastFloat, CastText, CastBoolean, CastDate, CastTimestamp:
				default:
					err = NewError(CodeBadValue, JoinPath(path, "type"), "cast type %q is not one of integer, decimal, float, text, boolean, date, timestamp", t)
				}
			}
		}
		e = n
	case "func":
		n := &Func{}
		if n.Name, err = o.str("name", true); err == nil {
			if n.Args, err = d.exprs(o, "args", depth+1); err == nil {
				n.Distinct, err = o.boolean("distinct")
			}
		}
		e = n
	case "window":
		n := &Window{}
		if n.Name, err = o.str("name", true); err == nil {
			if n.Args, err = d.exprs(o, "args", depth+1); err == nil {
				if n.PartitionBy, err = d.exprs(o, "partition_by", depth+1); err == nil {
					n.OrderBy, err = d.orderBy(o, "order_by", depth+1)
				}
			}
		}
		e = n
	case "metric", "filter":
		var name, table string
		if name, err = o.str("name", true); err == nil {
			table, err = o.str("table", false)
		}
		if kind == "metric" {
			e = &MetricRef{Name: name, Table: table}
		} else {
			e = &FilterRef{Name: name, Table: table}
		}
	default:
		e := NewError(CodeBadValue, JoinPath(path, "kind"), "expression kind %q is not one of %s", kind, strings.Join(Kinds, ", "))
		e.Issues[0].Hint = kindHint(kind)
		return nil, e
	}
	if err != nil {
		return nil, err
	}
	if err := o.done(); err != nil {
		return nil, err
	}
	return e, nil
}

func normBinaryOp(op, path string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(op)) {
	case "+":
		return OpAdd, nil
	case "-":
		return OpSub, nil
	case "*":
		return OpMul, nil
	case "/":
		return OpDiv, nil
	case "div":
		return OpIDiv, nil
	case "%":
		return OpMod, nil
	case "=", "==":
		return OpEq, nil
	case "!=", "<>":
		return OpNe, nil
	case "<":
		return OpLt, nil
	case "<=":
		return OpLe, nil
	case ">":
		return OpGt, nil
	case ">=":
		return OpGe, nil
	case "and":
		return OpAnd, nil
	case "or":
		return OpOr, nil
	}
	return "", NewError(CodeBadValue, path, "binary operator %q is not one of + - * / div %% = != < <= > >= and or", op)
}

// operatorWords are the names authors give operators as if they were
// kinds ("eq", "gt"), each with the plan's operator.
var operatorWords = map[string]string{
	"eq": OpEq, "equals": OpEq, "equal": OpEq, "ne": OpNe, "neq": OpNe, "not_equal": OpNe,
	"lt": OpLt, "lte": OpLe, "le": OpLe, "gt": OpGt, "gte": OpGe, "ge": OpGe,
	"add": OpAdd, "plus": OpAdd, "sub": OpSub, "minus": OpSub, "mul": OpMul, "times": OpMul,
	"divide": OpDiv, "mod": OpMod,
}

// kindHint is the hint of an expression kind the language lacks that
// names what an author meant: an operator (a binary operator, or its name:
// "and", "=", "gt") is a binary node, "not" and "neg" unary ones, and a
// function's name a func node; "" for others, whose message lists the
// kinds.
func kindHint(kind string) string {
	k := strings.ToLower(strings.TrimSpace(kind))
	if k == "not" || k == "neg" || k == "negate" {
		op := map[string]string{"not": "not", "neg": "-", "negate": "-"}[k]
		return fmt.Sprintf(`%q is an operator: write {"kind":"unary","op":%q,"expr":…}`, kind, op)
	}
	op, err := normBinaryOp(k, "")
	if err != nil {
		op = operatorWords[k]
	}
	if op != "" {
		return fmt.Sprintf(`%q is an operator: write {"kind":"binary","op":%q,"left":…,"right":…} (one node per operator; and/or of more conditions nest)`, kind, op)
	}
	if spec, ok := LookupFunc(k); ok {
		if spec.Kind == WindowOnly {
			return fmt.Sprintf(`%q is a window function: write {"kind":"window","name":%q,"args":[…],"order_by":[…]}`, kind, spec.Name)
		}
		return fmt.Sprintf(`%q is a function: write {"kind":"func","name":%q,"args":[…]}`, kind, spec.Name)
	}
	return ""
}
