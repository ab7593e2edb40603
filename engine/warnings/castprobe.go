package warnings

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A cast of an expression over a text column (REPLACE(amount, '$', '')
// cast to decimal: what the amount warning itself suggests) reads as NULL
// every value the expression leaves unreadable ('1,199.50' after only the
// '$' went), and the profile, which counted the column's own values,
// cannot say how many: the sum comes back short and looks like an answer.
// CastProbe is the query that counts them, over the whole table as the
// profile counts; CastProbeWarning says what it found. It runs only where
// the profile saw values the plain cast reads as NULL, so a column of
// clean numbers costs nothing.

// CastProbes are the probes of such casts in plan (each cast's text, the
// column and the table named), the first MaxCastProbes of them; none when
// there is none. Each is a new plan: validate and run it as the caller,
// like any other. What names the cast for the warning. Every cast is
// probed, not the first alone: a plan that cast a text date in its
// filter (read whole) and a text amount in its sum (a fifth lost) was
// told nothing of the amount.
func CastProbes(snap *schema.Snapshot, plan *planast.Query) []Probe {
	var out []Probe
	eachQuery(plan, func(q *planast.Query) {
		guards := guardedCasts(q)
		inspectQuery(q, func(e planast.Expr) {
			c, ok := e.(*planast.Cast)
			if !ok || len(out) == MaxCastProbes || !c.FromText {
				return
			}
			var probe *planast.Query
			var what string
			guard, guarded := guards[c]
			if _, bare := c.Expr.(*planast.Column); bare && !guarded {
				return // the profile's count says it (mixedWarnings)
			}
			ref := onlyColumn(c.Expr)
			if ref == nil {
				return
			}
			t, col := emptyrange.TableOfColumn(snap, q, ref)
			if col == nil || col.Type != planast.TypeText {
				return
			}
			if cn, ok := col.Profile.CastNull(c.Type); !ok || cn.Invalid == 0 {
				return
			}
			var from planast.From
			for _, f := range q.From {
				if f.Alias == ref.Table && f.Subquery == nil {
					from = f
				}
			}
			_, stored := snap.Lookup(from.Schema, from.Table)
			if !stored {
				// a derived table or CTE passing the column through (the
				// distinct subquery the copied-rows warning suggests): the
				// probe reads the stored table, the expression over its
				// column; a guard may name columns the table lacks
				if guarded {
					return
				}
				from = planast.From{Schema: t.Schema, Table: t.Name, Alias: ref.Table}
			}
			x, err := copyExpr(c)
			if err != nil {
				return
			}
			inner, err := copyExpr(c.Expr)
			if err != nil {
				return
			}
			if !stored {
				renameColumn(x, ref, col.Name)
				renameColumn(inner, ref, col.Name)
			}
			refCol := &planast.Column{Table: ref.Table, Column: col.Name}
			// a value the expression itself makes NULL (NULLIF(TRIM(score),
			// '') for blanks) is meant to be missing: only what the cast
			// loses of the expression's values counts
			var lostIf planast.Expr = &planast.Binary{Op: planast.OpAnd,
				Left:  &planast.IsNull{Expr: inner, Negated: true},
				Right: &planast.IsNull{Expr: x}}
			readIf := planast.Expr(&planast.IsNull{Expr: x, Negated: true})
			if guarded {
				// only the rows that reach the cast's branch of its CASE
				for _, cond := range []*planast.Expr{&lostIf, &readIf} {
					g, err := copyExpr(guard)
					if err != nil {
						return
					}
					*cond = &planast.Binary{Op: planast.OpAnd, Left: *cond, Right: g}
				}
			}
			trimmed := &planast.Func{Name: "TRIM", Args: []planast.Expr{refCol}}
			blank := &planast.Binary{Op: "=", Left: trimmed, Right: &planast.Literal{Type: planast.TString, Text: ""}}
			when := func(cond planast.Expr, then planast.Expr) planast.Expr {
				return &planast.Case{Whens: []planast.When{{When: cond, Then: then}}}
			}
			and := func(a, b planast.Expr) planast.Expr { return &planast.Binary{Op: planast.OpAnd, Left: a, Right: b} }
			one := &planast.Literal{Type: planast.TInteger, Int: 1}
			// the example is one that is not blank: of 143 lost, 102
			// written '94,4' and 41 blank, a blank example said they were
			// all missing values
			items := []planast.SelectItem{
				{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{when(lostIf, one)}}, Alias: "lost"},
				{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{when(and(lostIf, &planast.Unary{Op: "not", Expr: blank}), refCol)}}, Alias: "example"},
				{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{when(and(lostIf, blank), one)}}, Alias: "blank"},
			}
			if removesComma(c.Expr) {
				// a decimal comma removed makes '94,4' 944: read, so no
				// count of lost values sees it. The value is judged as the
				// expression has it just before its commas go: '2.986,77 €'
				// with its symbol removed ends in two digits after a comma,
				// which the stored text does not; and a row whose CASE
				// branch keeps its comma ('1.150,50' made 1150.50) has none
				// there, since a cast reads no text with a comma
				kept, err := keepCommas(inner)
				if err != nil {
					return
				}
				keptTrimmed := &planast.Func{Name: "TRIM", Args: []planast.Expr{kept}}
				endsLike := func(p string) planast.Expr {
					return &planast.Like{Expr: keptTrimmed, Pattern: &planast.Literal{Type: planast.TString, Text: p}}
				}
				comma := and(readIf, &planast.Binary{Op: planast.OpOr, Left: endsLike("%,_"), Right: endsLike("%,__")})
				items = append(items,
					planast.SelectItem{Expr: &planast.Func{Name: "COUNT", Args: []planast.Expr{when(comma, one)}}, Alias: "decimal_commas"},
					planast.SelectItem{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{when(comma, refCol)}}, Alias: "comma_example"})
			}
			probe = &planast.Query{
				Select: items,
				From:   []planast.From{{Schema: from.Schema, Table: from.Table, Alias: from.Alias}},
			}
			arg, err := planast.JSON(c.Expr)
			if err != nil {
				return
			}
			what = fmt.Sprintf("the cast of %s to %s", castOperand(string(arg)), c.Type)
			if guarded {
				what += " in its branch of the CASE"
			}
			if !slices.ContainsFunc(out, func(p Probe) bool { return p.What == what }) {
				out = append(out, Probe{Query: probe, What: what})
			}
		})
	})
	return out
}

// maxOperandBytes bounds how much of a cast's operand a warning quotes.
const maxOperandBytes = 1000

// castOperand is a cast's operand as a warning names it: its JSON, or,
// past maxOperandBytes, its start and its length. The operand is the
// caller's own expression (a 4 KB CASE that reads dates written two ways,
// pasted from an earlier warning's fix): quoted whole it cost the host
// those bytes again on every run, where its start names it.
func castOperand(arg string) string {
	if len(arg) <= maxOperandBytes {
		return arg
	}
	return fmt.Sprintf("%s (%d characters of your plan)", planast.Truncate(arg, maxOperandBytes/4), utf8.RuneCountInString(arg))
}

// MaxCastProbes bounds the casts of one plan probed: each probe reads the
// whole table once.
const MaxCastProbes = 3

// Probe is one cast's probe (CastProbes) and what names the cast.
type Probe struct {
	Query *planast.Query
	What  string
}

// onlyColumn is the one column e names (several references to it count
// once), or nil when it names none, several, or holds a subquery.
func onlyColumn(e planast.Expr) *planast.Column {
	var ref *planast.Column
	many := false
	planast.Inspect(e, func(n planast.Node) bool {
		switch x := n.(type) {
		case *planast.Query:
			many = true
			return false
		case *planast.Column:
			if ref != nil && (ref.Table != x.Table || ref.Column != x.Column) {
				many = true
			}
			ref = x
		}
		return true
	})
	if many {
		return nil
	}
	return ref
}

// CastProbeWarning reads the probe's row (lost, example, blank, and when
// the expression removes commas decimal_commas, comma_example): "" when
// the expression reads every value, and reads none wrong.
func CastProbeWarning(what string, row []any) string {
	if len(row) != 3 && len(row) != 5 {
		return ""
	}
	var out []string
	n, _ := row[0].(int64)
	if n > 0 {
		values := fmt.Sprintf("%d values", n)
		if n == 1 {
			values = "1 value"
		}
		blanks, _ := row[2].(int64)
		switch {
		case row[1] != nil && blanks > 0:
			values += fmt.Sprintf(" (%d blank, the others such as %s)", blanks, example(row[1], planast.TypeText))
		case row[1] != nil:
			values += " (such as " + example(row[1], planast.TypeText) + ")"
		case blanks == n:
			values += " (all blank)"
		}
		out = append(out, fmt.Sprintf("%s read %s of the table as NULL, so they count in no COUNT, sum, average or comparison and group as NULL; change the expression until it reads them too, or check that they are meant to be missing", what, values))
	}
	if len(row) == 5 {
		if k, _ := row[3].(int64); k > 0 {
			out = append(out, fmt.Sprintf("%s removes the comma of %d values written with a decimal comma (such as %s), so each reads ten or a hundred times too large (9,5 as 95); make their ',' a '.' instead, e.g. with a CASE whose WHEN is the value LIKE '%%,_' or LIKE '%%,__' (a comma one or two places from the end) and whose THEN replaces ',' with '.'",
				what, k, example(row[4], planast.TypeText)))
		}
	}
	return strings.Join(out, "; and ")
}

// keepCommas is a copy of e whose every REPLACE of ',' with nothing is
// replaced by its first argument: what e's value is just before its commas
// are removed (the currency symbols and spaces it strips, stripped).
func keepCommas(e planast.Expr) (planast.Expr, error) {
	c, err := copyExpr(e)
	if err != nil {
		return nil, err
	}
	return planast.MapExpr(c, func(x planast.Expr) planast.Expr {
		if f, ok := x.(*planast.Func); ok && commaRemoval(f) {
			return f.Args[0]
		}
		return x
	}), nil
}

// removesComma reports whether e removes commas: a REPLACE of ',' with nothing
// at any depth (the thousands fix), which a decimal comma does not survive.
func removesComma(e planast.Expr) bool {
	found := false
	planast.Inspect(e, func(n planast.Node) bool {
		f, ok := n.(*planast.Func)
		found = found || ok && commaRemoval(f)
		return !found
	})
	return found
}

// commaRemoval reports whether f is REPLACE(x, ',', ”): the call that
// drops commas.
func commaRemoval(f *planast.Func) bool {
	if !strings.EqualFold(f.Name, "REPLACE") || len(f.Args) != 3 {
		return false
	}
	from, _ := f.Args[1].(*planast.Literal)
	to, _ := f.Args[2].(*planast.Literal)
	return from != nil && to != nil && from.Text == "," && to.Text == "" && to.Type == planast.TString
}

// renameColumn makes each reference to ref in e name the stored column
// name (an alias the derived table gave it is no column of the table).
func renameColumn(e planast.Expr, ref *planast.Column, name string) {
	planast.Inspect(e, func(n planast.Node) bool {
		if c, ok := n.(*planast.Column); ok && c.Table == ref.Table && c.Column == ref.Column {
			c.Column = name
		}
		return true
	})
}

// copyExpr is a fresh copy of e, to build a probe from.
func copyExpr(e planast.Expr) (planast.Expr, error) {
	b, err := planast.JSON(e)
	if err != nil {
		return nil, err
	}
	return planast.DecodeExpr(b, planast.DefaultLimits)
}

// guardedCasts maps each cast of q's own expressions that stands in a
// branch of a CASE (a THEN or the ELSE) to the condition under which a
// row reaches that branch: CASE WHEN amount LIKE '€%' THEN CAST(…) reads
// only the euro amounts, so what the cast makes of the others says
// nothing. The condition is the CASE itself picking the branch (its WHENs
// numbered, compared with the branch's number), which keeps its
// semantics exactly, NULLs and earlier WHENs included; a CASE inside a
// branch adds its own condition to the outer one.
func guardedCasts(q *planast.Query) map[*planast.Cast]planast.Expr {
	out := map[*planast.Cast]planast.Expr{}
	var walk func(e planast.Expr, guard planast.Expr)
	walk = func(e planast.Expr, guard planast.Expr) {
		planast.Inspect(e, func(n planast.Node) bool {
			switch x := n.(type) {
			case *planast.Query:
				return false
			case *planast.Cast:
				if guard != nil {
					out[x] = guard
				}
			case *planast.Case:
				pick := &planast.Case{Operand: x.Operand, Else: intLit(0)}
				for i, w := range x.Whens {
					pick.Whens = append(pick.Whens, planast.When{When: w.When, Then: intLit(int64(i + 1))})
				}
				branch := func(i int64) planast.Expr {
					var g planast.Expr = &planast.Binary{Op: planast.OpEq, Left: pick, Right: intLit(i)}
					if guard != nil {
						g = &planast.Binary{Op: planast.OpAnd, Left: guard, Right: g}
					}
					return g
				}
				if x.Operand != nil {
					walk(x.Operand, guard)
				}
				for i, w := range x.Whens {
					walk(w.When, guard)
					walk(w.Then, branch(int64(i+1)))
				}
				if x.Else != nil {
					walk(x.Else, branch(0))
				}
				return false
			}
			return true
		})
	}
	for _, root := range q.OwnExprs() {
		if root != nil {
			walk(root, nil)
		}
	}
	return out
}

func intLit(n int64) *planast.Literal {
	return &planast.Literal{Type: planast.TInteger, Int: n, Text: fmt.Sprint(n)}
}
