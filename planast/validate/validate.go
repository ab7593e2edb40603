package validate

import (
	"fmt"
	"github.com/nl2sql/nl2sql/internal/plural"
	. "github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JoinStrictness sets how much the validator asks of join keys.
type JoinStrictness string

// Join strictness levels.
const (
	// JoinTyped accepts any key pair whose types are comparable (default).
	JoinTyped JoinStrictness = "typed"
	// JoinInferable also requires, for two stored tables, a declared foreign
	// key between them or same-named columns or a primary key on one side.
	JoinInferable JoinStrictness = "inferable"
	// JoinDeclared requires a declared foreign key for stored tables.
	JoinDeclared JoinStrictness = "declared"
)

// Options tune Plan.
type Options struct {
	Access          Access         // nil allows everything
	Joins           JoinStrictness // "" means JoinTyped
	ExpectedColumns []string       // when set, the output column names must be exactly these
	MaxIssues       int            // 0 means 20
}

// Result is what a successful validation returns.
type Result struct {
	// Plan is a copy of the input with every table and column name replaced by
	// the catalog's exact spelling, schemas filled in and aliases completed.
	// A column used because it depends on a grouped primary key is added to
	// group_by, as DuckDB needs; the groups stay the same.
	Plan *Query
	// Columns are the output column names and Types their portable types.
	Columns []string
	Types   []Type
	// Warnings are findings that do not stop the plan, each prefixed with
	// its path: a join on key pairs that are no foreign key of the catalog
	// (in either direction) nor a relationship the semantic layer declares
	// (which reach the catalog as foreign keys). Under JoinDeclared such a
	// join is an issue instead.
	Warnings []string
}

// Plan checks q against the catalog and the caller's access, before any
// SQL exists. It never modifies q. On failure it returns *Error listing every
// issue found (up to Options.MaxIssues), each with a code, a path and a
// message the planner can act on; messages never name a table or column the
// Access checker hides. Anything the renderer could refuse, Plan refuses
// first (render's parity test enumerates this).
func Plan(q *Query, cat Catalog, opts Options) (*Result, error) {
	if q == nil {
		return nil, NewError(CodeMalformed, "", "the plan is empty")
	}
	cp, err := Decode(q.Canonical(), Limits{MaxBytes: 1 << 30, MaxNodes: 1 << 30, MaxDepth: 1 << 20})
	if err != nil {
		return nil, err
	}
	if opts.MaxIssues <= 0 {
		opts.MaxIssues = 20
	}
	if opts.Joins == "" {
		opts.Joins = JoinTyped
	}
	v := &validator{cat: cat, opts: opts, dayRules: map[Expr]dayRule{}}
	out := v.query(cp, "", nil, nil, true)
	v.unorderedIssues(cp, "")
	if len(v.issues) > 0 {
		return nil, &Error{Issues: v.issues}
	}
	applyDayRules(cp, v.dayRules)
	v.warnings = append(v.warnings, fanoutWarnings(cp, cat)...)
	v.warnings = append(v.warnings, trapWarnings(cp)...)
	if len(opts.ExpectedColumns) > 0 {
		got := out.names()
		if strings.Join(got, "\x00") != strings.Join(opts.ExpectedColumns, "\x00") {
			return nil, NewError(CodeBadValue, "select", "the plan must return exactly the columns %q, it returns %q", opts.ExpectedColumns, got)
		}
	}
	return &Result{Plan: cp, Columns: out.names(), Types: out.types(), Warnings: v.warnings}, nil
}

// mark counts the problems found so far, the silent ones (references
// through a missing table, reported once at the table) included; checks
// that fire only when an expression raised nothing compare marks.
func (v *validator) mark() int { return len(v.issues) + v.silent }

type validator struct {
	silent int // references through a missing table, not reported again
	cat    Catalog
	opts   Options
	issues []Issue
	// warnings are reported with a valid plan (Result.Warnings).
	warnings []string
	scopes   []scopeFor
	inAgg    int // > 0 inside an aggregate's arguments
	inWin    int // > 0 inside a window's arguments
	// dayRules holds the comparisons of a date with a timestamp, rewritten
	// once the plan is valid (applyDayRules).
	dayRules map[Expr]dayRule
	// resolved maps each column reference to the scope it resolved in.
	resolved map[*Column]*scope
}

func (v *validator) add(code Code, path, format string, args ...any) {
	v.addHint(code, path, "", format, args...)
}

// addHint adds an issue with a hint: what the planner may write instead.
func (v *validator) addHint(code Code, path, hint, format string, args ...any) {
	if len(v.issues) >= v.opts.MaxIssues {
		return
	}
	for _, is := range v.issues {
		if hint != "" && is.Hint == hint { // a long list once per refusal
			hint = "see the hint at " + is.Path
			break
		}
	}
	v.issues = append(v.issues, Issue{Code: code, Path: path, Message: fmt.Sprintf(format, args...), Hint: hint})
}

// relation is the shape of a source or a query's output: named, typed columns.
type relation struct {
	cols []ColumnInfo
}

func (r relation) names() []string {
	out := make([]string, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.Name
	}
	return out
}

func (r relation) types() []Type {
	out := make([]Type, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.Type
	}
	return out
}

func (r relation) column(name string) (ColumnInfo, bool) {
	t := TableInfo{Columns: r.cols}
	return t.Column(name)
}

// source is one FROM item in scope.
type source struct {
	alias  string
	rel    relation
	table  *TableInfo // nil for derived tables and CTEs
	joined bool
	// unknown marks a source whose table was not found (already reported):
	// references through it are not reported again.
	unknown bool
}

// cteEnv holds the CTEs visible at a point, innermost first.
type cteEnv struct {
	parent *cteEnv
	defs   map[string]cteDef // by lower-cased name
	// pending holds the names of this WITH's CTEs not yet defined: the one
	// being checked and those after it. SQLite resolves a CTE body's table
	// names against them (and reports a self-reference as circular) while
	// PostgreSQL and DuckDB read the stored table, so the plan is refused.
	pending map[string]bool
}

type cteDef struct {
	name string
	rel  relation
}

// cteLookup is the outcome of looking a name up among the CTEs.
type cteLookup int

const (
	cteNone    cteLookup = iota // no CTE by that name: a stored table
	cteFound                    // a CTE defined earlier
	ctePending                  // a CTE of an enclosing WITH not defined yet
)

func (e *cteEnv) lookup(name string) (relation, string, cteLookup) {
	key := strings.ToLower(name)
	for c := e; c != nil; c = c.parent {
		if d, ok := c.defs[key]; ok {
			return d.rel, d.name, cteFound
		}
		if c.pending[key] {
			return relation{}, "", ctePending
		}
	}
	return relation{}, "", cteNone
}

// scope is the name environment of one SELECT: its sources, its outer scope
// (for correlated references) and the output aliases ORDER BY may use.
type scope struct {
	parent  *scope
	sources []*source
	outputs []SelectItem
	// selecting holds the select items of the scope's own query, set
	// before they are checked, only so that a reference to one of their
	// aliases where none may stand is told so (column).
	selecting []SelectItem
	// where tells what clause is being checked, for aggregate placement.
	clause string
}

func (s *scope) find(alias string) (*source, bool) {
	for _, src := range s.sources {
		if src.alias == alias {
			return src, true
		}
	}
	for _, src := range s.sources {
		if strings.EqualFold(src.alias, alias) {
			return src, true
		}
	}
	return nil, false
}

// query validates q in a scope whose parent is outer (nil for the root and
// for derived tables, which cannot be correlated). top is true for the
// plan's root and for set-operation branches of the root.
func (v *validator) query(q *Query, path string, outer *scope, ctes *cteEnv, top bool) relation {
	env := &cteEnv{parent: ctes, defs: map[string]cteDef{}, pending: map[string]bool{}}
	for _, c := range q.With {
		env.pending[strings.ToLower(c.Name)] = true
	}
	for i := range q.With {
		c := &q.With[i]
		p := idx(join(path, "with"), i)
		if !validName(c.Name) {
			v.add(CodeBadValue, join(p, "name"), "CTE name %q must be 1-128 characters with no control characters", c.Name)
			continue
		}
		v.readableName("CTE name", c.Name, join(p, "name"))
		if _, dup := env.defs[strings.ToLower(c.Name)]; dup {
			v.add(CodeDuplicateAlias, join(p, "name"), "CTE %q is defined twice", c.Name)
			continue
		}
		rel := v.query(c.Query, join(p, "query"), nil, env, false)
		delete(env.pending, strings.ToLower(c.Name))
		env.defs[strings.ToLower(c.Name)] = cteDef{c.Name, rel}
	}
	rel := v.selectCore(q, path, outer, env)
	v.typedOutputs(q, path, rel, top)
	decimals := make([]int, len(rel.cols))
	for k, c := range rel.cols {
		decimals[k] = countOf(c.Type, TypeDecimal)
	}
	for i := range q.SetOps {
		s := &q.SetOps[i]
		p := idx(join(path, "set_ops"), i)
		r := s.Query
		if len(r.With) > 0 || len(r.SetOps) > 0 || len(r.OrderBy) > 0 || r.Limit != nil || r.Offset != nil {
			v.add(CodeSetOp, join(p, "query"), "a set operation's right-hand query may not have with, set_ops, order_by, limit or offset; put order_by and limit on the outer query")
		}
		rr := v.selectCore(r, join(p, "query"), outer, env)
		v.typedOutputs(r, join(p, "query"), rr, false)
		if len(rr.cols) != len(rel.cols) {
			v.add(CodeSetOp, join(p, "query.select"), "both sides of %s must select the same number of columns (%d vs %d)", s.Op, len(rel.cols), len(rr.cols))
			continue
		}
		for k := range rel.cols {
			if _, _, _, ok := v.coerce(nil, rel.cols[k].Type, nil, rr.cols[k].Type); !ok {
				v.add(CodeType, idx(join(p, "query.select"), k), "column %d is %s on the left of %s but %s on the right", k+1, rel.cols[k].Type, s.Op, rr.cols[k].Type)
			}
			decimals[k] += countOf(rr.cols[k].Type, TypeDecimal)
		}
	}
	q.Decimals = nil
	for k, n := range decimals {
		if n >= 2 && len(q.SetOps) > 0 {
			if q.Decimals == nil {
				q.Decimals = make([]bool, len(decimals))
			}
			q.Decimals[k] = true
		}
	}
	v.orderLimit(q, path, rel, outer, env)
	v.qualifyTies(q, path, rel, outer, env)
	_ = top
	return rel
}

// typedOutputs refuses output columns that are an untyped NULL in a
// subquery, CTE, derived table or set operation branch: PostgreSQL makes
// them text, which then fails against numbers and dates.
func (v *validator) typedOutputs(q *Query, path string, rel relation, top bool) {
	if top && len(q.SetOps) == 0 {
		return
	}
	for i, c := range rel.cols {
		if c.Type != TypeUnknown || i >= len(q.Select) {
			continue
		}
		p := join(idx(join(path, "select"), i), "expr")
		if lit, ok := q.Select[i].Expr.(*Literal); ok && lit.Type == TNull || !v.hasIssueUnder(p) {
			v.nullOperand(p, "this output column")
		}
	}
}

// selectCore checks one SELECT without its set operations, ORDER BY and LIMIT,
// and returns its output relation. It leaves the scope it built on q for
// orderLimit through v.lastScope.
func (v *validator) selectCore(q *Query, path string, outer *scope, env *cteEnv) relation {
	sc := &scope{parent: outer}
	if len(q.From) == 0 && (len(q.Joins) > 0 || len(q.GroupBy) > 0 || q.Having != nil) {
		v.add(CodeMalformed, join(path, "from"), "a query without sources may not have joins, group_by or having")
	}
	for i := range q.From {
		f := &q.From[i]
		p := idx(join(path, "from"), i)
		src := v.from(f, p, env)
		if src == nil {
			continue
		}
		if _, dup := sc.find(f.Alias); dup {
			v.add(CodeDuplicateAlias, join(p, "alias"), "alias %q is used twice in one query; give each source its own alias", f.Alias)
			continue
		}
		sc.sources = append(sc.sources, src)
	}
	v.joins(q, path, sc, env)
	v.groupByAliases(q, path, sc)
	v.havingAliases(q, path, sc)
	sc.selecting = q.Select
	sc.clause = "where"
	if q.Where != nil {
		t := v.expr(q.Where, join(path, "where"), sc, env)
		v.wantBool(t, join(path, "where"))
	}
	sc.clause = "group_by"
	for i, g := range q.GroupBy {
		if Constant(g) {
			// engines read GROUP BY 2 as a column position and refuse GROUP BY 'x'
			v.add(CodeGrouping, idx(join(path, "group_by"), i), "group_by needs a column or expression, not a constant")
			continue
		}
		v.expr(g, idx(join(path, "group_by"), i), sc, env)
	}
	sc.clause = "select"
	var out relation
	seen := map[string]bool{}
	if len(q.Select) == 0 {
		v.add(CodeEmptySelect, join(path, "select"), "a query must select at least one column")
	}
	for i := range q.Select {
		it := &q.Select[i]
		p := idx(join(path, "select"), i)
		t := v.expr(it.Expr, join(p, "expr"), sc, env)
		if it.Alias == "" {
			if c, ok := it.Expr.(*Column); ok {
				it.Alias = c.Column
			} else {
				v.add(CodeMalformed, join(p, "alias"), "a computed select item needs an alias")
				it.Alias = fmt.Sprintf("column_%d", i+1)
			}
		}
		if !validName(it.Alias) {
			v.add(CodeBadValue, join(p, "alias"), "alias %q must be 1-128 characters with no control characters", it.Alias)
		} else {
			v.readableName("alias", it.Alias, join(p, "alias"))
		}
		if seen[strings.ToLower(it.Alias)] {
			v.add(CodeDuplicateAlias, join(p, "alias"), "output column %q appears twice; give each select item its own alias", it.Alias)
		}
		seen[strings.ToLower(it.Alias)] = true
		// a derived table or CTE column keeps its source's lack of an
		// ordering, so an outer order_by, group_by or distinct on it is
		// refused like one on the column itself
		out.cols = append(out.cols, ColumnInfo{Name: it.Alias, Type: t, Unordered: unorderedExpr(it.Expr)})
	}
	sc.clause = "having"
	if q.Having != nil {
		t := v.expr(q.Having, join(path, "having"), sc, env)
		v.wantBool(t, join(path, "having"))
	}
	sc.outputs = q.Select
	v.grouping(q, path, sc)
	v.scopes = append(v.scopes, scopeFor{q, sc})
	return out
}

type scopeFor struct {
	q  *Query
	sc *scope
}

func (v *validator) scopeOf(q *Query) *scope {
	for i := len(v.scopes) - 1; i >= 0; i-- {
		if v.scopes[i].q == q {
			return v.scopes[i].sc
		}
	}
	return &scope{}
}

func (v *validator) orderLimit(q *Query, path string, rel relation, outer *scope, env *cteEnv) {
	sc := v.scopeOf(q)
	compound := len(q.SetOps) > 0
	for i := range q.OrderBy {
		o := &q.OrderBy[i]
		p := join(idx(join(path, "order_by"), i), "expr")
		if c, ok := o.Expr.(*Column); ok && c.Table == "" {
			if col, ok := rel.column(c.Column); ok {
				c.Column, c.Unordered, c.Money, c.AsText, c.Scale = col.Name, col.Unordered, col.Money, col.AsText, col.Scale
				continue // an output alias
			}
		}
		if compound {
			v.add(CodeOrder, p, "order_by of a query with set operations may only name output columns by their alias (%s)", strings.Join(rel.names(), ", "))
			continue
		}
		if Constant(o.Expr) {
			// engines read ORDER BY 2 (and PostgreSQL ORDER BY -2) as a column
			// position, and PostgreSQL refuses ORDER BY 'x'
			v.add(CodeOrder, p, "order_by needs a column, an output alias or an expression, not a constant")
			continue
		}
		if !groups(q) && hasAggregate(&Query{OrderBy: []OrderItem{*o}}) {
			// PostgreSQL would group the whole query; SQLite refuses
			v.add(CodeGrouping, p, "order_by may use an aggregate only when the query has group_by or an aggregate in select")
			continue
		}
		sc.clause = "order_by"
		v.expr(o.Expr, p, sc, env)
		if q.Distinct && !inSelect(o.Expr, q.Select) {
			v.add(CodeOrder, p, "with distinct, order_by may only use selected expressions; select it or order by an output alias")
		}
		if len(q.GroupBy) > 0 || hasAggregate(q) {
			v.groupedRef(o.Expr, p, q, sc)
		}
	}
	if q.Limit != nil && *q.Limit < 0 {
		v.add(CodeLimit, join(path, "limit"), "limit must be zero or more, got %d", *q.Limit)
	}
	if q.Offset != nil {
		if *q.Offset < 0 {
			v.add(CodeLimit, join(path, "offset"), "offset must be zero or more, got %d", *q.Offset)
		}
		if len(q.OrderBy) == 0 {
			v.add(CodeOrder, join(path, "offset"), "offset needs an order_by, or the rows it skips are arbitrary")
		}
	}
}

func (v *validator) from(f *From, path string, env *cteEnv) *source {
	if !validName(f.Alias) {
		v.add(CodeBadValue, join(path, "alias"), "alias %q must be 1-128 characters with no control characters", f.Alias)
		return nil
	}
	v.readableName("alias", f.Alias, join(path, "alias"))
	if f.Subquery != nil {
		rel := v.query(f.Subquery, join(path, "subquery"), nil, env, false)
		return &source{alias: f.Alias, rel: rel}
	}
	if f.Schema == "" {
		switch rel, name, st := env.lookup(f.Table); st {
		case cteFound:
			f.Table = name
			return &source{alias: f.Alias, rel: rel}
		case ctePending:
			v.add(CodeTableNotFound, join(path, "table"), "%q names a CTE that is not defined yet here; a CTE may only read CTEs defined before it (recursive CTEs are not supported)", Truncate(f.Table, 128))
			return nil
		}
	}
	if !validName(f.Table) || (f.Schema != "" && !validName(f.Schema)) {
		v.add(CodeTableNotFound, join(path, "table"), "there is no table named %q", Truncate(f.Table, 128))
		return &source{alias: f.Alias, unknown: true}
	}
	t, ok := v.cat.LookupTable(f.Schema, f.Table)
	if ok && v.opts.Access != nil && !v.opts.Access.AllowTable(t.Schema, t.Name) {
		ok = false
	}
	if !ok {
		visible := v.visibleTables()
		if same := sameNamed(visible, f.Table); f.Schema == "" && len(same) > 1 {
			where := "a table in several schemas"
			if caseOnly(same) {
				where = "several tables whose names differ only in letter case"
			}
			v.add(CodeAmbiguousTable, join(path, "table"), "%q names %s: %s; write the one meant as it is listed (\"table\": %q)",
				Truncate(f.Table, 128), where, quotedList(same), same[0])
			return &source{alias: f.Alias, unknown: true}
		}
		if u, ok := v.cat.(unreadableCatalog); ok {
			if sch, name, ok := u.UnreadableRelation(f.Schema, f.Table); ok && (v.opts.Access == nil || v.opts.Access.AllowTable(sch, name)) {
				role, to := "the database role the server connects as", "that role"
				if r := u.ReadingRole(); r != "" {
					// the administrator grants to a role by name
					role, to = fmt.Sprintf("the database role %s the server connects as", render.GrantName(r)), render.GrantName(r)
				}
				v.add(CodeTableNotFound, join(path, "table"), "table %q exists, but %s may not read it (no SELECT privilege): an administrator can GRANT SELECT ON %s TO %s, and the server reads the schema again within seconds",
					qualified(sch, name), role, qualified(sch, name), to)
				return &source{alias: f.Alias, unknown: true}
			}
		}
		msg := fmt.Sprintf("there is no table named %q", qualified(f.Schema, f.Table))
		if near := Nearest(f.Table, visible); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		} else if len(visible) > 0 {
			msg += "; its tables are " + quotedList(visible)
		} else {
			msg += "; use a table from the schema you were given"
		}
		v.add(CodeTableNotFound, join(path, "table"), "%s", msg)
		return &source{alias: f.Alias, unknown: true}
	}
	f.Schema, f.Table = t.Schema, t.Name
	var rel relation
	for _, c := range t.Columns {
		if v.opts.Access == nil || v.opts.Access.AllowColumn(t.Schema, t.Name, c.Name) {
			rel.cols = append(rel.cols, c)
		}
	}
	return &source{alias: f.Alias, rel: rel, table: t}
}

// sameNamed lists the tables of names (as plans name them, schema.name
// outside the default schema) whose own name is name.
// caseOnly reports whether names are one name in several letter cases
// (one schema's "Accounts" and "accounts"), not names in several schemas.
func caseOnly(names []string) bool {
	for _, n := range names[1:] {
		if !strings.EqualFold(n, names[0]) {
			return false
		}
	}
	return true
}

func sameNamed(names []string, name string) []string {
	var out []string
	for _, n := range names {
		if strings.EqualFold(n, name) || strings.HasSuffix(strings.ToLower(n), "."+strings.ToLower(name)) {
			out = append(out, n)
		}
	}
	return out
}

func qualified(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// validName accepts names a renderer can always quote: non-empty, at most
// 128 bytes, no control characters. Quotes are fine: renderers double them.
func validName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

func (v *validator) joins(q *Query, path string, sc *scope, env *cteEnv) {
	if len(sc.sources) == 0 {
		return
	}
	if len(q.From) > 0 {
		if s, ok := sc.find(q.From[0].Alias); ok {
			s.joined = true
		}
	}
	for i := range q.Joins {
		j := &q.Joins[i]
		p := idx(join(path, "joins"), i)
		left, lok := sc.find(j.Left)
		right, rok := sc.find(j.Right)
		if !lok {
			v.add(CodeAliasNotFound, join(p, "left"), "join left %q is not an alias declared in from", j.Left)
		}
		if !rok {
			v.add(CodeAliasNotFound, join(p, "right"), "join right %q is not an alias declared in from", j.Right)
		}
		if !lok || !rok {
			continue
		}
		j.Left, j.Right = left.alias, right.alias
		if left == right {
			v.add(CodeBadJoin, p, "a join needs two different aliases")
			continue
		}
		if !left.joined {
			v.add(CodeBadJoin, join(p, "left"), "join left %q must be the first from item or the right side of an earlier join", j.Left)
		}
		if right.joined {
			v.add(CodeBadJoin, join(p, "right"), "%q is already part of the join tree; each from item after the first is the right side of exactly one join", j.Right)
		}
		right.joined = true
		if len(j.On) == 0 && j.Condition == nil {
			v.add(CodeBadJoin, join(p, "on"), "a join needs at least one key pair in on (or a condition)")
		}
		if len(j.On) == 0 && j.Type == JoinFull {
			// PostgreSQL runs a full join only on equality keys
			v.add(CodeBadJoin, join(p, "on"), "a full join needs at least one key pair in on")
		}
		if j.Type != JoinInner && j.Condition != nil && hasSubquery(j.Condition) {
			// DuckDB: "Cannot perform non-inner join on subquery"
			v.add(CodeBadJoin, join(p, "condition"), "the condition of a %s join may not hold a subquery; use an inner join or filter in where", j.Type)
		}
		// the key pairs are checked against the whole join, condition
		// included, once the condition's names are resolved
		var keyed [][3]string
		for k := range j.On {
			pair := &j.On[k]
			pp := idx(join(p, "on"), k)
			if left.unknown || right.unknown {
				continue // the missing table was reported already
			}
			lc, lok := left.rel.column(pair.LeftColumn)
			rc, rok := right.rel.column(pair.RightColumn)
			if !lok {
				v.noColumn(join(pp, "left_column"), left, pair.LeftColumn)
			}
			if !rok {
				v.noColumn(join(pp, "right_column"), right, pair.RightColumn)
			}
			if !lok || !rok {
				continue
			}
			pair.LeftColumn, pair.RightColumn = lc.Name, rc.Name
			pair.Left, pair.Right = nil, nil
			if lc.AsText != rc.AsText || lc.Money != rc.Money {
				pair.Left = &Column{Table: left.alias, Column: lc.Name, AsText: lc.AsText, Money: lc.Money}
				pair.Right = &Column{Table: right.alias, Column: rc.Name, AsText: rc.AsText, Money: rc.Money}
			}
			if lc.Unordered || rc.Unordered {
				v.addHint(CodeType, pp, unorderedHint, "cannot join on %s.%s = %s.%s: a type without an ordering (json, xml or a geometric type) has no equality", left.alias, lc.Name, right.alias, rc.Name)
				continue
			}
			if _, _, _, ok := v.coerce(nil, lc.Type, nil, rc.Type); !ok {
				msg := fmt.Sprintf("cannot join %s.%s (%s) with %s.%s (%s)", left.alias, lc.Name, lc.Type, right.alias, rc.Name, rc.Type)
				if h := castJoinHint(left.alias, lc, right.alias, rc); h != "" {
					v.addHint(CodeType, pp, h, "%s: the stored types differ (a key declared on columns of different types)", msg)
				} else {
					v.add(CodeType, pp, "%s", msg)
				}
				continue
			}
			keyed = append(keyed, [3]string{lc.Name, rc.Name, pp})
		}
		if j.Condition != nil {
			// The condition sees the sources joined so far and the outer
			// scopes, as SQL does: not sources joined later.
			jsc := &scope{parent: sc.parent, clause: "join"}
			for _, s := range sc.sources {
				if s.joined {
					jsc.sources = append(jsc.sources, s)
				}
			}
			t := v.expr(j.Condition, join(p, "condition"), jsc, env)
			v.wantBool(t, join(p, "condition"))
			if j.Type != JoinInner && v.usesOuter(j.Condition, jsc) {
				// DuckDB: "Non-inner join on correlated columns not supported"
				v.add(CodeBadJoin, join(p, "condition"), "the condition of a %s join may use only the joined sources, not columns of an outer query", j.Type)
			}
		}
		for _, k := range keyed {
			v.joinKeyCheck(j, left, right, k[0], k[1], k[2])
		}
	}
	for _, s := range sc.sources {
		if !s.joined {
			v.add(CodeNotJoined, join(path, "from"), "%q is declared in from but no join connects it; add a join with key pairs or remove it", s.alias)
		}
	}
}

// usesOuter reports whether e references a column resolved outside sc.
func (v *validator) usesOuter(e Expr, sc *scope) bool {
	outer := false
	Inspect(e, func(n Node) bool {
		if c, ok := n.(*Column); ok && v.resolved[c] != nil && v.resolved[c] != sc {
			outer = true
		}
		return !outer
	})
	return outer
}

func hasSubquery(e Expr) bool {
	found := false
	Inspect(e, func(n Node) bool {
		if _, ok := n.(*Query); ok {
			found = true
		}
		return !found
	})
	return found
}

func (v *validator) joinKeyCheck(j *Join, left, right *source, lcol, rcol, path string) {
	if left.table == nil || right.table == nil {
		return // a CTE or derived table declares no keys
	}
	if fkBetween(left.table, right.table, lcol, rcol) || fkBetween(right.table, left.table, rcol, lcol) || sameFKTarget(left.table, right.table, lcol, rcol) {
		return
	}
	if v.opts.Joins != JoinDeclared && (namedKey(left.table, right.table, lcol, rcol) || documented(left.table, lcol, right.table, rcol) || documented(right.table, rcol, left.table, lcol)) {
		// races.circuitId to circuits.circuitId is how a schema that
		// declares no keys relates its tables; a warning on every such
		// join teaches a planner to ignore warnings
		return
	}
	if v.opts.Joins != JoinDeclared && (namesTarget(left.table, lcol, right.table, rcol) || namesTarget(right.table, rcol, left.table, lcol)) {
		return // subscriptions.currency to fx_rates.ccy, whose foreign key references currencies
	}
	if v.opts.Joins != JoinDeclared && lookupJoin(j, left.table, right.table, lcol, rcol) {
		return // a rate table joined on its whole key, a code no foreign key declares
	}
	if v.opts.Joins == JoinTyped || v.opts.Joins == JoinInferable && (strings.EqualFold(lcol, rcol) || isPK(left.table, lcol) || isPK(right.table, rcol)) {
		v.warnings = append(v.warnings, fmt.Sprintf("%s: no foreign key or declared relationship joins %s.%s to %s.%s; check that these are the keys the tables are related by", path, left.alias, lcol, right.alias, rcol))
		return
	}
	v.add(CodeBadJoin, path, "no declared relationship joins %s.%s to %s.%s; join on the foreign keys the schema lists", left.alias, lcol, right.alias, rcol)
}

// unreadableCatalog is a catalog that knows the relations the database
// role may not read (schema.Snapshot): a plan naming one is told it
// exists, where the caller's access allows the table, rather than that
// there is no such table.
type unreadableCatalog interface {
	UnreadableRelation(schema, name string) (schemaName, table string, ok bool)
	// ReadingRole is the database role the catalog was read as, "" when
	// unknown: what to grant names it.
	ReadingRole() string
}

// namedKey reports whether exactly one of acol and bcol is its table's
// key (keyOf) and the other is named after it: the same name
// (races.circuitId, circuits.circuitId) or for the keyed table's row
// (namedFor: order_items.product_id or ProductId to products.id,
// shipments.origin_warehouse_id to warehouses.warehouse_id,
// subscriptions.currency to currencies.ccy_code). Two keys of
// one name (orders.id, customers.id) pair rows by accident, as two
// columns that are no key do.
func namedKey(a, b *TableInfo, acol, bcol string) bool {
	switch {
	case keyOf(a, acol) == keyOf(b, bcol):
		return false
	case strings.EqualFold(acol, bcol):
		return true
	case keyOf(b, bcol):
		return namedFor(acol, b.Name)
	}
	return namedFor(bcol, a.Name)
}

// lookupJoin reports whether the pair lcol = rcol of join j (l its left
// table, r its right) reads one side as a lookup table: a rate or code
// table whose key is a code, which no foreign key declares (currency is
// no row of a table). A pair of j is of one name or holds keys of one
// table (related: subscriptions.currency = fx_rates.ccy, a foreign key
// to currencies), the other pairs need not be (billing_month =
// rate_month beside it); j's key on that side (joinKey: its on-pairs and
// the columns its condition pins, fx_rates.rate_month equated with the
// invoice's month or a date) covers a whole key the side declares
// (keyCovers), so each row of the other side meets at most one of its
// rows; the pair's own column on that side belongs to one of its keys
// (amount = usd_per_unit beside the whole key looks nothing up); and no
// on-pair column of the other side is that side's own key: customers.id
// = orders.id covers orders' key too, and pairs rows by accident. A
// table that declares no key says nothing of which columns are one: the
// note stays (the fan-out probe of a run counts rows per key only for an
// aggregate it may inflate, after validation has worded its notes).
func lookupJoin(j *Join, l, r *TableInfo, lcol, rcol string) bool {
	if slices.ContainsFunc(j.On, func(p OnPair) bool { return related(l, r, p.LeftColumn, p.RightColumn) }) {
		return lookupKey(j, l, r, lcol, rcol)
	}
	if !slices.ContainsFunc(j.On, func(p OnPair) bool { return strings.EqualFold(p.LeftColumn, p.RightColumn) }) {
		return false // a documented pair was exempted before
	}
	return lookupKey(j, l, r, lcol, rcol)
}

// related reports whether acol of a and bcol of b hold keys of one table,
// declared so (sameFKTarget) or named so (namesTarget): such a pair says
// which code of a rate table a row means, and another pair or the
// condition may hold the rest of its key (fx_rates on ccy, a foreign key
// to currencies, and on rate_month = billing_month). A pair on a whole key
// (a foreign key to it, a column named for its row) covers it alone and
// leaves another pair beside it, and a pair only a comment relates is no
// such evidence.
func related(a, b *TableInfo, acol, bcol string) bool {
	return sameFKTarget(a, b, acol, bcol) || namesTarget(a, acol, b, bcol) || namesTarget(b, bcol, a, acol)
}

// lookupKey is lookupJoin's test of j's key: it covers a whole key of one
// side, the pair lcol = rcol is part of one of that side's keys, and j
// pairs no column that is the other side's own key.
func lookupKey(j *Join, l, r *TableInfo, lcol, rcol string) bool {
	lookup := func(t, other *TableInfo, right bool) bool {
		if !keyCovers(t, joinKey(j, right)) {
			return false
		}
		col := lcol
		if right {
			col = rcol
		}
		if !slices.ContainsFunc(t.Keys(), func(k []string) bool {
			return slices.ContainsFunc(k, func(c string) bool { return strings.EqualFold(c, col) })
		}) {
			return false // a pair beside the key it covers looks nothing up
		}
		for _, p := range j.On {
			c := p.RightColumn
			if right {
				c = p.LeftColumn
			}
			if keyOf(other, c) {
				return false
			}
		}
		return true
	}
	return lookup(r, l, true) || lookup(l, r, false)
}

// namesTarget reports whether acol of a is named for the table (namedFor)
// that bcol of b references by a declared foreign key of its own
// (subscriptions.currency and fx_rates.ccy, a foreign key to
// currencies.ccy_code): both hold that table's keys, as two foreign keys
// to it would. A column of the referenced table itself does not count
// (countries.country beside a foreign key to countries.code): the foreign
// key names which of its columns is meant.
func namesTarget(a *TableInfo, acol string, b *TableInfo, bcol string) bool {
	for _, fk := range b.ForeignKeys {
		if len(fk.Columns) != 1 || fk.Columns[0] != bcol {
			continue // a column of a composite key is no row's key alone
		}
		if strings.EqualFold(fk.RefTable, a.Name) && (fk.RefSchema == "" || a.Schema == "" || strings.EqualFold(fk.RefSchema, a.Schema)) {
			continue
		}
		if namedFor(acol, fk.RefTable) {
			return true
		}
	}
	return false
}

// namedFor reports whether col is named for a row of table: for its row's
// id (namesRowOf, after a role or not) or as the table itself, singular or
// plural, case and underscores aside, after a role as a word of its own
// (currency, Currency, billing_currency or BillingCurrency for currencies;
// not currency_name, nor billingcurrency, whose words cannot be told).
func namedFor(col, table string) bool {
	if namesRowOf(col, table, true) {
		return true
	}
	flat := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	t := flat(table)
	for i, ch := range col {
		prev, _ := utf8.DecodeLastRuneInString(col[:i])
		word := i == 0 || prev == '_' || unicode.IsUpper(ch) && unicode.IsLower(prev)
		if c := flat(col[i:]); word && c != "" && (c == t || c == plural.Singular(t)) {
			return true
		}
	}
	return false
}

// documented reports whether the comment of a's column acol names the
// column bcol of b, or b itself, as the row it refers to
// (meter_reads.replaces_read_id: "the read_id it replaces";
// credit_notes.invoice_no: "the invoice credited"): the schema's own words
// relate them where it declares no key.
func documented(a *TableInfo, acol string, b *TableInfo, bcol string) bool {
	c, ok := a.Column(acol)
	if !ok || c.Comment == "" {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(c.Comment), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	table := strings.ToLower(b.Name)
	return slices.ContainsFunc(words, func(w string) bool {
		return w == strings.ToLower(bcol) || w == table || w == plural.Singular(table)
	})
}

// keyOf reports whether col is t's key: its declared primary key or, in a
// table that declares none (DuckDB files and tables loaded from files
// often declare nothing), a column named "id" or for one row of the table
// (customers.customer_id).
func keyOf(t *TableInfo, col string) bool {
	if len(t.PrimaryKey) > 0 {
		return isPK(t, col)
	}
	return strings.EqualFold(col, "id") || namesRowOf(col, t.Name, false)
}

// namesRowOf reports whether col is named for one row of table: its
// singular (or its name) followed by "id", case and underscores aside,
// and with role, after a word that says which (origin_warehouse_id).
func namesRowOf(col, table string, role bool) bool {
	flat := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	c, t := flat(col), flat(table)
	for _, row := range []string{plural.Singular(t) + "id", t + "id"} {
		if c == row || role && len(row) >= 5 && len(c) > len(row) && strings.HasSuffix(c, row) {
			return true
		}
	}
	return false
}

func fkBetween(a, b *TableInfo, acol, bcol string) bool {
	for _, fk := range a.ForeignKeys {
		if !strings.EqualFold(fk.RefTable, b.Name) {
			continue
		}
		for i := range fk.Columns {
			if i < len(fk.RefColumns) && fk.Columns[i] == acol && fk.RefColumns[i] == bcol {
				return true
			}
		}
	}
	return false
}

// sameFKTarget reports whether acol and bcol are foreign keys to the same
// key (inventory.film_id and film_category.film_id, both to film.film_id):
// two rows referring to one row are related by declaration.
func sameFKTarget(a, b *TableInfo, acol, bcol string) bool {
	for _, ra := range fkTargets(a, acol) {
		for _, rb := range fkTargets(b, bcol) {
			if ra == rb {
				return true
			}
		}
	}
	return false
}

// fkTargets lists the schema.table.column keys col references, lowercased
// where names compare case-insensitively.
func fkTargets(t *TableInfo, col string) []string {
	var out []string
	for _, fk := range t.ForeignKeys {
		for i := range fk.Columns {
			if i < len(fk.RefColumns) && fk.Columns[i] == col {
				out = append(out, strings.ToLower(fk.RefSchema)+"."+strings.ToLower(fk.RefTable)+"."+fk.RefColumns[i])
			}
		}
	}
	return out
}

func isPK(t *TableInfo, col string) bool {
	return len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == col
}

func (v *validator) wantBool(t Type, path string) {
	if t != TypeBoolean && t != TypeUnknown {
		// PostgreSQL and DuckDB take no integer for a condition, SQLite does
		v.add(CodeType, path, "this condition is %s, not a true/false expression; compare it (x <> 0)", t)
	}
}

// sortedKeys returns a map's keys in order, for deterministic messages.
func sortedKeys[M ~map[string]V, V any](m M) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TableLister is an optional Catalog extension listing table names, used
// to suggest the closest table (or list them) when a plan names a missing
// one.
type TableLister interface {
	TableNames() []string
}

// visibleTables are the catalog's table names the caller may read, for
// a missing table's suggestion (Nearest) or list; nil when the catalog
// does not list them.
func (v *validator) visibleTables() []string {
	tl, ok := v.cat.(TableLister)
	if !ok {
		return nil
	}
	var visible []string
	for _, cand := range tl.TableNames() {
		if v.opts.Access != nil {
			if t, ok := v.cat.LookupTable("", cand); !ok || !v.opts.Access.AllowTable(t.Schema, t.Name) {
				continue
			}
		}
		visible = append(visible, cand)
	}
	return visible
}
