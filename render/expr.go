package render

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// decimalRe is the shape of a decimal literal the renderer splices into SQL:
// nothing else may reach the statement text.
var decimalRe = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// expr writes e fully parenthesised where precedence could differ between
// engines, so the rendered SQL means what the tree means.
func (w *writer) expr(e planast.Expr) {
	if w.grouped && w.selectedKeys != nil && w.selectedKeys[planast.Key(e)] {
		// a grouping key that is a select item: grouped by its position,
		// so it is written alike wherever it stands, and may bind
		defer func(k map[string]bool) { w.grouped, w.selectedKeys = true, k }(w.selectedKeys)
		w.grouped, w.selectedKeys = false, nil
	}
	switch e := e.(type) {
	case *planast.Column:
		col := QuoteIdent(e.Column)
		if e.Table != "" {
			col = QuoteIdent(e.Table) + "." + col
		}
		if e.Money && w.d.Name() == "postgres" {
			// money has no ABS, no cast to double, no arithmetic or
			// comparison with numbers: read as the numeric it holds
			col = "CAST(" + col + " AS NUMERIC)"
		}
		if w.readsText(e) {
			// uuid ~~ text, UPPER(uuid) and uuid = 'x' fail where the
			// column's engine type is not text: read its text
			col = EngineText(w.d, col, e.AsText)
		}
		if r := w.readColumn(e, e.ReadAs, false); r != "" {
			col = r
		} else if e.ReadAs != "" {
			col = ReadAs(w.d, col, e.ReadAs)
		}
		w.str(col)
	case *planast.Literal:
		w.str(w.literal(e))
	case *planast.Binary:
		if _, ok := isArith(e); ok {
			w.str(w.arith(e, true, new([]string)))
			break
		}
		if e.ExactDiv {
			w.str(w.exactDiv(e))
			break
		}
		if c := uuidLookup(e); c != nil {
			w.lookup = c
		}
		l, r := w.operand(e.Left, e.Temporal), w.operand(e.Right, e.Temporal)
		w.lookup = nil
		switch e.Op {
		case planast.OpDiv:
			// a quotient of a finite dividend is finite on PostgreSQL or
			// an error: the same error elsewhere (rangeDouble), unless the
			// divisor is a literal of at least 1, which cannot make one
			if q := w.d.TrueDiv(l, r); atLeastOne(e.Right) {
				w.str(q)
			} else {
				w.str(w.d.(rangeChecker).RangeCheck(q, rangeDouble, []string{l}))
			}
		case planast.OpIDiv:
			w.str(w.d.IntDiv(l, r))
		case planast.OpMod:
			w.str("(" + l + " % NULLIF(" + r + ", 0))")
		case planast.OpAdd, planast.OpSub, planast.OpMul, planast.OpEq, planast.OpLt, planast.OpLe, planast.OpGt, planast.OpGe:
			w.str("(" + l + " " + e.Op + " " + r + ")")
		case planast.OpNe:
			w.str("(" + l + " <> " + r + ")")
		case planast.OpAnd:
			w.str("(" + l + " AND " + r + ")")
		case planast.OpOr:
			w.str("(" + l + " OR " + r + ")")
		default:
			w.fail("unknown binary operator %q", e.Op)
		}
	case *planast.Unary:
		switch e.Op {
		case "not":
			w.str("(NOT " + w.exprS(e.Expr) + ")")
		case "-":
			if _, ok := isArith(e); ok {
				w.str(w.arith(e, true, new([]string)))
				break
			}
			w.str("(- " + w.exprS(e.Expr) + ")")
		default:
			w.fail("unknown unary operator %q", e.Op)
		}
	case *planast.In:
		w.lookup = uuidListLookup(e)
		w.str("(" + w.operand(e.Expr, e.Temporal))
		w.lookup = nil
		if e.Negated {
			w.str(" NOT")
		}
		w.str(" IN ")
		if e.Subquery != nil {
			w.str(w.subquery(e.Subquery))
		} else {
			if len(e.List) == 0 {
				w.fail("empty IN list")
			}
			items := make([]string, len(e.List))
			for i, x := range e.List {
				items[i] = w.operand(x, e.Temporal)
			}
			w.str("(" + strings.Join(items, ", ") + ")")
		}
		w.str(")")
	case *planast.Exists:
		if w.d.Name() == "sqlite" {
			if sql, ok := w.semiJoin(e); ok {
				w.str(sql)
				break
			}
		}
		if e.Negated {
			w.str("(NOT EXISTS " + w.subquery(e.Subquery) + ")")
		} else {
			w.str("(EXISTS " + w.subquery(e.Subquery) + ")")
		}
	case *planast.Subquery:
		if w.d.Name() == "sqlite" && !atMostOneRow(e.Query) {
			w.str(oneRowSQLite(w.subquery(e.Query)))
			break
		}
		w.str(w.subquery(e.Query))
	case *planast.Between:
		not := ""
		if e.Negated {
			not = " NOT"
		}
		w.str("(" + w.operand(e.Expr, e.Temporal) + not + " BETWEEN " + w.operand(e.Low, e.Temporal) + " AND " + w.operand(e.High, e.Temporal) + ")")
	case *planast.Like:
		x, p := w.exprS(e.Expr), w.exprS(e.Pattern)
		if e.CaseInsensitive {
			x, p = w.lower(x), w.lower(p)
		}
		not := ""
		if e.Negated {
			not = " NOT"
		}
		w.str("(" + x + not + " LIKE " + p + ` ESCAPE '\')`)
	case *planast.IsNull:
		if e.Negated {
			w.str("(" + w.exprS(e.Expr) + " IS NOT NULL)")
		} else {
			w.str("(" + w.exprS(e.Expr) + " IS NULL)")
		}
	case *planast.Case:
		w.str("CASE")
		if e.Operand != nil {
			w.str(" " + w.exprS(e.Operand))
		}
		if len(e.Whens) == 0 {
			w.fail("case without when")
		}
		for _, wh := range e.Whens {
			w.str(" WHEN " + w.exprS(wh.When) + " THEN " + w.widened(wh.Then, e.Decimals))
		}
		if e.Else != nil {
			w.str(" ELSE " + w.widened(e.Else, e.Decimals))
		}
		w.str(" END")
	case *planast.Cast:
		if ref, ok := e.Expr.(*planast.Column); ok && e.Type == planast.CastText && ref.ReadAs == "" && w.readsText(ref) {
			// a column read as its text already (EngineText: an enum,
			// an inet): a second cast of that text to text is noise a
			// host reading the SQL takes for a mistake
			w.expr(ref)
			break
		}
		if c, ok := e.Expr.(*planast.Case); ok && e.FromText && len(c.Whens) > 0 {
			// the cast of each branch, not of the whole CASE: the cast
			// rule tests its operand several times, and a CASE that
			// reorders a column's dates (the date-fix warning's
			// expression) written inside each test made 55 KB of SQL;
			// one branch runs either way, so the value is the same
			w.str("CASE")
			if c.Operand != nil {
				w.str(" " + w.exprS(c.Operand))
			}
			for _, wh := range c.Whens {
				w.str(" WHEN " + w.exprS(wh.When) + " THEN " + textCast(w.d, w.exprS(wh.Then), e.Type))
			}
			if c.Else != nil {
				w.str(" ELSE " + textCast(w.d, w.exprS(c.Else), e.Type))
			}
			w.str(" END")
			break
		}
		if ref, ok := e.Expr.(*planast.Column); ok && e.FromText {
			if r := w.readColumn(ref, planast.Type(e.Type), true); r != "" {
				w.str(r)
				break
			}
		}
		if e.FromText {
			w.str(textCast(w.d, w.exprS(e.Expr), e.Type))
			break
		}
		if e.FromFloat {
			w.str(floatToInt(w.d, w.exprS(e.Expr)))
			break
		}
		if e.FromDecimal {
			w.str(decimalToInt(w.d, w.exprS(e.Expr)))
			break
		}
		if e.FromNested != "" {
			w.str(nestedText(w.d, w.exprS(e.Expr), e.FromNested))
			break
		}
		if col, ok := e.Expr.(*planast.Column); ok && col.ReadAs != "" && e.Type == planast.CastText && w.d.Name() == "sqlite" {
			// a value the column's type cannot read (SQLite stores any:
			// '15/01/2024' in a DATE column) reads as NULL everywhere else;
			// as text it is the text stored, the one way a plan lists such
			// values, while the others read as their type, as elsewhere
			raw := *col
			raw.ReadAs = ""
			if col.ReadAs == planast.TypeBoolean {
				// a boolean's reading as text is '1' or '0', which the
				// column itself shows as true or false: the stored text
				// is what tells 'y' from 1 (no other engine casts one)
				w.str(w.d.Cast(w.exprS(&raw), e.Type))
				break
			}
			w.str("COALESCE(" + w.d.Cast(w.exprS(e.Expr), e.Type) + ", " + w.d.Cast(w.exprS(&raw), e.Type) + ")")
			break
		}
		w.str(w.d.Cast(w.exprS(e.Expr), e.Type))
	case *planast.Func:
		w.fn(e)
	case *planast.Window:
		w.window(e)
	case nil:
		w.fail("missing expression")
	default:
		w.fail("unknown expression %T", e)
	}
}

// nestedText is an array's or a JSON value's text as results show it:
// PostgreSQL writes an array {cold,bulk} and DuckDB a struct {'a': 1},
// while results carry JSON (["cold","bulk"], {"a":1}), so a plan's cast
// is their JSON text; PostgreSQL's json is already that text, SQLite has
// only JSON text.
func nestedText(d Dialect, x string, t planast.Type) string {
	switch {
	case (d.Name() == "postgres" || d.Name() == "cockroachdb") && t == planast.TypeArray:
		return "CAST(array_to_json(" + x + ") AS TEXT)"
	case d.Name() == "duckdb":
		return "CAST(to_json(" + x + ") AS VARCHAR)"
	}
	return d.Cast(x, planast.CastText)
}

// widened renders e, one of several decimal results of one value
// (Case.Decimals), in a type wide enough for each (rangeChecker's
// WidenDecimal); a NULL is left as it is.
func (w *writer) widened(e planast.Expr, decimals bool) string {
	s := w.exprS(e)
	if l, ok := e.(*planast.Literal); !decimals || w.oneScale || ok && l.Type == planast.TNull {
		return s
	}
	return w.d.(rangeChecker).WidenDecimal(s, w.scale)
}

// temporalOperands is implemented by dialects whose dates and timestamps
// are text of several shapes (SQLite): an operand of a comparison that
// Validate marked temporal (Binary.Temporal and others) is rendered in one
// shape, so that the text comparison orders by time.
type temporalOperands interface {
	TemporalOperand(sql string, e planast.Expr, t planast.Type) string
}

// uuidLookup is the uuid column of an equality or inequality with a
// literal written as a UUID, or nil: the database compares those as
// uuids, by its index, and only other text needs the column's text.
func uuidLookup(e *planast.Binary) *planast.Column {
	if e.Op != planast.OpEq && e.Op != planast.OpNe {
		return nil
	}
	for _, p := range [][2]planast.Expr{{e.Left, e.Right}, {e.Right, e.Left}} {
		if c, ok := p[0].(*planast.Column); ok && c.AsText == "uuid" && uuidLiteral(p[1]) {
			return c
		}
	}
	return nil
}

// uuidListLookup is uuidLookup for an IN list of literals, each written
// as a UUID.
func uuidListLookup(e *planast.In) *planast.Column {
	c, ok := e.Expr.(*planast.Column)
	if !ok || c.AsText != "uuid" || e.Subquery != nil || len(e.List) == 0 {
		return nil
	}
	for _, x := range e.List {
		if !uuidLiteral(x) {
			return nil
		}
	}
	return c
}

// uuidLiteral reports whether e is a string literal written as a UUID.
func uuidLiteral(e planast.Expr) bool {
	l, ok := e.(*planast.Literal)
	return ok && l.Type == planast.TString && uuidText.MatchString(l.Text)
}

var uuidText = regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)

// operand renders e as an operand of a comparison of type t ("" when the
// comparison compares no dates or timestamps).
func (w *writer) operand(e planast.Expr, t planast.Type) string {
	s := w.exprS(e)
	if n, ok := w.d.(temporalOperands); ok && t != "" {
		return n.TemporalOperand(s, e, t)
	}
	return s
}

func (w *writer) literal(l *planast.Literal) string {
	switch l.Type {
	case planast.TNull:
		return "NULL"
	case planast.TInteger:
		return strconv.FormatInt(l.Int, 10)
	case planast.TBoolean:
		if l.Bool {
			return "TRUE"
		}
		return "FALSE"
	case planast.TDecimal:
		if !decimalRe.MatchString(l.Text) {
			w.fail("malformed decimal literal")
		}
		return l.Text
	case planast.TString:
		if strings.ContainsRune(l.Text, 0) {
			w.fail("NUL in string literal")
		}
		return QuoteString(l.Text)
	case planast.TDate:
		return w.d.DateLiteral(QuoteString(l.Text))
	case planast.TTimestamp:
		return w.d.TimestampLiteral(QuoteString(l.Text))
	}
	w.fail("unknown literal type %q", l.Type)
	return ""
}

func (w *writer) fn(f *planast.Func) {
	spec, ok := planast.LookupFunc(f.Name)
	if !ok || spec.Kind == planast.WindowOnly {
		w.fail("function %q is not allowed", f.Name)
	}
	args := make([]string, len(f.Args))
	if spec.Kind == planast.Aggregate {
		// an aggregate's argument is read row by row, before grouping
		defer func(g bool) { w.grouped = g }(w.grouped)
		w.grouped = false
	}
	for i, a := range f.Args {
		if i == spec.UnitArg {
			lit, ok := a.(*planast.Literal)
			if !ok || lit.Type != planast.TString || !slices.Contains(planast.UnitsOf(spec.Name), strings.ToLower(lit.Text)) {
				w.fail("%s needs a unit literal", spec.Name)
			}
			args[i] = strings.ToLower(lit.Text)
			continue
		}
		args[i] = w.widened(a, f.Decimals)
	}
	if len(args) < spec.MinArgs || (spec.MaxArgs >= 0 && len(args) > spec.MaxArgs) {
		w.fail("%s: wrong number of arguments", spec.Name)
	}
	if spec.Kind == planast.Aggregate {
		call, ok := w.boolExtreme(spec.Name, f.Numeric, args, f.Distinct, "")
		if !ok {
			call = w.aggregate(spec.Name, args, f.Distinct, "")
		}
		if spec.Name == "SUM" && f.Numeric == planast.TypeInteger {
			call = w.sumInt(call)
		}
		if r, ok := w.d.(intAvgRenderer); ok && spec.Name == "AVG" && f.Numeric == planast.TypeInteger && !f.Distinct {
			call = r.AvgInt(args[0], "")
		}
		w.str(call)
		return
	}
	w.str(once(args, func(i int) bool { return w.bindable(f.Args[i]) }, func(args []string) string { return w.scalar(spec, f, args) }))
}

// scalar is the rendering of a call of a function that is not an
// aggregate, over its rendered args.
func (w *writer) scalar(spec planast.FuncSpec, f *planast.Func, args []string) string {
	if dom, ok := mathDomain[spec.Name]; ok {
		x := w.d.Cast(args[0], planast.CastFloat)
		return spec.Name + "(CASE WHEN " + x + dom + " THEN " + x + " END)"
	}
	if spec.Name == "FROM_EPOCH_SECONDS" {
		// to the nearest millisecond, as SQLite keeps time: v's floor,
		// one double computed alike on every engine, is the count of
		// milliseconds each dialect's Func adds to the epoch. Years
		// 1 to 9999 everywhere, decided on v so a value rounded up into
		// year 10000 is NULL too: SQLite's dates stop at 9999, and
		// PostgreSQL would fail the whole query past its range
		v := w.d.Cast(args[0], planast.CastFloat) + " * 1000 + 0.5"
		s, ok := w.d.Func(spec.Name, []string{v})
		if !ok {
			w.fail("function %s has no rendering", spec.Name)
		}
		first, end := strconv.FormatInt(planast.EpochFirst*1000, 10), strconv.FormatInt(planast.EpochEnd*1000, 10)
		return "(CASE WHEN " + v + " >= " + first + " AND " + v + " < " + end + " THEN " + s + " END)"
	}
	if spec.Name == "AT_TIME_ZONE" {
		return w.atTimeZone(f, args)
	}
	if spec.Name == "DATE_ADD" && f.Temporal == planast.TypeTimestamp {
		r, ok := w.d.(timestampAdder)
		if !ok {
			w.fail("DATE_ADD of a timestamp has no rendering for %s", w.d.Name())
		}
		return r.AddToTimestamp(args[0], args[1], args[2])
	}
	if r, ok := w.d.(dateRenderer); ok && f.Temporal == planast.TypeDate {
		if s, ok := r.DateFunc(spec.Name, args); ok {
			return s
		}
	}
	s, ok := w.d.Func(spec.Name, args)
	if !ok {
		w.fail("function %s has no rendering", spec.Name)
	}
	return s
}

// aggregate writes an aggregate call; over is "" or the " OVER (...)"
// clause of a window. AVG is the exact sum divided once by the count, by
// the division rule every ratio follows (TrueDiv): the engines' own AVG sums
// in floating point, in scan order on some, so over large integers or
// many-digit decimals it differed by engine and from the true mean, while
// SUM is exact wherever the column is (integers, decimals outside SQLite)
// and the one rounding left is the final division.
// mathDomain is the condition under which each float function is defined:
// outside it the argument becomes NULL, so every engine returns NULL where
// PostgreSQL would fail the query and DuckDB return NaN or -inf.
var mathDomain = map[string]string{"SQRT": " >= 0", "LN": " > 0"}

// spreadRenderer is implemented by dialects whose own standard deviation
// and variance lose digits (DuckDB's Welford update is off in the 8th digit
// over 1e9+1, 1e9+2, ...): name is STDDEV_SAMP, STDDEV_POP, VAR_SAMP or
// VAR_POP, arg the aggregate's argument (with DISTINCT), x the value.
type spreadRenderer interface {
	Spread(name, arg, x string) string
}

// intAvgRenderer is a dialect whose SUM of integers fails where the sum
// passes int64 although the average does not (SQLite's SUM raises
// "integer overflow"; PostgreSQL and DuckDB sum in wider types): AvgInt
// renders the AVG of the integer x (over is "" or a window's OVER clause)
// as that exact sum, rounded once to a double, over the count.
type intAvgRenderer interface {
	AvgInt(x, over string) string
}

// boolExtremeRenderer is a dialect with no MIN or MAX of booleans
// (PostgreSQL: "function max(boolean) does not exist"): BoolExtreme renders
// name (MIN or MAX) over the boolean arg (with DISTINCT) as the aggregate
// that means the same there, true when all (MIN) or any (MAX) of the
// values that are not NULL is, NULL over none, as MIN and MAX are over
// SQLite's 0 and 1 and DuckDB's booleans.
type boolExtremeRenderer interface {
	BoolExtreme(name, arg, over string) string
}

// boolExtreme is the MIN or MAX of booleans (numeric is the type Validate
// set on the call: Func.Numeric) in the dialect's own words, or false
// where the dialect's MIN and MAX take booleans.
func (w *writer) boolExtreme(name string, numeric planast.Type, args []string, distinct bool, over string) (string, bool) {
	r, ok := w.d.(boolExtremeRenderer)
	if !ok || numeric != planast.TypeBoolean || (name != "MIN" && name != "MAX") {
		return "", false
	}
	d := ""
	if distinct {
		d = "DISTINCT "
	}
	return r.BoolExtreme(name, d+args[0], over), true
}

func (w *writer) aggregate(name string, args []string, distinct bool, over string) string {
	if name == "COUNT" && len(args) == 0 {
		return "COUNT(*)" + over
	}
	d := ""
	if distinct {
		d = "DISTINCT "
	}
	if name == "AVG" {
		return w.d.TrueDiv(w.aggregate("SUM", args, distinct, over), w.aggregate("COUNT", args, distinct, over))
	}
	if engineName, ok := planast.Spread[name]; ok {
		// over doubles everywhere: PostgreSQL would compute an integer's
		// in numeric and type it so
		x := w.d.Cast(args[0], planast.CastFloat)
		if s, ok := w.d.(spreadRenderer); ok && over == "" {
			return s.Spread(engineName, d+x, x)
		}
		return engineName + "(" + d + x + ")" + over
	}
	return name + "(" + d + args[0] + ")" + over
}

func (w *writer) window(win *planast.Window) {
	spec, ok := planast.LookupFunc(win.Name)
	if !ok || spec.Kind == planast.Scalar {
		w.fail("%q is not a window function", win.Name)
	}
	args := make([]string, len(win.Args))
	for i, a := range win.Args {
		// LAG and LEAD: the value and the default (the offset is an integer)
		args[i] = w.widened(a, win.Decimals && i != 1)
	}
	var parts []string
	if len(win.PartitionBy) > 0 {
		ps := make([]string, len(win.PartitionBy))
		for i, p := range win.PartitionBy {
			ps[i] = w.exprS(p)
		}
		parts = append(parts, "PARTITION BY "+strings.Join(ps, ", "))
	}
	if len(win.OrderBy) > 0 {
		os := make([]string, len(win.OrderBy))
		for i, o := range win.OrderBy {
			os[i] = windowOrderKey(w.d, w.exprS(o.Expr), o)
		}
		parts = append(parts, "ORDER BY "+strings.Join(os, ", "))
	}
	over := " OVER (" + strings.Join(parts, " ") + ")"
	if spec.Kind == planast.Aggregate {
		call, ok := w.boolExtreme(spec.Name, win.Numeric, args, false, over)
		if !ok {
			call = w.aggregate(spec.Name, args, false, over)
		}
		if spec.Name == "SUM" && win.Numeric == planast.TypeInteger {
			call = w.sumInt(call)
		}
		if r, ok := w.d.(intAvgRenderer); ok && spec.Name == "AVG" && win.Numeric == planast.TypeInteger {
			call = r.AvgInt(args[0], over)
		}
		w.str(call)
		return
	}
	w.str(spec.Name + "(" + strings.Join(args, ", ") + ")" + over)
}

// readsText reports whether column e is written as its text
// (EngineText): a column of an engine type the portable types call text,
// outside SQLite and a uuid lookup.
func (w *writer) readsText(e *planast.Column) bool {
	return e.AsText != "" && w.d.Name() != "sqlite" && e != w.lookup
}

// EngineText is the text of x, a column of engine type engineType that the
// portable types call text (planast.Column.AsText), as its values come
// back: its cast to text, but for a PostgreSQL inet, whose cast writes a
// host address with /32 where results show none (abbrev). Profiling lists
// such a column's values by the same text, so a filter copied from them
// matches.
func EngineText(d Dialect, x, engineType string) string {
	if engineType == "inet" && d.Name() == "postgres" {
		return "abbrev(" + x + ")"
	}
	return "CAST(" + x + " AS TEXT)"
}
