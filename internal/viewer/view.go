package viewer

import (
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// View is what the page needs beyond the structured result: the display
// text of number cells and the chart.
type View struct {
	// Chart is nil when the result has no obvious chart.
	Chart *Chart `json:"chart,omitempty"`
	// Display maps a column index (as text) to the display text of each of
	// its rows (cellfmt.Value), for columns that hold numbers; an entry is
	// null where that row's cell is not a number (NULL, text).
	Display map[string][]*string `json:"display,omitempty"`
}

// Chart kinds.
const (
	ChartLine   = "line"
	ChartBar    = "bar"
	ChartNumber = "number"
)

// Chart is the chart of a result: Kind, the label column X (-1 for a big
// number) and the measure columns Y, by index into the result's columns.
type Chart struct {
	Kind string `json:"kind"`
	X    int    `json:"x"`
	Y    []int  `json:"y"`
}

// MaxBars caps a bar chart: more categories than this read better as the
// table.
const MaxBars = 50

// For is the view of res (its rows as they will be sent).
func For(res *engine.Result) View {
	return View{Chart: ChartFor(res), Display: Display(res.Rows, res.ColumnTypes)}
}

// Display is the display text of the number cells of rows, by column;
// types (one per column, or nil) let a decimal print as a decimal.
func Display(rows [][]any, types []planast.Type) map[string][]*string {
	var out map[string][]*string
	for r, row := range rows {
		for c, v := range row {
			if !isNumber(v) {
				continue
			}
			if out == nil {
				out = map[string][]*string{}
			}
			k := strconv.Itoa(c)
			if out[k] == nil {
				out[k] = make([]*string, len(rows))
			}
			var t planast.Type
			if c < len(types) {
				t = types[c]
			}
			s := cellfmt.Value(v, t)
			out[k][r] = &s
		}
	}
	return out
}

func isNumber(v any) bool {
	switch v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return true
	case interface{ Float64() (float64, error) }: // json.Number
		return true
	}
	return false
}

// ChartFor picks res's chart from its column types and its plan, or nil.
//
// A measure is a number column: with a plan that aggregates, one whose
// expression holds an aggregate or window (a grouped number, such as a
// year, is a label); without aggregates, any number column. A period is
// a date or timestamp column, or a PERIOD_LABEL, DATE_TRUNC or DATE_PART
// of the plan. Then:
//   - one row and one column holding a number: a big number;
//   - one period column and the rest measures, over two rows or more: a
//     line (the page orders its points by the period);
//   - one other column and one measure, up to MaxBars rows: bars, in the
//     rows' order, which is the plan's order_by;
//   - anything else: none.
func ChartFor(res *engine.Result) *Chart {
	n := len(res.Columns)
	if n == 0 || len(res.ColumnTypes) != n || len(res.Rows) == 0 {
		return nil
	}
	var sel []planast.SelectItem
	if res.Plan != nil && len(res.Plan.SetOps) == 0 && len(res.Plan.Select) == n {
		sel = res.Plan.Select
	}
	aggregates := false
	for _, it := range sel {
		aggregates = aggregates || hasAggregate(it.Expr)
	}
	var measures, periods, others []int
	for i, t := range res.ColumnTypes {
		numeric := t == planast.TypeInteger || t == planast.TypeDecimal || t == planast.TypeFloat
		switch {
		case sel != nil && isPeriodExpr(sel[i].Expr), t == planast.TypeDate, t == planast.TypeTimestamp:
			periods = append(periods, i)
		case numeric && (!aggregates || hasAggregate(sel[i].Expr)):
			measures = append(measures, i)
		default:
			others = append(others, i)
		}
	}
	switch {
	case n == 1 && len(res.Rows) == 1 && len(measures) == 1 && isNumber(res.Rows[0][0]):
		return &Chart{Kind: ChartNumber, X: -1, Y: measures}
	case len(periods) == 1 && len(others) == 0 && len(measures) >= 1 && len(res.Rows) >= 2:
		return &Chart{Kind: ChartLine, X: periods[0], Y: measures}
	case len(others)+len(periods) == 1 && len(measures) == 1 && len(res.Rows) <= MaxBars && n == 2:
		x := append(others, periods...)[0]
		return &Chart{Kind: ChartBar, X: x, Y: measures}
	}
	return nil
}

func hasAggregate(e planast.Expr) bool {
	found := false
	planast.Inspect(e, func(n planast.Node) bool {
		switch n := n.(type) {
		case *planast.Query:
			return false
		case *planast.Window:
			found = true
		case *planast.Func:
			if spec, ok := planast.LookupFunc(n.Name); ok && spec.Kind == planast.Aggregate {
				found = true
			}
		}
		return !found
	})
	return found
}

// isPeriodExpr: the expression is a period of a date (PERIOD_LABEL,
// DATE_TRUNC, DATE_PART), perhaps cast.
func isPeriodExpr(e planast.Expr) bool {
	for {
		c, ok := e.(*planast.Cast)
		if !ok {
			break
		}
		e = c.Expr
	}
	f, ok := e.(*planast.Func)
	if !ok {
		return false
	}
	switch strings.ToUpper(f.Name) {
	case "PERIOD_LABEL", "DATE_TRUNC", "DATE_PART":
		return true
	}
	return false
}
