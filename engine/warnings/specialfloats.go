package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// specialAggregates explain SUM, AVG, MIN and MAX of a column whose profile
// holds NaN or an infinity (PostgreSQL's float and numeric, DuckDB's
// doubles): two such rows of thousands made "the average discount" NaN,
// and MAX returned NaN (it sorts above every number) with nothing said,
// although the database answered exactly what it was asked. A query whose
// where tests the column has chosen its rows and earns nothing.
func specialAggregates(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		tested := map[string]bool{}
		whereColumns(q, tested)
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || len(f.Args) != 1 {
				return
			}
			switch strings.ToUpper(f.Name) {
			case "SUM", "AVG", "MIN", "MAX":
			default:
				return
			}
			ref, ok := f.Args[0].(*planast.Column)
			if !ok || tested[ref.Table+"."+ref.Column] {
				return
			}
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || seen[c] || c.Profile == nil || !special(c.Profile.Min) && !special(c.Profile.Max) {
				return
			}
			seen[c] = true
			out = append(out, fmt.Sprintf(`%q holds NaN or an infinity (its profiled range is [%v, %v]): a SUM or AVG over it is NaN or infinite, and MIN or MAX may be that value rather than a number of the data (NaN sorts above every number); if the question means the finite values, keep the rows whose ABS(%s.%s) is below 1e308 (which leaves out NaN and both infinities) in the where`,
				c.Name, c.Profile.Min, c.Profile.Max, ref.Table, ref.Column))
		})
	})
	return out
}

// special reports whether a profiled value is NaN or an infinity, as the
// result encoding writes them.
func special(v any) bool {
	s, ok := v.(string)
	return ok && (s == "NaN" || s == "Infinity" || s == "-Infinity")
}

// whereColumns adds to tested every column q's own where names, as
// "alias.column": a query that tests a column has chosen its rows.
func whereColumns(q *planast.Query, tested map[string]bool) {
	if q.Where == nil {
		return
	}
	inspectOwn(q.Where, func(x planast.Expr) {
		if ref, ok := x.(*planast.Column); ok {
			tested[ref.Table+"."+ref.Column] = true
		}
	})
}
