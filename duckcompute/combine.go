package duckcompute

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// Op is how a combine group puts its inputs together.
type Op string

// Combine operations.
const (
	// OpJoin joins two inputs on key pairs (Group.JoinType: inner, left or
	// full; inner when empty).
	OpJoin Op = "join"
	// OpCompare is a full join on key pairs: every row of both sides is
	// kept, side by side where the keys match.
	OpCompare Op = "compare"
	// OpUnion stacks inputs with the same number of columns (UNION ALL),
	// optionally labelling each row with its input's label.
	OpUnion Op = "union"
)

// Roles of a group's inputs. A join or compare has one left-hand input
// (left, base or primary) and one right-hand input (right, compare or
// secondary); a union's inputs are members (any role is accepted, and
// orders them: left-hand, right-hand, member).
var (
	leftRoles  = map[string]bool{"left": true, "base": true, "primary": true}
	rightRoles = map[string]bool{"right": true, "compare": true, "secondary": true}
)

// RoleRank orders roles: 0 left-hand, 1 right-hand, 2 member, -1 unknown.
func RoleRank(role string) int {
	switch {
	case leftRoles[role]:
		return 0
	case rightRoles[role]:
		return 1
	case role == "member":
		return 2
	}
	return -1
}

// Input is one input of a group: a loaded table or an earlier group, by
// name. Label is the name a person knows it by (a clashing column from the
// right-hand side is renamed Label_column; a union's label column holds it);
// "" means Table.
type Input struct {
	Table string
	Label string
	Role  string
}

func (in Input) label() string {
	if in.Label != "" {
		return in.Label
	}
	return in.Table
}

// Key pairs a left-hand column with a right-hand column.
type Key struct {
	Left  string `json:"left"`
	Right string `json:"right"`
}

// Group is one combination step. It compiles to a query named Name, which
// later groups and the final plan read like a table.
type Group struct {
	Name     string
	Op       Op
	Inputs   []Input
	Keys     []Key
	JoinType planast.JoinType // OpJoin only
	// LabelColumn, for OpUnion, names an added first column holding each
	// row's input label; "" adds none.
	LabelColumn string
}

// KeyType is the one type both sides of a join key are cast to, or false
// when the types cannot meet: equal types; integer and decimal → decimal;
// float with any number → float; date and timestamp → timestamp; text with
// a number, date, timestamp or boolean → that type (the text is parsed).
// A number or a boolean never joins a date, a number never joins a
// boolean, and blobs and unknown types join nothing.
func KeyType(a, b planast.Type) (planast.Type, bool) {
	if !Loadable(a) || !Loadable(b) || a == planast.TypeBlob || b == planast.TypeBlob {
		return "", false
	}
	switch {
	case a == b:
		return a, true
	case a == planast.TypeText:
		return b, true
	case b == planast.TypeText:
		return a, true
	case a.IsNumeric() && b.IsNumeric():
		if a == planast.TypeFloat || b == planast.TypeFloat {
			return planast.TypeFloat, true
		}
		return planast.TypeDecimal, true
	case a.IsTemporal() && b.IsTemporal():
		return planast.TypeTimestamp, true
	}
	return "", false
}

// Combination is a checked combination, ready to load and run.
type Combination struct {
	// Tables are the input tables' shapes to load with: as given, but each
	// join key column retyped to the KeyType of its pair, so both sides of
	// every key hold one type before the join.
	Tables []Shape
	// Groups holds each group's output shape by name.
	Groups map[string]Shape
	// Plan is the combination plan: each group a CTE named by its Name (in
	// the order given), then the final plan's own CTEs, then its body. It
	// reads Tables by name.
	Plan *planast.Query
	// Validated is Plan checked by validate.Plan against Tables.
	Validated *validate.Result
}

// GroupError is a group that cannot be compiled.
type GroupError struct {
	Group string
	Err   error
}

func (e *GroupError) Error() string { return "group " + e.Group + ": " + e.Err.Error() }
func (e *GroupError) Unwrap() error { return e.Err }

// Prepare checks a combination before any data exists. Groups must come in
// an order where every input is a table or an earlier group. Each key pair
// is given its KeyType: a key column of a table is retyped to it (a column
// that two keys would type differently is refused), a key column of a
// group must already have it (or both sides be numbers). Each group
// compiles to one SELECT (see Group) validated against the tables and the
// groups before it; a nil final selects every column of the last group.
// The assembled plan is validated with validate.Plan, whose *planast.Error
// is returned as is for a bad final plan; a bad group is a *GroupError.
func Prepare(tables []Shape, groups []Group, final *planast.Query) (*Combination, error) {
	c := &Combination{Groups: map[string]Shape{}}
	byName := map[string]int{}
	for _, t := range tables {
		if err := t.check(); err != nil {
			return nil, err
		}
		byName[strings.ToLower(t.Name)] = len(c.Tables)
		c.Tables = append(c.Tables, Shape{Name: t.Name, Columns: append([]Column(nil), t.Columns...)})
	}
	for i, g := range groups {
		if !ValidName(g.Name) {
			return nil, &GroupError{Group: g.Name, Err: fmt.Errorf("the name is not an identifier of at most 63 characters")}
		}
		if _, clash := byName[strings.ToLower(g.Name)]; clash {
			return nil, &GroupError{Group: g.Name, Err: fmt.Errorf("the name is a table's")}
		}
		for _, h := range groups[:i] {
			if strings.EqualFold(h.Name, g.Name) {
				return nil, &GroupError{Group: g.Name, Err: fmt.Errorf("two groups have this name")}
			}
		}
	}
	// Pass 1 types the keys group by group (a group's key may read an
	// earlier group's output, compiled just before); pass 2 compiles every
	// group again with the final table types.
	retyped := map[string]bool{} // table.column (lower) typed by an earlier key
	shapes := NewCatalog()
	for _, g := range groups {
		if err := c.coerce(g, byName, retyped); err != nil {
			return nil, &GroupError{Group: g.Name, Err: err}
		}
		if _, err := c.compile(g, overlay{base: NewCatalog(c.Tables...), extra: shapes}, shapes); err != nil {
			return nil, err
		}
	}
	base := NewCatalog(c.Tables...)
	shapes = NewCatalog()
	var ctes []planast.CTE
	for _, g := range groups {
		cte, err := c.compile(g, overlay{base: base, extra: shapes}, shapes)
		if err != nil {
			return nil, err
		}
		ctes = append(ctes, cte)
	}
	if final == nil {
		if len(groups) == 0 {
			return nil, fmt.Errorf("there is no group to select from; give a final plan")
		}
		final = selectAll(c.Groups[groups[len(groups)-1].Name])
	}
	body := *final
	body.With = append(ctes, final.With...)
	v, err := validate.Plan(&body, base, validate.Options{})
	if err != nil {
		return nil, err
	}
	c.Plan, c.Validated = &body, v
	return c, nil
}

// compile compiles g against cat and records its shape in Groups and in
// shapes.
func (c *Combination) compile(g Group, cat planast.Catalog, shapes *Catalog) (planast.CTE, error) {
	q, err := g.query(cat)
	if err != nil {
		return planast.CTE{}, &GroupError{Group: g.Name, Err: err}
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		return planast.CTE{}, &GroupError{Group: g.Name, Err: err}
	}
	s := Shape{Name: g.Name}
	for i, name := range v.Columns {
		s.Columns = append(s.Columns, Column{Name: name, Type: v.Types[i]})
	}
	shapes.add(s)
	c.Groups[g.Name] = s
	return planast.CTE{Name: g.Name, Query: q}, nil // q, not v.Plan: a group read as a CTE takes no schema
}

// coerce gives each key pair of g its KeyType, retyping table columns.
func (c *Combination) coerce(g Group, tables map[string]int, retyped map[string]bool) error {
	if g.Op != OpJoin && g.Op != OpCompare {
		return nil
	}
	if len(g.Inputs) != 2 {
		return fmt.Errorf("a %s takes exactly two inputs, got %d", g.Op, len(g.Inputs))
	}
	li, ri := 0, 1
	if RoleRank(g.Inputs[0].Role) == 1 && RoleRank(g.Inputs[1].Role) == 0 {
		li, ri = 1, 0
	}
	side := func(in Input, name string) (*Column, string, bool, error) {
		if ti, ok := tables[strings.ToLower(in.Table)]; ok {
			for k := range c.Tables[ti].Columns {
				cc := &c.Tables[ti].Columns[k]
				if strings.EqualFold(cc.Name, name) {
					return cc, strings.ToLower(c.Tables[ti].Name + "." + cc.Name), true, nil
				}
			}
			return nil, "", true, fmt.Errorf("%s has no column %q", in.label(), name)
		}
		if s, ok := c.Groups[in.Table]; ok {
			for k := range s.Columns {
				if strings.EqualFold(s.Columns[k].Name, name) {
					return &s.Columns[k], "", false, nil
				}
			}
			return nil, "", false, fmt.Errorf("%s has no column %q", in.label(), name)
		}
		return nil, "", false, nil // unknown input: query reports it
	}
	for _, k := range g.Keys {
		lc, lkey, ltab, err := side(g.Inputs[li], k.Left)
		if err != nil {
			return err
		}
		rc, rkey, rtab, err := side(g.Inputs[ri], k.Right)
		if err != nil {
			return err
		}
		if lc == nil || rc == nil {
			continue
		}
		t, ok := KeyType(lc.Type, rc.Type)
		if !ok {
			return fmt.Errorf("key %s (%s) = %s (%s): a %s never joins a %s", lc.Name, lc.Type, rc.Name, rc.Type, lc.Type, rc.Type)
		}
		for _, s := range []struct {
			c   *Column
			key string
			tab bool
		}{{lc, lkey, ltab}, {rc, rkey, rtab}} {
			switch {
			case s.c.Type == t:
			case !s.tab && s.c.Type.IsNumeric() && t.IsNumeric():
			case !s.tab:
				return fmt.Errorf("key column %s of a group has type %s but must join as %s; a group's columns are not cast", s.c.Name, s.c.Type, t)
			case retyped[s.key]:
				return fmt.Errorf("key column %s is joined as %s here and as %s by an earlier group", s.c.Name, t, s.c.Type)
			default:
				s.c.Type = t
			}
			if s.tab {
				retyped[s.key] = true
			}
		}
	}
	return nil
}

// selectAll reads every column of s.
func selectAll(s Shape) *planast.Query {
	q := &planast.Query{From: []planast.From{{Table: s.Name, Alias: "t"}}}
	for _, c := range s.Columns {
		q.Select = append(q.Select, planast.SelectItem{Expr: col("t", c.Name), Alias: c.Name})
	}
	return q
}

func col(alias, name string) planast.Expr { return &planast.Column{Table: alias, Column: name} }

// query compiles the group into one SELECT over its inputs.
func (g Group) query(cat planast.Catalog) (*planast.Query, error) {
	if !ValidName(g.Name) {
		return nil, fmt.Errorf("name %q is not an identifier", g.Name)
	}
	shapes := make([]Shape, len(g.Inputs))
	for i, in := range g.Inputs {
		t, ok := cat.LookupTable("", in.Table)
		if !ok {
			return nil, fmt.Errorf("input %q is neither a loaded table nor an earlier group", in.Table)
		}
		s := Shape{Name: t.Name}
		for _, c := range t.Columns {
			s.Columns = append(s.Columns, Column{Name: c.Name, Type: c.Type})
		}
		shapes[i] = s
	}
	switch g.Op {
	case OpJoin, OpCompare:
		return g.join(shapes)
	case OpUnion:
		return g.union(shapes)
	}
	return nil, fmt.Errorf("op %q is not join, compare or union", g.Op)
}

// join compiles a join or compare: the left-hand columns, then the
// right-hand ones but its keys; a right-hand name that clashes becomes
// Label_name. In a full join a key is COALESCE(left, right).
func (g Group) join(shapes []Shape) (*planast.Query, error) {
	if len(g.Inputs) != 2 {
		return nil, fmt.Errorf("a %s takes exactly two inputs, got %d", g.Op, len(g.Inputs))
	}
	li, ri := 0, 1
	if RoleRank(g.Inputs[0].Role) == 1 && RoleRank(g.Inputs[1].Role) == 0 {
		li, ri = 1, 0
	}
	if RoleRank(g.Inputs[li].Role) != 0 || RoleRank(g.Inputs[ri].Role) != 1 {
		return nil, fmt.Errorf("a %s needs one input with role left, base or primary and one with role right, compare or secondary", g.Op)
	}
	if len(g.Keys) == 0 {
		return nil, fmt.Errorf("a %s needs at least one key pair", g.Op)
	}
	jt := g.JoinType
	if g.Op == OpCompare {
		jt = planast.JoinFull
	} else if jt == "" {
		jt = planast.JoinInner
	}
	if jt != planast.JoinInner && jt != planast.JoinLeft && jt != planast.JoinFull {
		return nil, fmt.Errorf("join_type %q is not inner, left or full", jt)
	}
	L, R := shapes[li], shapes[ri]
	lcols, rcols := index(L), index(R)
	j := planast.Join{Type: jt, Left: "l", Right: "r"}
	rightKey, leftKey := map[string]bool{}, map[string]bool{}
	for _, k := range g.Keys {
		lc, ok1 := lcols[strings.ToLower(k.Left)]
		rc, ok2 := rcols[strings.ToLower(k.Right)]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("key %s = %s: %s has no column %q or %s has no column %q", k.Left, k.Right, g.Inputs[li].label(), k.Left, g.Inputs[ri].label(), k.Right)
		}
		if lc.Type != rc.Type && !(lc.Type.IsNumeric() && rc.Type.IsNumeric()) {
			return nil, fmt.Errorf("key %s (%s) = %s (%s): load both sides as %s first (see KeyType)", lc.Name, lc.Type, rc.Name, rc.Type, keyTypeName(lc.Type, rc.Type))
		}
		j.On = append(j.On, planast.OnPair{LeftColumn: lc.Name, RightColumn: rc.Name})
		leftKey[strings.ToLower(lc.Name)] = true
		rightKey[strings.ToLower(rc.Name)] = true
	}
	q := &planast.Query{From: []planast.From{{Table: L.Name, Alias: "l"}, {Table: R.Name, Alias: "r"}}, Joins: []planast.Join{j}}
	used := map[string]bool{}
	for _, c := range L.Columns {
		var e planast.Expr = col("l", c.Name)
		if jt == planast.JoinFull && leftKey[strings.ToLower(c.Name)] {
			for _, k := range j.On {
				if k.LeftColumn == c.Name {
					e = &planast.Func{Name: "COALESCE", Args: []planast.Expr{col("l", c.Name), col("r", k.RightColumn)}}
					break
				}
			}
		}
		q.Select = append(q.Select, planast.SelectItem{Expr: e, Alias: c.Name})
		used[strings.ToLower(c.Name)] = true
	}
	for _, c := range R.Columns {
		if rightKey[strings.ToLower(c.Name)] {
			continue
		}
		name := c.Name
		for n := 1; used[strings.ToLower(name)]; n++ {
			name = g.Inputs[ri].label() + "_" + c.Name
			if n > 1 {
				name = fmt.Sprintf("%s_%s_%d", g.Inputs[ri].label(), c.Name, n)
			}
		}
		used[strings.ToLower(name)] = true
		q.Select = append(q.Select, planast.SelectItem{Expr: col("r", c.Name), Alias: name})
	}
	return q, nil
}

func keyTypeName(a, b planast.Type) string {
	if t, ok := KeyType(a, b); ok {
		return string(t)
	}
	return "one type"
}

func index(s Shape) map[string]Column {
	m := map[string]Column{}
	for _, c := range s.Columns {
		m[strings.ToLower(c.Name)] = c
	}
	return m
}

// union compiles a union: UNION ALL of the inputs ordered by role rank
// (stable), named by the first input's columns.
func (g Group) union(shapes []Shape) (*planast.Query, error) {
	if len(g.Inputs) < 2 {
		return nil, fmt.Errorf("a union takes at least two inputs, got %d", len(g.Inputs))
	}
	if len(g.Keys) > 0 {
		return nil, fmt.Errorf("a union takes no keys")
	}
	order := make([]int, 0, len(g.Inputs))
	for rank := 0; rank <= 2; rank++ {
		for i, in := range g.Inputs {
			if RoleRank(in.Role) == rank {
				order = append(order, i)
			}
		}
	}
	if len(order) != len(g.Inputs) {
		return nil, fmt.Errorf("every union input needs a role (member, or a join role)")
	}
	if g.LabelColumn != "" && !ValidName(g.LabelColumn) {
		return nil, fmt.Errorf("label_column %q is not an identifier", g.LabelColumn)
	}
	first := shapes[order[0]]
	var q *planast.Query
	for n, i := range order {
		s := shapes[i]
		if len(s.Columns) != len(first.Columns) {
			return nil, fmt.Errorf("union inputs %s and %s have %d and %d columns", g.Inputs[order[0]].label(), g.Inputs[i].label(), len(first.Columns), len(s.Columns))
		}
		part := &planast.Query{From: []planast.From{{Table: s.Name, Alias: "u"}}}
		if g.LabelColumn != "" {
			for _, c := range first.Columns {
				if strings.EqualFold(c.Name, g.LabelColumn) {
					return nil, fmt.Errorf("label_column %q clashes with a column of the inputs", g.LabelColumn)
				}
			}
			part.Select = append(part.Select, planast.SelectItem{Expr: &planast.Literal{Type: planast.TString, Text: g.Inputs[i].label()}, Alias: g.LabelColumn})
		}
		for k, c := range s.Columns {
			part.Select = append(part.Select, planast.SelectItem{Expr: col("u", c.Name), Alias: first.Columns[k].Name})
		}
		if n == 0 {
			q = part
		} else {
			q.SetOps = append(q.SetOps, planast.SetOp{Op: planast.UnionAll, Query: part})
		}
	}
	return q, nil
}
