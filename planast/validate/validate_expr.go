package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	. "github.com/nl2sql/nl2sql/planast"
)

// expr checks e in scope sc and returns its portable type (TypeUnknown when
// it cannot be known, e.g. NULL or after an error already reported).
func (v *validator) expr(e Expr, path string, sc *scope, env *cteEnv) Type {
	switch e := e.(type) {
	case nil:
		v.add(CodeMalformed, path, "an expression is missing")
		return TypeUnknown
	case *Column:
		return v.column(e, path, sc)
	case *Literal:
		switch e.Type {
		case TString:
			return TypeText
		case TInteger:
			return TypeInteger
		case TDecimal:
			return TypeDecimal
		case TBoolean:
			return TypeBoolean
		case TDate:
			return TypeDate
		case TTimestamp:
			return TypeTimestamp
		}
		return TypeUnknown
	case *Binary:
		e.Temporal = "" // the validator's mark alone counts (temporalOf)
		e.Numeric, e.DecimalProduct, e.ExactDiv = "", false, false
		n0 := v.mark()
		l := v.expr(e.Left, join(path, "left"), sc, env)
		r := v.expr(e.Right, join(path, "right"), sc, env)
		untyped := v.mark() == n0 && l == TypeUnknown && r == TypeUnknown
		switch e.Op {
		case OpAnd, OpOr:
			v.wantBool(l, join(path, "left"))
			v.wantBool(r, join(path, "right"))
			return TypeBoolean
		case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
			l = dateText(&e.Left, l, r)
			r = dateText(&e.Right, r, l)
			if dayPair(l, r) {
				v.dayRules[e] = dayRule{x: l, items: []Type{r}}
				return TypeBoolean
			}
			if l2, r2, hint, ok := v.coerce(&e.Left, l, &e.Right, r); !ok {
				if nh := nestedHint(l, r); hint == "" && nh != "" {
					v.addHint(CodeType, path, nh[2:], "cannot compare %s with %s", l, r)
				} else if th := textNumberHint(e.Op, e.Left, l, e.Right, r); hint == "" && th != "" {
					v.addHint(CodeType, path, th, "cannot compare %s with %s", l, r)
				} else if hint == "" && (l.IsNumeric() && r.IsTemporal() || l.IsTemporal() && r.IsNumeric()) {
					// a number compared with a date is most often a Unix time
					v.addHint(CodeType, path, "if the number is seconds since 1970 (Unix time), compare FROM_EPOCH_SECONDS(x) (of milliseconds: x / 1000); else cast one side", "cannot compare %s with %s", l, r)
				} else {
					v.add(CodeType, path, "cannot compare %s with %s%s", l, r, orHint(hint, "; cast one side or compare with a value of the column's type"))
				}
			} else {
				e.Temporal = temporalOf(l2, r2)
				floatSide(&e.Left, l, r)
				floatSide(&e.Right, r, l)
			}
			return TypeBoolean
		}
		for _, side := range []struct {
			t Type
			p string
		}{{l, "left"}, {r, "right"}} {
			switch {
			case side.t == TypeUnknown:
			case !side.t.IsNumeric():
				v.add(CodeType, join(path, side.p), "arithmetic %q needs numbers, this is %s (for the time between two dates or timestamps use ELAPSED_SECONDS(end, start), or DATE_DIFF_DAYS(end, start) for calendar days; DATE_ADD to shift a date; CAST for text)", e.Op, side.t)
			case e.Op == OpMod && side.t != TypeInteger:
				// SQLite truncates both operands to integers, PostgreSQL keeps
				// the fraction and has no %% for floats: only integers agree.
				v.add(CodeType, join(path, side.p), "%% needs integers, this is %s; cast it to integer first", side.t)
			}
		}
		if untyped {
			v.untypedOperand(path, e.Op, e.Left, e.Right)
		}
		e.Numeric = arithType(e.Op, l, r)
		e.DecimalProduct = e.Op == OpMul && l == TypeDecimal && r == TypeDecimal
		e.ExactDiv = e.Op == OpIDiv && l == TypeInteger && r == TypeInteger
		return e.Numeric
	case *Unary:
		n0 := v.mark()
		t := v.expr(e.Expr, join(path, "expr"), sc, env)
		e.Numeric = ""
		if e.Op == "-" && t.IsNumeric() {
			e.Numeric = t
		}
		if e.Op == "not" {
			v.wantBool(t, join(path, "expr"))
			return TypeBoolean
		}
		if t == TypeUnknown && v.mark() == n0 {
			v.untypedOperand(path, "unary minus", e.Expr)
		}
		if t != TypeUnknown && !t.IsNumeric() {
			v.add(CodeType, join(path, "expr"), "unary minus needs a number, this is %s", t)
		}
		return t
	case *In:
		t := v.expr(e.Expr, join(path, "expr"), sc, env)
		items, mixed := make([]Type, len(e.List)), false
		for i, x := range e.List {
			xt := v.expr(x, idx(join(path, "list"), i), sc, env)
			if xt = dateText(&e.List[i], xt, t); dayPair(t, xt) {
				items[i], mixed = xt, true
				continue
			}
			nt, xt2, hint, ok := v.coerce(&e.Expr, t, &e.List[i], xt)
			if !ok {
				v.add(CodeType, idx(join(path, "list"), i), "cannot compare %s with %s in an IN list%s", t, xt, hint)
			}
			t, items[i] = nt, xt2
		}
		e.Temporal = ""
		if !mixed && e.List != nil {
			ps, ts := []*Expr{&e.Expr}, []Type{t}
			for i := range e.List {
				ps, ts = append(ps, &e.List[i]), append(ts, items[i])
			}
			floatAll(ps, ts)
		}
		if mixed {
			v.dayRules[e] = dayRule{x: t, items: items}
		} else if e.List != nil {
			for _, it := range items {
				if e.Temporal = temporalOf(t, it); e.Temporal == "" {
					break
				}
			}
		}
		if e.Subquery != nil {
			rel := v.subquery(e.Subquery, join(path, "subquery"), sc, env)
			if len(rel.cols) != 1 {
				v.add(CodeArity, join(path, "subquery"), "an IN subquery must select exactly one column, it selects %d", len(rel.cols))
			} else if _, _, hint, ok := v.coerce(&e.Expr, t, nil, rel.cols[0].Type); !ok {
				v.add(CodeType, join(path, "subquery"), "cannot compare %s with the subquery's %s%s", t, rel.cols[0].Type, hint)
			} else {
				floatSubquery(e, t, rel.cols[0].Type)
			}
		}
		return TypeBoolean
	case *Exists:
		v.subquery(e.Subquery, join(path, "subquery"), sc, env)
		return TypeBoolean
	case *Subquery:
		rel := v.subquery(e.Query, join(path, "query"), sc, env)
		if len(rel.cols) != 1 {
			v.add(CodeArity, join(path, "query"), "a scalar subquery must select exactly one column, it selects %d", len(rel.cols))
			return TypeUnknown
		}
		return rel.cols[0].Type
	case *Between:
		e.Temporal = ""
		t := v.expr(e.Expr, join(path, "expr"), sc, env)
		lo := v.expr(e.Low, join(path, "low"), sc, env)
		hi := v.expr(e.High, join(path, "high"), sc, env)
		lo, hi = dateText(&e.Low, lo, t), dateText(&e.High, hi, t)
		t0 := t
		ok1, ok2 := true, true
		var hint1, hint2 string
		if !dayPair(t, lo) {
			t, lo, hint1, ok1 = v.coerce(&e.Expr, t, &e.Low, lo)
		}
		if !dayPair(t, hi) {
			_, hi, hint2, ok2 = v.coerce(&e.Expr, t, &e.High, hi)
		}
		if !ok1 || !ok2 {
			hint := hint1
			if hint2 != hint1 {
				// the same cast for both bounds is said once
				hint += hint2
			}
			v.add(CodeType, path, "between needs bounds of the same kind as the value (%s between %s and %s)%s", t0, lo, hi, hint)
		} else if dayPair(t, lo) || dayPair(t, hi) {
			v.dayRules[e] = dayRule{x: t, items: []Type{lo, hi}}
		} else if x := temporalOf(t, lo); x != "" && x == temporalOf(t, hi) {
			e.Temporal = x
		} else {
			floatAll([]*Expr{&e.Expr, &e.Low, &e.High}, []Type{t, lo, hi})
		}
		return TypeBoolean
	case *Like:
		t := v.expr(e.Expr, join(path, "expr"), sc, env)
		pt := v.expr(e.Pattern, join(path, "pattern"), sc, env)
		switch {
		case t.IsNested():
			// the engines refuse LIKE on them (text[] ~~ text); cast to
			// text, an array or a JSON value is the JSON results show
			v.addHint(CodeType, join(path, "expr"), unorderedHint, "like needs text, this is %s; cast it to text first (its text is the JSON results show, such as [\"cold\",\"bulk\"])", t)
		case t == TypeInterval:
			v.addHint(CodeType, join(path, "expr"), unorderedHint, "like needs text, this is %s; cast it to text first (each engine writes its own text of it)", t)
		case fractional(t):
			v.addHint(CodeType, join(path, "expr"), numberTextHint(e.Expr), "like needs text, this is %s, whose text each engine prints its own way", t)
		case t != TypeText && t != TypeUnknown:
			v.add(CodeType, join(path, "expr"), "like needs text, this is %s; cast it to text first", t)
		}
		if pt != TypeText && pt != TypeUnknown {
			v.add(CodeType, join(path, "pattern"), "a like pattern must be text, this is %s", pt)
		}
		return TypeBoolean
	case *IsNull:
		v.expr(e.Expr, join(path, "expr"), sc, env)
		return TypeBoolean
	case *Case:
		n0 := v.mark()
		defer func() {
			if v.mark() == n0 && caseUntyped(e, v) {
				v.nullOperand(path, "case")
			}
		}()
		var opT Type = TypeUnknown
		if e.Operand != nil {
			n1 := v.mark()
			opT = v.expr(e.Operand, join(path, "operand"), sc, env)
			if opT == TypeUnknown && v.mark() == n1 {
				v.nullOperand(join(path, "operand"), "the case operand")
			}
		}
		result, decimals := TypeUnknown, 0
		for i, w := range e.Whens {
			p := idx(join(path, "whens"), i)
			wt := v.expr(w.When, join(p, "when"), sc, env)
			if e.Operand != nil {
				nt, _, hint, ok := v.coerce(&e.Operand, opT, &e.Whens[i].When, wt)
				if !ok {
					v.add(CodeType, join(p, "when"), "cannot compare the case operand (%s) with %s%s", opT, wt, hint)
				}
				opT = nt
			} else {
				v.wantBool(wt, join(p, "when"))
			}
			tt := v.expr(w.Then, join(p, "then"), sc, env)
			result = v.unify(result, tt, join(p, "then"))
			decimals += countOf(tt, TypeDecimal)
		}
		if e.Else != nil {
			et := v.expr(e.Else, join(path, "else"), sc, env)
			result = v.unify(result, et, join(path, "else"))
			decimals += countOf(et, TypeDecimal)
		}
		e.Decimals = result == TypeDecimal && decimals >= 2
		return result
	case *Cast:
		src := v.expr(e.Expr, join(path, "expr"), sc, env)
		// a column holding values its type cannot read (only SQLite stores
		// them, so only an SQLite plan has one) cast to text is its stored
		// text (render's ReadAs): the one way to list those values, on the
		// one engine there is
		col, isCol := e.Expr.(*Column)
		asStored := isCol && col.ReadAs != "" && e.Type == CastText
		if hint, ok := castAllowed(src, e.Type); !ok && !asStored {
			if fractional(src) && e.Type == CastText {
				v.addHint(CodeType, path, numberTextHint(e.Expr), "cannot cast %s to text the same way on every engine: each prints numbers its own way (2.0 is '2.0' on SQLite and DuckDB, '2' on PostgreSQL; 1e20, 0.1 + 0.2 and decimals differ too)", src)
			} else if src.IsNested() || src == TypeInterval {
				v.addHint(CodeType, path, nonScalarHint(src), "cannot cast %s to %s the same way on every engine", src, e.Type)
			} else {
				v.add(CodeType, path, "cannot cast %s to %s the same way on every engine%s", src, e.Type, hint)
			}
		}
		e.FromText = src == TypeText && e.Type != CastText && e.Type != CastBoolean
		e.FromFloat = src == TypeFloat && e.Type == CastInteger
		e.FromDecimal = src == TypeDecimal && e.Type == CastInteger
		e.FromNested = ""
		if src.IsNested() && e.Type == CastText {
			e.FromNested = src
		}
		if lit, ok := e.Expr.(*Literal); ok && e.FromText {
			// a literal that holds no value is refused here; a date or
			// timestamp one is checked to its calendar, so its plain cast
			// means the same everywhere; a number's text is cast as a
			// column's is (SQLite's plain cast reads '1e3' as 1, and text
			// beyond int64 as its bound where the others fail)
			v.castLiteral(lit, e.Type, join(path, "expr"))
			e.FromText = e.Type == CastInteger || e.Type == CastDecimal || e.Type == CastFloat
		}
		return castResult(e.Type)
	case *Func:
		return v.fn(e, path, sc, env)
	case *Window:
		return v.window(e, path, sc, env)
	case *MetricRef, *FilterRef:
		v.add(CodeBadValue, path, "a %s reference is not allowed here: references are expanded before validation, and a definition cannot name another definition (write its expression out)", e.Kind())
		return TypeUnknown
	}
	v.add(CodeMalformed, path, "unknown expression node")
	return TypeUnknown
}

// castAllowed reports whether every engine casts a src value to t, with one
// meaning; when not, hint suggests what to write instead.
func castAllowed(src Type, t CastType) (hint string, ok bool) {
	switch {
	case src == TypeUnknown:
		return "", true
	case src == TypeBoolean:
		return "; use a case expression (CASE WHEN x THEN 1 ELSE 0 END)", false
	case src == TypeBlob:
		return "", false
	case (src.IsNested() || src == TypeInterval) && t != CastText:
		return "; " + nonScalarHint(src), false
	}
	switch t {
	case CastText:
		// an integer prints the same everywhere; a float or decimal does not
		return "", !fractional(src)
	case CastInteger, CastDecimal, CastFloat:
		return "", src.IsNumeric() || src == TypeText
	case CastBoolean:
		return "; compare it instead (x <> 0)", src == TypeInteger
	case CastDate, CastTimestamp:
		if src.IsNumeric() {
			// what a number that is a time most often is
			return "; for seconds since 1970 (Unix time) write FROM_EPOCH_SECONDS(x) (of milliseconds: x / 1000)", false
		}
		return "", src.IsTemporal() || src == TypeText
	}
	return "", false
}

// nonScalarHint says what a json, array or interval value can do instead
// of what was refused: PostgreSQL and DuckDB share no cast from them to a
// number or a date, and DuckDB has no SUM or AVG of an interval.
func nonScalarHint(t Type) string {
	if t == TypeInterval {
		return "an interval can be selected, compared with another interval, sorted, and aggregated with MIN, MAX or COUNT; cast it to text to search its text"
	}
	return "a " + string(t) + " value can be selected, counted and tested with IS NULL; cast it to text to search or compare its text"
}

// nestedHint is the hint of a refused comparison that involves a json,
// array or interval value, "" when neither side is one.
func nestedHint(a, b Type) string {
	for _, t := range []Type{a, b} {
		if t.IsNested() || t == TypeInterval {
			return "; " + nonScalarHint(t)
		}
	}
	return ""
}

func castResult(t CastType) Type {
	switch t {
	case CastInteger:
		return TypeInteger
	case CastDecimal:
		return TypeDecimal
	case CastFloat:
		return TypeFloat
	case CastText:
		return TypeText
	case CastBoolean:
		return TypeBoolean
	case CastDate:
		return TypeDate
	case CastTimestamp:
		return TypeTimestamp
	}
	return TypeUnknown
}

func (v *validator) unify(a, b Type, path string) Type {
	switch {
	case a == TypeUnknown:
		return b
	case b == TypeUnknown || a == b:
		return a
	case a.IsNumeric() && b.IsNumeric():
		if a == TypeFloat || b == TypeFloat {
			return TypeFloat
		}
		return TypeDecimal
	}
	v.add(CodeType, path, "all branches must have one type: %s and %s differ; cast one of them", a, b)
	return a
}

// countOf is 1 when t is want, else 0.
func countOf(t, want Type) int {
	if t == want {
		return 1
	}
	return 0
}

// subquery validates a nested query that may reference the enclosing scope.
func (v *validator) subquery(q *Query, path string, sc *scope, env *cteEnv) relation {
	if q == nil {
		v.add(CodeMalformed, path, "a subquery is missing")
		return relation{}
	}
	saveA, saveW := v.inAgg, v.inWin
	v.inAgg, v.inWin = 0, 0
	defer func() { v.inAgg, v.inWin = saveA, saveW }()
	clause := sc.clause
	rel := v.query(q, path, sc, env, false)
	sc.clause = clause
	return rel
}

func (v *validator) column(c *Column, path string, sc *scope) Type {
	if c.Column == "" {
		// Only SQLite can name a column "": PostgreSQL and DuckDB refuse a
		// zero-length identifier, and so does every adapter's statement
		// check, so a plan reading it would pass check and fail at run.
		hint := "give the column a name in the database (ALTER TABLE ... RENAME COLUMN, or a view that names it) and select that"
		v.addHint(CodeBadValue, join(path, "column"), hint, "a column name cannot be empty; no engine runs a zero-length identifier")
		return TypeUnknown
	}
	if c.Table != "" {
		for s := sc; s != nil; s = s.parent {
			if src, ok := s.find(c.Table); ok {
				if src.unknown {
					c.Table = src.alias
					v.silent++
					return TypeUnknown
				}
				col, ok := src.rel.column(c.Column)
				if !ok {
					v.noColumn(join(path, "column"), src, c.Column)
					return TypeUnknown
				}
				c.Table, c.Column, c.Unordered, c.Money, c.AsText, c.Scale, c.ReadAs = src.alias, col.Name, col.Unordered, col.Money, col.AsText, col.Scale, readAs(col)
				v.resolvedIn(c, s)
				return col.Type
			}
		}
		v.add(CodeAliasNotFound, join(path, "table"), "%q is not an alias in scope; use the alias given in from", c.Table)
		return TypeUnknown
	}
	for s := sc; s != nil; s = s.parent {
		var hits []*source
		var hit ColumnInfo
		for _, src := range s.sources {
			if col, ok := src.rel.column(c.Column); ok {
				hits = append(hits, src)
				hit = col
			}
		}
		if len(hits) > 1 {
			v.add(CodeAmbiguous, join(path, "column"), "column %q exists in %q and %q; qualify it with a table alias", c.Column, hits[0].alias, hits[1].alias)
			return TypeUnknown
		}
		if len(hits) == 1 {
			c.Table, c.Column, c.Unordered, c.Money, c.AsText, c.Scale, c.ReadAs = hits[0].alias, hit.Name, hit.Unordered, hit.Money, hit.AsText, hit.Scale, readAs(hit)
			v.resolvedIn(c, s)
			return hit.Type
		}
	}
	for s := sc; s != nil; s = s.parent {
		for _, src := range s.sources {
			if src.unknown {
				v.silent++
				return TypeUnknown // it may be the missing table's: reported already
			}
		}
	}
	// suggest the nearest column any source in scope shows (the relations
	// hold only the columns the caller may see)
	var cands []string
	owner := map[string]string{}
	for s := sc; s != nil; s = s.parent {
		for _, src := range s.sources {
			for _, col := range src.rel.cols {
				if _, dup := owner[col.Name]; !dup {
					owner[col.Name] = src.alias
					cands = append(cands, col.Name)
				}
			}
		}
	}
	for _, it := range sc.selecting {
		if it.Alias != "" && strings.EqualFold(it.Alias, c.Column) && v.inWin > 0 && ContainsWindow(it.Expr) {
			v.addHint(CodeColumnNotFound, join(path, "column"), aliasHint,
				"no source in scope has a column %q; it is an alias of this query's select holding a window, which another window cannot name", c.Column)
			return TypeUnknown
		}
		if it.Alias != "" && strings.EqualFold(it.Alias, c.Column) {
			v.addHint(CodeColumnNotFound, join(path, "column"), aliasHint,
				"no source in scope has a column %q; it is an alias of this query's select, which %s cannot name", c.Column, sc.clauseName())
			return TypeUnknown
		}
	}
	if near := Nearest(c.Column, cands); near != "" {
		v.add(CodeColumnNotFound, join(path, "column"), "no source in scope has a column %q; did you mean %q of %q?", c.Column, near, owner[near])
	} else {
		v.add(CodeColumnNotFound, join(path, "column"), "no source in scope has a column %q", c.Column)
	}
	return TypeUnknown
}

// aliasHint is the hint for a select alias named where only source columns
// count: SQL computes select items from the sources, all at once.
const aliasHint = "select aliases may be used in order_by, group_by, having, qualify and a window's partition_by and order_by (unless the alias is a window itself); to reuse one in another select item, a window's arguments or where, wrap the query in a derived table or a CTE and select from it"

// clauseName names the clause being checked, for messages.
func (s *scope) clauseName() string {
	if s.clause == "" {
		return "this clause"
	}
	return s.clause
}

// noColumn reports a column src does not show, with the nearest one it
// does. src.rel holds only the columns the caller may see, so a hidden
// column is neither suggested nor told apart from a missing one.
//
// Past spelling, a name that holds a column's name or is held by it
// ("CityName" for City, "name" for FirstName) is suggested; failing both,
// the message lists the columns (up to 20), so the planner's next try
// needs no other call.
func (v *validator) noColumn(path string, src *source, name string) {
	names := src.rel.names()
	var twins []string
	for _, n := range names {
		if strings.EqualFold(n, name) {
			twins = append(twins, n)
		}
	}
	if len(twins) > 1 {
		// "Name" and "name" both: a suggestion of one would hide the other
		v.add(CodeAmbiguous, path, "%q names several columns of %q whose names differ only in letter case: %s; write the one meant as it is listed", name, src.alias, quotedList(twins))
		return
	}
	if near := Nearest(name, names); near != "" {
		v.add(CodeColumnNotFound, path, "%q has no column %q; did you mean %q?", src.alias, name, near)
		return
	}
	if near := overlapping(name, names); near != "" {
		v.add(CodeColumnNotFound, path, "%q has no column %q; did you mean %q?", src.alias, name, near)
		return
	}
	v.add(CodeColumnNotFound, path, "%q has no column %q; its columns are %s", src.alias, name, quotedList(names))
}

// quotedList quotes the first 20 names, separated by commas, and says how
// many more there are: enough for a retry to need no extra call, bounded
// for a table (or schema) of hundreds.
func quotedList(names []string) string {
	const show = 20
	list := make([]string, 0, show)
	for _, n := range names[:min(len(names), show)] {
		list = append(list, strconv.Quote(n))
	}
	more := ""
	if len(names) > show {
		more = fmt.Sprintf(" and %d more", len(names)-show)
	}
	return strings.Join(list, ", ") + more
}

// overlapping is the column whose name the wanted one holds, or that holds
// it, case aside (at least three letters in common); the longest such
// column, the first of equals; "" when none.
func overlapping(name string, names []string) string {
	want := strings.ToLower(name)
	best := ""
	for _, n := range names {
		c := strings.ToLower(n)
		if min(len(c), len(want)) < 3 || !strings.Contains(want, c) && !strings.Contains(c, want) {
			continue
		}
		if len(n) > len(best) {
			best = n
		}
	}
	return best
}

func (v *validator) fn(f *Func, path string, sc *scope, env *cteEnv) Type {
	spec, ok := LookupFunc(f.Name)
	if !ok {
		msg, more := "function %q is not allowed", ""
		if advice := SQLFuncAdvice(f.Name); advice != "" {
			more = "; " + advice
		} else if near := Nearest(f.Name, funcsWhere(func(FuncSpec) bool { return true })); near != "" {
			more = "; did you mean " + near + "?"
		}
		v.addHint(CodeFunction, join(path, "name"), v.allowedHere(sc), msg+"%s", Truncate(f.Name, 40), more)
		return TypeUnknown
	}
	f.Name = spec.Name
	f.Numeric, f.Temporal = "", ""
	if spec.Kind == WindowOnly {
		if v.windowHere(sc) {
			v.add(CodeFunction, join(path, "name"), "%s is a window function; use an expression of kind \"window\"", spec.Name)
		} else {
			v.addHint(CodeFunction, join(path, "name"), v.allowedHere(sc), "%s is a window function, and window functions are allowed only in select and order_by, outside aggregates", spec.Name)
		}
		return TypeUnknown
	}
	if f.Distinct && spec.Kind != Aggregate {
		v.add(CodeBadValue, join(path, "distinct"), "distinct applies only to aggregates, not %s", spec.Name)
	}
	if f.Distinct && len(f.Args) == 0 {
		v.add(CodeArity, join(path, "args"), "COUNT(DISTINCT ...) needs an argument")
	}
	if !v.arity(spec, len(f.Args), path) {
		return TypeUnknown
	}
	if hint := unitSwapped(spec, f); hint != "" {
		v.addHint(CodeBadValue, join(path, "args"), hint, "%s takes its unit first; these arguments look swapped", spec.Name)
		return TypeUnknown
	}
	if spec.Kind == Aggregate {
		switch sc.clause {
		case "where", "group_by", "join", "qualify":
			v.add(CodeGrouping, path, "aggregate %s is not allowed in %s; filter aggregates in having", spec.Name, sc.clause)
		}
		if v.inAgg > 0 {
			v.add(CodeGrouping, path, "aggregate %s may not be nested inside another aggregate", spec.Name)
		}
		v.inAgg++
		defer func() { v.inAgg-- }()
	}
	ts := make([]Type, len(f.Args))
	argsMark := v.mark()
	for i, a := range f.Args {
		p := idx(join(path, "args"), i)
		if i == spec.UnitArg {
			lit, ok := a.(*Literal)
			units := UnitsOf(spec.Name)
			if ok && lit.Type == TString && !slices.Contains(units, strings.ToLower(lit.Text)) {
				near := ""
				if n := Nearest(lit.Text, units); n != "" {
					near = fmt.Sprintf("; did you mean %q?", n)
				}
				v.add(CodeBadValue, p, "%s has no unit %q%s (its units: %s)", spec.Name, Truncate(lit.Text, 40), near, strings.Join(units, ", "))
				continue
			}
			if !ok || lit.Type != TString {
				v.add(CodeBadValue, p, "%s takes a string literal unit first: one of %s", spec.Name, strings.Join(units, ", "))
				continue
			}
			lit.Text = strings.ToLower(lit.Text)
			continue
		}
		n0 := v.mark()
		ts[i] = v.expr(a, p, sc, env)
		if ts[i] == TypeUnknown && v.mark() == n0 && spec.Name != "COALESCE" && spec.Name != "NULLIF" && spec.Name != "COUNT" {
			// PostgreSQL cannot choose SUM(NULL) or ABS(NULL), and the call
			// is NULL anyway
			v.untypedOperand(p, spec.Name, a)
		}
	}
	if spec.Kind == Aggregate && v.mark() == argsMark && v.outerAggregate(f, sc) {
		// (an argument already refused, a column not found, would read as
		// an outer one here: one issue, not a misleading second)
		// SQL makes such an aggregate part of the outer query, where it is
		// then misplaced; SQLite and DuckDB refuse it outright
		v.add(CodeGrouping, path, "%s aggregates only columns of an outer query; aggregate this query's own columns, or move it to the outer query", spec.Name)
	}
	if spec.Name == "AT_TIME_ZONE" && v.zoneSwapped(f, ts, path) {
		return TypeUnknown
	}
	if to, args := textDateArgs(spec.Name, unitOf(f)); to != "" {
		for _, i := range args {
			if i < len(ts) && ts[i] == TypeText {
				ts[i] = v.textAs(&f.Args[i], to, idx(join(path, "args"), i))
			}
		}
	}
	argT := func(i int) Type { return ts[i] }
	need := func(i int, ok func(Type) bool, what string) {
		t := ts[i]
		switch {
		case t == TypeUnknown || ok(t):
		case (t.IsNested() || t == TypeInterval) && what == "text":
			v.addHint(CodeType, idx(join(path, "args"), i), unorderedHint, "%s needs text here, this is %s; cast it to text first", spec.Name, t)
		case t.IsNested() || t == TypeInterval:
			v.addHint(CodeType, idx(join(path, "args"), i), nonScalarHint(t), "%s needs %s here, this is %s, which no cast turns into %s on every engine", spec.Name, what, t, what)
		case what == "text" && fractional(t):
			// its cast to text is refused too
			v.addHint(CodeType, idx(join(path, "args"), i), numberTextHint(f.Args[i]), "%s needs text here, this is %s, whose text each engine prints its own way", spec.Name, t)
		default:
			// the hint says to cast where a cast serves, once
			hint := needHint(spec.Name, f.Args[i], t, what)
			v.addHint(CodeType, idx(join(path, "args"), i), hint, "%s needs %s here, this is %s", spec.Name, what, t)
		}
	}
	isText := func(t Type) bool { return t == TypeText }
	isNum := func(t Type) bool { return t.IsNumeric() }
	isInt := func(t Type) bool { return t == TypeInteger }
	isDateish := func(t Type) bool { return t.IsTemporal() || t == TypeText }
	switch spec.Name {
	case "COUNT":
		return TypeInteger
	case "SUM":
		need(0, isNum, "a number")
		f.Numeric = argT(0)
		if argT(0) == TypeInteger || argT(0) == TypeDecimal {
			return argT(0)
		}
		return TypeFloat
	case "AVG", "SQRT", "LN", "STDDEV_SAMP", "STDDEV_POP", "VAR_SAMP", "VAR_POP", "STDDEV", "VARIANCE":
		need(0, isNum, "a number")
		if spec.Name == "AVG" {
			f.Numeric = argT(0)
		}
		return TypeFloat
	case "MIN", "MAX", "ABS":
		if spec.Name == "ABS" {
			need(0, isNum, "a number")
		} else if argT(0).IsNested() {
			// PostgreSQL has no MAX of jsonb and orders arrays its own
			// way; DuckDB orders both as it likes
			v.addHint(CodeType, idx(join(path, "args"), 0), nonScalarHint(argT(0)),
				"%s of a %s value has no one meaning on every engine", spec.Name, argT(0))
		}
		if spec.Name != "ABS" && argT(0) == TypeBoolean {
			// PostgreSQL has no MAX of booleans: the renderer writes its
			// BOOL_OR (MIN: BOOL_AND), true when any (all) is
			f.Numeric = TypeBoolean
		}
		return argT(0)
	case "ROUND":
		need(0, isNum, "a number")
		if len(ts) == 2 {
			need(1, isInt, "an integer")
		}
		if argT(0) == TypeInteger {
			return TypeInteger
		}
		return TypeDecimal
	case "COALESCE", "NULLIF":
		t, decimals := TypeUnknown, 0
		for i := range ts {
			t = v.unify(t, ts[i], idx(join(path, "args"), i))
			decimals += countOf(ts[i], TypeDecimal)
		}
		// NULLIF's result is its first argument, never the second's type
		f.Decimals = spec.Name == "COALESCE" && t == TypeDecimal && decimals >= 2
		if t == TypeUnknown && !v.hasIssueUnder(path) {
			v.nullOperand(path, spec.Name)
		}
		return t
	case "UPPER", "LOWER", "TRIM":
		need(0, isText, "text")
		return TypeText
	case "LENGTH":
		need(0, isText, "text")
		return TypeInteger
	case "SUBSTR":
		need(0, isText, "text")
		for i := 1; i < len(ts); i++ {
			need(i, isInt, "an integer")
		}
		// a start below 1 and a length negative at run time have SQLite's
		// meaning everywhere (the renderers compute it); a negative literal
		// length is refused as a mistake: it reads as a count
		if len(f.Args) == 3 {
			if lit, ok := f.Args[2].(*Literal); ok && lit.Type == TInteger && lit.Int < 0 {
				v.add(CodeBadValue, idx(join(path, "args"), 2), "a SUBSTR length may not be negative, got %d; to take characters from the end use a negative start (SUBSTR(x, -3, 2)) or RIGHT", lit.Int)
			}
		}
		return TypeText
	case "LEFT", "RIGHT":
		need(0, isText, "text")
		need(1, isInt, "an integer count of characters")
		return TypeText
	case "PERIOD_LABEL":
		need(1, isDateish, "a date or timestamp")
		f.Temporal = argT(1)
		return TypeText
	case "CONCAT", "REPLACE":
		for i := range ts {
			if spec.Name == "CONCAT" && ts[i] == TypeInteger && !columnReadAs(f.Args[i]) {
				// a whole number's text is its digits on every engine, as
				// SQLite's || takes it: a key built of an id and a name
				// needs no cast written out
				f.Args[i] = &Cast{Expr: f.Args[i], Type: CastText}
				ts[i] = TypeText
			}
			need(i, isText, "text")
		}
		return TypeText
	case "DATE_PART":
		need(1, isDateish, "a date or timestamp")
		f.Temporal = argT(1)
		return TypeInteger
	case "DATE_TRUNC":
		need(1, isDateish, "a date or timestamp")
		f.Temporal = argT(1)
		if u := unitOf(f); u == "hour" || u == "minute" {
			// the time survives: a timestamp, and a date has none to keep
			if argT(1) == TypeDate {
				v.addHint(CodeType, idx(join(path, "args"), 1), `truncate a date with "day" or coarser, or cast it to timestamp first`, "DATE_TRUNC to the %s needs a timestamp, this is a date", u)
			}
			return TypeTimestamp
		}
		return TypeDate
	case "DATE_ADD":
		need(1, isInt, "an integer amount")
		need(2, isDateish, "a date or timestamp")
		if lit, ok := f.Args[1].(*Literal); ok && lit.Type == TInteger {
			// years 1 to 9999 span 3,652,058 days: an amount past that
			// takes every date out of them, so every row NULL
			if most, ok := map[string]int64{"year": 9998, "quarter": 39995, "month": 119987, "day": 3652058}[unitOf(f)]; ok && (lit.Int > most || lit.Int < -most) {
				v.addHint(CodeBadValue, idx(join(path, "args"), 1), "a date plus or minus this many "+unitOf(f)+"s is outside years 1 to 9999 whatever the date; check the unit",
					"DATE_ADD of %d %ss is NULL for every date", lit.Int, unitOf(f))
			}
		}
		f.Temporal = argT(2)
		if argT(2) == TypeTimestamp {
			return TypeTimestamp // the time of day is kept
		}
		return TypeDate
	case "DATE_DIFF_DAYS":
		need(0, isDateish, "a date or timestamp")
		need(1, isDateish, "a date or timestamp")
		return TypeInteger
	case "ELAPSED_SECONDS":
		need(0, isDateish, "a date or timestamp")
		need(1, isDateish, "a date or timestamp")
		return TypeFloat
	case "FROM_EPOCH_SECONDS":
		need(0, isNum, "a number")
		if lit, ok := f.Args[0].(*Literal); ok && (lit.Type == TInteger || lit.Type == TDecimal) {
			x, text := float64(lit.Int), strconv.FormatInt(lit.Int, 10)
			if lit.Type == TDecimal {
				x, _ = strconv.ParseFloat(lit.Text, 64)
				text = lit.Text
				if len(text) > 21 {
					// a decimal literal is kept as its digits: 1e300 is 301
					// of them, named in the exponent form the results use
					text = strconv.FormatFloat(x, 'g', -1, 64)
				}
			}
			// NULL on every engine: a literal so far out is a unit mistake
			if x < EpochFirst || x >= EpochEnd {
				v.addHint(CodeBadValue, idx(join(path, "args"), 0), "milliseconds since 1970 are x / 1000, microseconds x / 1000000",
					"FROM_EPOCH_SECONDS of %s is outside years 1 to 9999, so NULL", text)
			}
		}
		return TypeTimestamp
	case "CURRENT_DATE":
		return TypeDate
	case "CURRENT_TIMESTAMP":
		return TypeTimestamp
	case "POSITION":
		need(0, isText, "text")
		need(1, isText, "text")
		return TypeInteger
	case "AT_TIME_ZONE":
		if argT(0) == TypeDate {
			// a day has no time to convert, and read as its midnight in
			// UTC it would move to the day before west of Greenwich
			v.addHint(CodeType, idx(join(path, "args"), 0), "a date column holds days already, usually the local ones: use it as it is; for an instant kept as a date at midnight UTC, cast it to timestamp first",
				"AT_TIME_ZONE needs an instant (a timestamp), this is a date")
		} else {
			need(0, func(t Type) bool { return t == TypeTimestamp }, "a timestamp")
		}
		need(1, isText, "text")
		v.zoneLiteral(f.Args[1], idx(join(path, "args"), 1))
		return TypeTimestamp
	}
	return TypeUnknown
}

// needHint is what to write for x, of type t, where function name needs
// what: the cast to it where every engine casts t so, else the function
// that reads t as what. A hint whose own advice is
// refused next leaves a planner going round: a number is no date by cast
// (FROM_EPOCH_SECONDS reads Unix time), a timestamp no number (it is used
// as it is, or its span taken).
func needHint(name string, x Expr, t Type, what string) string {
	paste := func(e Expr) string {
		b, err := JSON(e)
		if err != nil {
			return ""
		}
		return string(b)
	}
	switch {
	case name == "FROM_EPOCH_SECONDS" && t.IsTemporal():
		// the reading the warnings on Unix times give, for a column
		// loaders filled with both ISO text and time()
		// the reading first: a planner writes FROM_EPOCH_SECONDS of such
		// a column because its context showed numbers in it, and a column
		// of Unix times alone read as it is was all NULL
		return fmt.Sprintf("it is a %s column; where it holds numbers of seconds since 1970 (Unix time, as its schema line says), read them and its dates alike as %s; a column of dates alone is used as it is, without FROM_EPOCH_SECONDS",
			t, paste(UnixReading(x, t, "", "")))
	case (what == "a date or timestamp" || what == "a timestamp") && t.IsNumeric():
		return "if the number is seconds since 1970 (Unix time), write " + paste(&Func{Name: "FROM_EPOCH_SECONDS", Args: []Expr{x}}) +
			" (of milliseconds: x / 1000); a number has no cast to a date"
	case t == TypeBoolean && (name == "SUM" || name == "AVG"):
		// engines disagree on a boolean as a number (PostgreSQL has no SUM
		// of one); the CASE counts true as 1 and false as 0 everywhere and
		// leaves NULL out, as SUM and AVG leave it
		one := &Case{Whens: []When{{When: x, Then: &Literal{Type: TInteger, Int: 1}},
			{When: &Unary{Op: "not", Expr: x}, Then: &Literal{Type: TInteger, Int: 0}}}}
		what := "the number of rows where it is true"
		if name == "AVG" {
			what = "the share of rows where it is true (0 to 1)"
		}
		return fmt.Sprintf("for %s write %s over %s", what, name, paste(one))
	case t == TypeBoolean || t == TypeBlob:
		return ""
	}
	to, ok := map[string]CastType{"a number": CastDecimal, "text": CastText, "an integer": CastInteger, "a date or timestamp": CastDate}[what]
	if _, allowed := castAllowed(t, to); ok && allowed {
		return `cast it first: {"kind": "cast", "expr": <the value>, "type": "` + string(to) + `"}`
	}
	if t.IsTemporal() {
		return "for the time between two dates or timestamps write ELAPSED_SECONDS(end, start) or DATE_DIFF_DAYS(end, start); for a part of one, DATE_PART(unit, x)"
	}
	return ""
}

// unitSwapped is the call f written with its unit first, as JSON to
// paste, when f has a string literal naming one of its units in another
// place than its unit's (DATE_ADD(2, 'day', x)); else "". Told only that
// the first argument is no unit and the second no integer, a planner
// casts 'day' to integer.
func unitSwapped(spec FuncSpec, f *Func) string {
	if spec.UnitArg < 0 || spec.UnitArg >= len(f.Args) {
		return ""
	}
	if lit, ok := f.Args[spec.UnitArg].(*Literal); ok && lit.Type == TString {
		return ""
	}
	for j, a := range f.Args {
		lit, ok := a.(*Literal)
		if j == spec.UnitArg || !ok || lit.Type != TString || !slices.Contains(UnitsOf(spec.Name), strings.ToLower(lit.Text)) {
			continue
		}
		args := slices.Insert(slices.Delete(slices.Clone(f.Args), j, j+1), spec.UnitArg, a)
		b, err := JSON(&Func{Name: spec.Name, Args: args})
		if err != nil {
			return ""
		}
		return "write " + string(b)
	}
	return ""
}

// unitOf is the unit literal of a date function f, lower-case, or "".
func unitOf(f *Func) string {
	if len(f.Args) > 0 {
		if lit, ok := f.Args[0].(*Literal); ok && lit.Type == TString {
			return strings.ToLower(lit.Text)
		}
	}
	return ""
}

func (v *validator) arity(spec FuncSpec, n int, path string) bool {
	if n < spec.MinArgs || (spec.MaxArgs >= 0 && n > spec.MaxArgs) {
		v.add(CodeArity, join(path, "args"), "%s", TakesArgs(spec.Name, spec.MinArgs, spec.MaxArgs, n))
		return false
	}
	return true
}

func (v *validator) window(w *Window, path string, sc *scope, env *cteEnv) Type {
	spec, ok := LookupFunc(w.Name)
	if !ok || spec.Kind == Scalar {
		windowed := funcsWhere(func(s FuncSpec) bool { return s.Kind != Scalar })
		msg := "%q is not a window function"
		if near := Nearest(w.Name, windowed); !ok && near != "" {
			msg += "; did you mean " + near + "?"
		}
		v.addHint(CodeFunction, join(path, "name"), "a window takes one of: "+strings.Join(windowed, ", "), msg, Truncate(w.Name, 40))
		return TypeUnknown
	}
	w.Name = spec.Name
	if _, ok := Spread[spec.Name]; ok {
		// SQLite's registered aggregate cannot slide a frame; the guarantee
		// of one meaning everywhere is kept by not offering the window
		v.addHint(CodeFunction, join(path, "name"), "aggregate it in a derived table or CTE grouped by the partition, and join that", "%s is not available as a window function", spec.Name)
		return TypeUnknown
	}
	if sc.clause != "select" && sc.clause != "order_by" {
		v.add(CodeGrouping, path, "window functions are allowed only in select and order_by, not in %s", sc.clause)
	}
	if v.inWin > 0 || v.inAgg > 0 {
		v.add(CodeGrouping, path, "a window function may not be nested in another window function or aggregate")
	}
	if !v.arity(spec, len(w.Args), path) {
		return TypeUnknown
	}
	v.inWin++
	ts := make([]Type, len(w.Args))
	for i, a := range w.Args {
		n0 := v.mark()
		ts[i] = v.expr(a, idx(join(path, "args"), i), sc, env)
		if ts[i] == TypeUnknown && v.mark() == n0 && (i == 0 || i == 2) {
			v.untypedOperand(idx(join(path, "args"), i), spec.Name, a)
		}
	}
	for i, p := range w.PartitionBy {
		w.PartitionBy[i] = v.windowAlias(p, idx(join(path, "partition_by"), i), sc)
		v.expr(w.PartitionBy[i], idx(join(path, "partition_by"), i), sc, env)
	}
	for i, o := range w.OrderBy {
		o.Expr = v.windowAlias(o.Expr, join(idx(join(path, "order_by"), i), "expr"), sc)
		w.OrderBy[i] = o
		v.expr(o.Expr, join(idx(join(path, "order_by"), i), "expr"), sc, env)
	}
	v.inWin--
	w.Numeric = ""
	if spec.Name == "SUM" || spec.Name == "AVG" || (spec.Name == "MIN" || spec.Name == "MAX") && ts[0] == TypeBoolean {
		w.Numeric = ts[0]
	}
	switch spec.Name {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "COUNT":
		return TypeInteger
	case "LAG", "LEAD":
		if len(ts) >= 2 {
			if lit, ok := w.Args[1].(*Literal); !ok || lit.Type != TInteger || lit.Int < 0 {
				v.add(CodeBadValue, idx(join(path, "args"), 1), "the %s offset must be a non-negative integer literal", spec.Name)
			}
		}
		if len(ts) == 3 {
			// the default fills in for the value: PostgreSQL needs one type
			w.Decimals = ts[0] == TypeDecimal && ts[2] == TypeDecimal
			return v.unify(ts[0], ts[2], idx(join(path, "args"), 2))
		}
		return ts[0]
	case "AVG":
		return TypeFloat
	}
	return ts[0]
}

// windowHere reports whether a window node may stand at this position:
// in select or order_by, not inside an aggregate or another window.
func (v *validator) windowHere(sc *scope) bool {
	return (sc.clause == "select" || sc.clause == "order_by") && v.inAgg == 0 && v.inWin == 0
}

// allowedHere lists the functions a func node may call at this position,
// and says where window functions go when a window may stand here.
func (v *validator) allowedHere(sc *scope) string {
	aggOK := v.inAgg == 0 && (sc.clause == "select" || sc.clause == "having" || sc.clause == "order_by")
	out := "scalar functions allowed here: " + strings.Join(funcsWhere(func(s FuncSpec) bool { return s.Kind == Scalar }), ", ")
	if aggOK {
		out += "; aggregates: " + strings.Join(funcsWhere(func(s FuncSpec) bool { return s.Kind == Aggregate }), ", ")
	}
	if v.windowHere(sc) {
		out += "; window functions (" + strings.Join(funcsWhere(func(s FuncSpec) bool { return s.Kind == WindowOnly }), ", ") +
			", or an aggregate) as an expression of kind \"window\""
	}
	return out
}

// funcsWhere lists the allow-listed functions keep accepts, sorted.
func funcsWhere(keep func(FuncSpec) bool) []string {
	var out []string
	for _, name := range sortedKeys(Functions) {
		if keep(Functions[name]) {
			out = append(out, name)
		}
	}
	return out
}

// arithType is the type of l op r for an arithmetic operator (TypeUnknown
// when neither operand's type is known).
func arithType(op string, l, r Type) Type {
	switch {
	case op == OpDiv:
		return TypeFloat
	case op == OpIDiv:
		return TypeInteger
	case l == TypeInteger && r == TypeInteger:
		return TypeInteger
	case l == TypeFloat || r == TypeFloat:
		return TypeFloat
	case l == TypeUnknown && r == TypeUnknown:
		return TypeUnknown
	}
	return TypeDecimal
}

// readAs is the type a column is read as when it holds values that are
// not of its type (ColumnInfo.Mixed), else empty.
func readAs(c ColumnInfo) Type {
	if c.Mixed { // profiling marks only numeric, temporal and boolean columns
		return c.Type
	}
	return ""
}

// columnReadAs reports whether e is a column read as its type
// (Column.ReadAs): cast to text it is the text stored, which a CONCAT
// would show of the values its type cannot read, so only a cast written
// out does that.
func columnReadAs(e Expr) bool {
	c, ok := e.(*Column)
	return ok && c.ReadAs != ""
}
