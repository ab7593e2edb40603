package warnings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// inexactAverages name an AVG over a decimal or integer column whose
// values have more significant digits than a double carries (an integer
// id beyond 2^53 averaged to …174 for …173). AVG divides once, in double
// precision, on every engine (render's division rule), so the average of
// NUMERIC(38,18) values near 10^19 comes back as 12345678901234567000:
// it reads as an exact figure and its last digits are not the data's.
// The profile's least and greatest values show the column's size; SUM
// and COUNT stay exact, for a host that needs every digit.
func inexactAverages(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(n planast.Expr) {
			var name string
			var args []planast.Expr
			switch f := n.(type) {
			case *planast.Func:
				name, args = f.Name, f.Args
			case *planast.Window:
				name, args = f.Name, f.Args
			}
			if !strings.EqualFold(name, "AVG") || len(args) != 1 {
				return
			}
			ref, ok := args[0].(*planast.Column)
			if !ok {
				return
			}
			c := emptyrange.FromColumn(snap, q, ref)
			if c == nil || seen[c] || c.Type != planast.TypeDecimal && c.Type != planast.TypeInteger || c.Profile == nil {
				return
			}
			widest, digits := "", 0
			for _, v := range []any{c.Profile.Min, c.Profile.Max} {
				if v == nil {
					continue
				}
				s := fmt.Sprint(v)
				if f, ok := v.(float64); ok {
					s = strconv.FormatFloat(f, 'f', -1, 64) // no exponent's digits
				}
				if d := len(strings.Trim(strings.Map(keepDigits, s), "0")); d > digits {
					widest, digits = s, d
				}
			}
			if digits > 15 {
				seen[c] = true
				out = append(out, fmt.Sprintf("AVG of %q divides in double precision on every engine (15 to 17 significant digits), and the column holds values of %d significant digits (such as %s): the average's last digits are not exact; SUM and COUNT of it are exact, to divide by hand where every digit matters (on SQLite while the running sum stays within ±9.2e18: past it SUM fails with ARITHMETIC_OVERFLOW, and only PostgreSQL and DuckDB sum such values exactly)", c.Name, digits, widest))
			}
		})
	})
	return out
}

// keepDigits keeps a rune that is a decimal digit and drops the rest.
func keepDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}
