package warnings

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
)

// roundedIntegers explain an empty result by an integer literal beyond
// 2^53 that a double holds exactly: JavaScript's JSON.parse (and any
// client that reads numbers as doubles) turns 9007199254741993 into
// 9007199254741992 before the plan leaves the host, so the filter looks
// for a value the host never wrote, and "no rows" is all it hears. The
// value sent as a string keeps every digit.
func roundedIntegers(plan *planast.Query) []string {
	const exact = 1 << 53
	var out []string
	seen := map[int64]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		lit, ok := n.(*planast.Literal)
		if !ok || lit.Type != planast.TInteger || seen[lit.Int] {
			return true
		}
		v := lit.Int
		if (v > exact || v < -exact) && int64(float64(v)) == v {
			seen[v] = true
			out = append(out, fmt.Sprintf("no rows matched the integer %d, which is beyond 2^53: a client that reads JSON numbers as doubles (JavaScript's JSON.parse) may have rounded the value it meant to this one; send it as a string, {\"kind\": \"literal\", \"type\": \"integer\", \"value\": \"%d\"}, to keep every digit", v, v))
		}
		return true
	})
	return out
}
