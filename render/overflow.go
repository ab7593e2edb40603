package render

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Arithmetic has one range on every engine (see "Arithmetic overflow" in
// doc.go): integer arithmetic is int64, decimal arithmetic DECIMAL(38,10),
// float arithmetic double, and a result beyond the range is an error
// everywhere, never a value on one engine and an error, an infinity or a
// rounded double on another.
//
// A chain is a maximal tree of +, - and * (and unary minus) of one numeric
// type (Binary.Numeric, Unary.Numeric): its range is checked once, at its
// top, so the SQL grows by one wrapper per chain, not per node. A product
// of two decimals is a chain of its own (its range is narrower: DuckDB
// computes it at scale 20).

// rangeKind is the range a chain top is checked against.
type rangeKind int

const (
	rangeInt64      rangeKind = iota // |x| ≤ 2^63-1
	rangeDecimal                     // |x| < 10^28, 10 decimals: DECIMAL(38,10)
	rangeDecProduct                  // a decimal × decimal product: |x| < 10^18
	rangeDouble                      // finite, unless an operand is infinite
)

// rangeChecker is implemented by every dialect: RangeCheck wraps the
// rendered top of a chain so that a value beyond kind's range is an error;
// leaves are the rendered operands whose run-time type SQLite must confirm
// (an integer column may hold a real there).
type rangeChecker interface {
	RangeCheck(sql string, kind rangeKind, leaves []string) string
	// WidenInt renders an integer operand as a 64-bit integer (PostgreSQL
	// and DuckDB type literals and int4 columns as 32-bit, and overflow at
	// 2^31 where SQLite does not).
	WidenInt(sql string) string
	// ExactDiv renders l div r for two integers: int64 division truncating
	// toward zero, NULL when r is 0, an error for the one quotient beyond
	// int64 (the smallest int64 div -1); leaves as RangeCheck's.
	ExactDiv(l, r string, leaves []string) string
	// WidenDecimal renders one of several decimal branches of a result
	// (planast.Case.Decimals) in a type that holds every branch's digits;
	// scale is the most digits after the point a decimal the plan reads
	// has.
	WidenDecimal(sql string, scale int) string
}

// overflowError is SQLite's way to raise an error from an expression: abs
// of the smallest integer fails with "integer overflow", which the adapter
// reports as ARITHMETIC_OVERFLOW as it does PostgreSQL's and DuckDB's own.
const overflowError = "abs(-9223372036854775807 - 1)"

// DoubleOverflowMessage is the text of the error a float result beyond
// the double range raises on SQLite and DuckDB (PostgreSQL raises its
// own, "value out of range: overflow"): the integer raise above would
// tell a caller whose operands are floats already to cast one to float.
// The adapters report it as ARITHMETIC_OVERFLOW with a float hint
// (internal/source.DoubleOverflow).
const DoubleOverflowMessage = "float out of range: the result is beyond ±1.8e308"

// isArith reports whether e is +, -, * or unary minus, and of which type.
func isArith(e planast.Expr) (planast.Type, bool) {
	switch e := e.(type) {
	case *planast.Binary:
		switch e.Op {
		case planast.OpAdd, planast.OpSub, planast.OpMul:
			return e.Numeric, e.Numeric.IsNumeric()
		}
	case *planast.Unary:
		return e.Numeric, e.Op == "-" && e.Numeric.IsNumeric()
	}
	return "", false
}

// atLeastOne reports whether e is a number literal whose absolute value
// is at least 1: a quotient by it is no larger than its dividend.
func atLeastOne(e planast.Expr) bool {
	l, ok := e.(*planast.Literal)
	switch {
	case !ok:
		return false
	case l.Type == planast.TInteger:
		return l.Int != 0
	case l.Type == planast.TDecimal:
		f, err := strconv.ParseFloat(l.Text, 64)
		return err == nil && math.Abs(f) >= 1
	}
	return false
}

// decProduct reports whether e multiplies two decimals.
func decProduct(e planast.Expr) bool {
	b, ok := e.(*planast.Binary)
	return ok && b.DecimalProduct
}

// continues reports whether child is part of parent's chain.
func continues(parent planast.Type, child planast.Expr) bool {
	t, ok := isArith(child)
	return ok && t == parent && !decProduct(child)
}

// arith renders the arithmetic e (isArith holds), checked against its range
// when top; leaves collects the chain's operands SQLite must confirm are
// integers at run time.
func (w *writer) arith(e planast.Expr, top bool, leaves *[]string) string {
	t, _ := isArith(e)
	operand := func(x planast.Expr) string {
		if !decProduct(e) && continues(t, x) {
			return w.arith(x, false, leaves)
		}
		s := w.exprS(x)
		if _, cast := x.(*planast.Cast); t == planast.TypeInteger && !cast && !intLiteral(x) || t == planast.TypeFloat {
			*leaves = append(*leaves, s)
		}
		return s
	}
	var s string
	rc := w.d.(rangeChecker) // every dialect implements it (TestDialectsCheckRanges)
	switch e := e.(type) {
	case *planast.Binary:
		l, r := operand(e.Left), operand(e.Right)
		if t == planast.TypeInteger && !continues(t, e.Left) && !continues(t, e.Right) && !wide(e.Left) && !wide(e.Right) {
			l = rc.WidenInt(l)
		}
		s = "(" + l + " " + e.Op + " " + r + ")"
	case *planast.Unary:
		x := operand(e.Expr)
		if t == planast.TypeInteger && !continues(t, e.Expr) && !wide(e.Expr) {
			x = rc.WidenInt(x)
		}
		s = "(- " + x + ")"
	}
	if !top {
		return s
	}
	kind := rangeInt64
	switch {
	case decProduct(e):
		kind = rangeDecProduct
	case t == planast.TypeDecimal:
		kind = rangeDecimal
	case t == planast.TypeFloat:
		kind = rangeDouble
	}
	return rc.RangeCheck(s, kind, dedupe(*leaves))
}

// wide reports whether the integer operand e is 64-bit on every engine
// already: a cast to integer, an integer division, COUNT, an integer SUM or
// a literal beyond 32 bits.
func wide(e planast.Expr) bool {
	switch e := e.(type) {
	case *planast.Cast:
		return e.Type == planast.CastInteger
	case *planast.Binary:
		return e.Op == planast.OpIDiv
	case *planast.Func:
		return e.Name == "COUNT" || e.Numeric == planast.TypeInteger
	case *planast.Literal:
		return e.Type == planast.TInteger && (e.Int > math.MaxInt32 || e.Int < math.MinInt32)
	}
	return false
}

// exactDiv renders the integer division e (e.ExactDiv holds) exactly, not
// through doubles, which lose digits beyond 2^53 (9223372036854775807 div
// 3 was 3074457345618258432).
func (w *writer) exactDiv(e *planast.Binary) string {
	l, r := w.exprS(e.Left), w.exprS(e.Right)
	var leaves []string
	for _, x := range []struct {
		e planast.Expr
		s string
	}{{e.Left, l}, {e.Right, r}} {
		if !knownInt(x.e) {
			leaves = append(leaves, x.s)
		}
	}
	rc := w.d.(rangeChecker)
	if !wide(e.Left) {
		l = rc.WidenInt(l)
	}
	return rc.ExactDiv(l, r, dedupe(leaves))
}

// knownInt reports whether the integer operand e is an integer at run time
// on SQLite too: a literal, a cast, an integer division.
func knownInt(e planast.Expr) bool {
	if b, ok := e.(*planast.Binary); ok && b.Op == planast.OpIDiv {
		return true
	}
	_, cast := e.(*planast.Cast)
	return cast || intLiteral(e)
}

func intLiteral(e planast.Expr) bool {
	l, ok := e.(*planast.Literal)
	return ok && (l.Type == planast.TInteger || l.Type == planast.TNull)
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// sumInt renders SUM over integers as a 64-bit integer: SQLite's sum()
// fails beyond int64 ("integer overflow"), PostgreSQL's returns numeric and
// DuckDB's HUGEINT; the cast makes a sum beyond int64 the same error there.
func (w *writer) sumInt(call string) string {
	if w.d.Name() == "sqlite" {
		return call
	}
	return "CAST(" + call + " AS BIGINT)"
}

// RangeCheck: SQLite turns an integer overflow into a double silently, and
// its decimals are doubles; the chain's value is tested and an out-of-range
// one raises through overflowError.
func (SQLite) RangeCheck(s string, kind rangeKind, leaves []string) string {
	switch kind {
	case rangeInt64:
		conds := []string{"typeof(" + s + ") = 'real'"}
		for _, l := range leaves {
			conds = append(conds, "typeof("+l+") = 'integer'")
		}
		return "CASE WHEN " + strings.Join(conds, " AND ") + " THEN " + overflowError + " ELSE " + s + " END"
	case rangeDecimal:
		return "CASE WHEN abs(" + s + ") >= 1e28 THEN " + decimalOverflow + " ELSE " + s + " END"
	case rangeDouble:
		// json_extract of a path that is no JSON path raises a chosen
		// text (as oneRowSQLite does)
		return "CASE WHEN " + overflowed(s, leaves, func(x string) string { return "abs(" + x + ") > " + maxDouble }) +
			" THEN json_extract('{}', " + QuoteString(DoubleOverflowMessage) + ") ELSE " + s + " END"
	}
	return "CASE WHEN abs(" + s + ") >= 1e18 THEN " + decimalOverflow + " ELSE " + s + " END"
}

// DecimalOverflowMessage is the error a decimal result beyond the plan's
// decimal range raises on SQLite, whose decimals are doubles (its own
// "integer overflow" sent the user looking for an integer), and on DuckDB,
// whose decimals of a smaller scale reach past it.
const DecimalOverflowMessage = "decimal out of range: the result is beyond ±10^28 (a product of two decimals ±10^18)"

// decimalOverflow raises DecimalOverflowMessage on SQLite: json_extract of
// a path that is no JSON path raises a chosen text.
var decimalOverflow = "json_extract('{}', " + QuoteString(DecimalOverflowMessage) + ")"

// maxDouble is the largest finite double: SQLite has no isinf, and its
// infinity is greater.
const maxDouble = "1.7976931348623157e308"

// overflowed renders the condition of a double overflow as PostgreSQL
// raises it: the value s is infinite (inf renders that test) while none of
// its operands is (an infinity stored in a column stays one, as it does
// there).
func overflowed(s string, leaves []string, inf func(string) string) string {
	conds := []string{inf(s)}
	for _, l := range leaves {
		conds = append(conds, "NOT "+inf(l))
	}
	return strings.Join(conds, " AND ")
}

// ExactDiv: SQLite divides two integers exactly, but turns the smallest
// int64 / -1 into a double, which the range check catches; an integer
// column holding a real divides as reals, and the cast truncates that
// quotient as the other engines' integer division would.
func (d SQLite) ExactDiv(l, r string, leaves []string) string {
	return "CAST(" + d.RangeCheck("("+l+" / NULLIF("+r+", 0))", rangeInt64, leaves) + " AS INTEGER)"
}

// WidenDecimal: SQLite's decimals are doubles.
func (SQLite) WidenDecimal(s string, _ int) string { return s }

// WidenInt: SQLite's integers are 64-bit.
func (SQLite) WidenInt(s string) string { return s }

// RangeCheck: PostgreSQL's bigint and float8 arithmetic fail beyond their
// range by themselves (an infinite operand gives an infinity);
// its numeric is unbounded, so a decimal chain beyond 10^28 is cast to
// NUMERIC(38,10), which fails there (in range it keeps its scale), and a
// decimal product is computed in DuckDB's product range and scale.
func (Postgres) RangeCheck(s string, kind rangeKind, _ []string) string {
	switch kind {
	case rangeDecimal:
		return "CASE WHEN abs(" + s + ") < 1e28 THEN " + s + " ELSE CAST(" + s + " AS NUMERIC(38,10)) END"
	case rangeDecProduct:
		return "CAST(CAST(" + s + " AS NUMERIC(38,20)) AS NUMERIC(38,10))"
	}
	return s
}

// ExactDiv: PostgreSQL's bigint / truncates toward zero and fails beyond
// int64 by itself.
func (Postgres) ExactDiv(l, r string, _ []string) string {
	return "(" + l + " / NULLIF(" + r + ", 0))"
}

// WidenDecimal: a PostgreSQL numeric keeps each value's own scale.
func (Postgres) WidenDecimal(s string, _ int) string { return s }

// WidenInt: PostgreSQL types integer literals and integer columns as int4.
func (Postgres) WidenInt(s string) string { return "CAST(" + s + " AS BIGINT)" }

// RangeCheck: DuckDB's BIGINT and DECIMAL(38,10) arithmetic fails beyond
// its range by itself. A product of two decimals has the sum of their
// scales (20 for two plan decimals, so |x| < 10^18) and is cast back to
// scale 10, so products of products do not run out of scale (DuckDB
// refuses a scale beyond 38) and every engine fails at the same bound.
//
// Its doubles overflow to an infinity: an infinite value of finite
// operands raises DoubleOverflowMessage through error().
func (DuckDB) RangeCheck(s string, kind rangeKind, leaves []string) string {
	switch kind {
	case rangeDecProduct:
		return "CAST(CAST(" + s + " AS DECIMAL(38,20)) AS DECIMAL(38,10))"
	case rangeDecimal:
		// a DECIMAL(20,2) column times an integer is a DECIMAL(38,2),
		// which holds 10^31: the plan's decimals stop at 10^28, as on the
		// other engines
		return "CASE WHEN abs(" + s + ") >= 1e28 THEN error(" + QuoteString(DecimalOverflowMessage) + ") ELSE " + s + " END"
	case rangeDouble:
		return "CASE WHEN " + overflowed(s, leaves, func(x string) string { return "isinf(CAST(" + x + " AS DOUBLE))" }) +
			" THEN error(" + QuoteString(DoubleOverflowMessage) + ") ELSE " + s + " END"
	}
	return s
}

// ExactDiv: DuckDB's / divides integers as doubles; its // is BIGINT
// division truncating toward zero (-7 // 2 is -3, as % is -1), failing
// beyond int64 by itself.
func (DuckDB) ExactDiv(l, r string, _ []string) string {
	return "(" + l + " // NULLIF(" + r + ", 0))"
}

// WidenDecimal: DuckDB gives branches of DECIMAL(38,2) and DECIMAL(10,4)
// the type DECIMAL(38,2), rounding 0.1234 to 0.12; at the plan's decimal
// arithmetic type each keeps up to ten decimals, or as many as the
// finest decimal the plan reads has (a DECIMAL(38,18) of token amounts).
func (DuckDB) WidenDecimal(s string, scale int) string {
	return "CAST(" + s + " AS DECIMAL(38," + strconv.Itoa(min(max(10, scale), 38)) + "))"
}

// WidenInt: DuckDB types small integer literals and INTEGER columns as
// INT32.
func (DuckDB) WidenInt(s string) string { return "CAST(" + s + " AS BIGINT)" }

// roundHalfShown renders the double x moved one or two units in the last
// place away from zero, for ROUND: a double written with up to 15
// significant digits (2.675, 1.005, 0.285) is often the binary value just
// below the half it shows (2.67499999999999982...), which SQLite's and
// DuckDB's ROUND round down (2.67) where PostgreSQL, which rounds the
// numeric of its 15 digits, rounds up (2.68). Moved away from zero it is
// past the half, and any value that is not a half is at least 10^-15 of
// itself away from one, farther than the move; |x| >= 2^52 holds no
// fraction and is left as it is (see "ROUND" in doc.go).
func roundHalfShown(x string) string {
	return "(CASE WHEN abs(" + x + ") < 4503599627370496.0 THEN " + x + " * 1.0000000000000002 ELSE " + x + " END)"
}
