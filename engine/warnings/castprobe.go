package warnings

import (
	"encoding/json"
	"fmt"

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

// CastProbe is the probe of the first such cast in plan (its text, the
// column and the table named), or nil when there is none. It is a new
// plan: validate and run it as the caller, like any other. what names the
// cast for the warning.
func CastProbe(snap *schema.Snapshot, plan *planast.Query) (probe *planast.Query, what string) {
	eachQuery(plan, func(q *planast.Query) {
		if probe != nil {
			return
		}
		inspectQuery(q, func(e planast.Expr) {
			c, ok := e.(*planast.Cast)
			if !ok || probe != nil || !c.FromText {
				return
			}
			if _, bare := c.Expr.(*planast.Column); bare {
				return // the profile's count says it (mixedWarnings)
			}
			ref := onlyColumn(c.Expr)
			if ref == nil {
				return
			}
			_, col := emptyrange.TableOfColumn(snap, q, ref)
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
			if from.Table == "" {
				return
			}
			b, err := json.Marshal(c)
			if err != nil {
				return
			}
			x, err := planast.DecodeExpr(b, planast.DefaultLimits)
			if err != nil {
				return
			}
			refCol := &planast.Column{Table: ref.Table, Column: ref.Column}
			probe = &planast.Query{
				Select: []planast.SelectItem{
					{Expr: &planast.Func{Name: "COUNT"}, Alias: "lost"},
					{Expr: &planast.Func{Name: "MIN", Args: []planast.Expr{refCol}}, Alias: "example"},
				},
				From: []planast.From{{Schema: from.Schema, Table: from.Table, Alias: from.Alias}},
				Where: &planast.Binary{Op: planast.OpAnd,
					Left:  &planast.IsNull{Expr: refCol, Negated: true},
					Right: &planast.IsNull{Expr: x}},
			}
			arg, err := json.Marshal(c.Expr)
			if err != nil {
				return
			}
			what = fmt.Sprintf("the cast of %s to %s", arg, c.Type)
		})
	})
	return probe, what
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

// CastProbeWarning reads the probe's row (lost, example): "" when the
// expression reads every value.
func CastProbeWarning(what string, row []any) string {
	if len(row) != 2 {
		return ""
	}
	n, _ := row[0].(int64)
	if n == 0 {
		return ""
	}
	values := fmt.Sprintf("%d values", n)
	if n == 1 {
		values = "1 value"
	}
	if row[1] != nil {
		values += " (such as " + example(row[1], planast.TypeText) + ")"
	}
	return fmt.Sprintf("%s read %s of the table as NULL, so they count in no sum, average or comparison and group as NULL; change the expression until it reads them too, or check that they are meant to be missing", what, values)
}
