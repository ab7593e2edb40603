package validate

import (
	"fmt"
	"strconv"
	"strings"

	. "github.com/nl2sql/nl2sql/planast"
)

// Traps: plans that are valid, run, and answer another question than the
// one they look like. Each earns a warning that names the part of the
// plan and the fix; none is refused, since each may be meant.
//
//   - COUNT over a CASE whose other branch is a value (ELSE 0) counts
//     every row: COUNT counts values that are not NULL, and 0 is one.
//     With DISTINCT it counts the value once: one too many beside ids
//     (THEN a column), and meant beside labels (every THEN a literal).
//   - A WHERE condition on the right side of a LEFT JOIN that is false on
//     NULL drops the rows the join kept without a match, so the join acts
//     as an inner one ("customers and their 2024 orders" loses the
//     customers without one).

// trapWarnings returns the trap warnings of every query in root.
func trapWarnings(root *Query) []string {
	var out []string
	Inspect(root, func(n Node) bool {
		q, ok := n.(*Query)
		if !ok || q == nil {
			return true
		}
		for i, it := range q.Select {
			out = append(out, countedCases(it.Expr, fmt.Sprintf("select[%d]", i))...)
		}
		if q.Having != nil {
			out = append(out, countedCases(q.Having, "having")...)
		}
		out = append(out, outerFilters(q)...)
		return true
	})
	return append(out, nullComparisons(root)...)
}

// nullComparisons finds comparisons with a null literal (x = null, x > null):
// SQL never holds them true, so a filter of one keeps no row and the result
// looks like "none". A host may not have meant null at all: JavaScript
// writes a number it cannot hold (1e400) as null. One warning per plan.
func nullComparisons(root *Query) []string {
	found := ""
	Inspect(root, func(n Node) bool {
		b, ok := n.(*Binary)
		if !ok || found != "" {
			return found == ""
		}
		switch b.Op {
		case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
			for _, side := range []Expr{b.Left, b.Right} {
				if l, ok := side.(*Literal); ok && l.Type == TNull {
					found = string(b.Op)
				}
			}
		}
		return true
	})
	if found == "" {
		return nil
	}
	return []string{fmt.Sprintf("a comparison %s null is never true in SQL, so it keeps no row and matches nothing: to test for a missing value use {\"kind\": \"is_null\", \"expr\": …} (\"negated\": true for a value that is there); if null was not meant, the client may have written a number it cannot hold (JavaScript sends 1e400 as null): send it as a string", found)}
}

// countedCases finds COUNT(CASE … ELSE v END) with v a value in e (not in
// its subqueries).
func countedCases(e Expr, path string) []string {
	var out []string
	Inspect(e, func(n Node) bool {
		switch f := n.(type) {
		case *Query:
			return false
		case *Func:
			if !strings.EqualFold(f.Name, "COUNT") || len(f.Args) != 1 {
				return true
			}
			c, ok := f.Args[0].(*Case)
			if !ok || c.Else == nil || !valueLiteral(c.Else) {
				return true
			}
			if f.Distinct {
				// COUNT(DISTINCT …) counts the ELSE value once, not every
				// row: a count of labels ('APP', 'OTHER') means it; only
				// beside THEN values read from rows (ids) is it one too many
				if allLiteralThens(c) {
					return true
				}
				out = append(out, fmt.Sprintf("%s: COUNT(DISTINCT CASE … ELSE %s END) counts %s as one more distinct value beside the THEN values, whenever a row takes the ELSE; to count only the THEN values drop the ELSE, so the other rows are NULL", path, literalText(c.Else), literalText(c.Else)))
				return true
			}
			out = append(out, fmt.Sprintf("%s: COUNT(CASE … ELSE %s END) counts every row: COUNT counts the values that are not NULL, and the ELSE value is one; use SUM over the CASE (THEN 1 ELSE 0), or drop the ELSE so the other rows are NULL", path, literalText(c.Else)))
		}
		return true
	})
	return out
}

// allLiteralThens reports whether every THEN of c is a literal.
func allLiteralThens(c *Case) bool {
	for _, w := range c.Whens {
		if _, ok := w.Then.(*Literal); !ok {
			return false
		}
	}
	return true
}

// valueLiteral reports whether e is a literal that is not NULL.
func valueLiteral(e Expr) bool {
	l, ok := e.(*Literal)
	return ok && l.Type != TNull
}

// literalText is a literal as a plan's reader wrote it.
func literalText(e Expr) string {
	l := e.(*Literal)
	switch l.Type {
	case TInteger:
		return strconv.FormatInt(l.Int, 10)
	case TBoolean:
		return strconv.FormatBool(l.Bool)
	case TString:
		return strconv.Quote(l.Text)
	}
	return l.Text
}

// outerFilters finds WHERE conditions (top-level conjuncts) on the right
// side of a LEFT JOIN (either side of a FULL one) that are false where
// that side is NULL. A condition that tests for NULL either way, or falls
// back (COALESCE, IFNULL), says what it does with those rows and is left
// alone.
func outerFilters(q *Query) []string {
	if q.Where == nil {
		return nil
	}
	nullable := map[string]bool{}
	for _, j := range q.Joins {
		switch j.Type {
		case JoinLeft:
			nullable[j.Right] = true
		case JoinRight:
			nullable[j.Left] = true
		case JoinFull:
			nullable[j.Left], nullable[j.Right] = true, true
		}
	}
	if len(nullable) == 0 {
		return nil
	}
	var out []string
	for _, c := range conjuncts(q.Where) {
		alias := ""
		tolerant := false
		Inspect(c, func(n Node) bool {
			switch x := n.(type) {
			case *Query:
				return false
			case *IsNull:
				// IS NULL keeps the unmatched rows (an anti-join); IS NOT
				// NULL asks for the matched ones, as an inner join would
				tolerant = true
			case *Func:
				name := strings.ToUpper(x.Name)
				tolerant = tolerant || name == "COALESCE" || name == "IFNULL"
			case *Column:
				if nullable[x.Table] && alias == "" {
					alias = x.Table
				}
			}
			return true
		})
		if alias == "" || tolerant || !everyBranchReads(c, alias) {
			continue
		}
		out = append(out, fmt.Sprintf("where: a condition on %s, which an outer join leaves NULL where it found no match, is false there, so those rows are dropped and the join acts as an inner one; to keep them, move the condition into the join's \"condition\"", alias))
	}
	return out
}

// everyBranchReads reports whether each branch of c's top-level ORs reads
// a column of alias: a branch that does not may hold where alias is NULL
// (p.x = 1 OR l.y = 2), and then the row is kept.
func everyBranchReads(c Expr, alias string) bool {
	for _, d := range disjuncts(c) {
		reads := false
		Inspect(d, func(n Node) bool {
			if _, ok := n.(*Query); ok {
				return false
			}
			if col, ok := n.(*Column); ok && col.Table == alias {
				reads = true
			}
			return !reads
		})
		if !reads {
			return false
		}
	}
	return true
}

// disjuncts splits e at its top-level ORs.
func disjuncts(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && strings.EqualFold(b.Op, OpOr) {
		return append(disjuncts(b.Left), disjuncts(b.Right)...)
	}
	return []Expr{e}
}

// conjuncts splits e at its top-level ANDs.
func conjuncts(e Expr) []Expr {
	if b, ok := e.(*Binary); ok && strings.EqualFold(b.Op, OpAnd) {
		return append(conjuncts(b.Left), conjuncts(b.Right)...)
	}
	return []Expr{e}
}
