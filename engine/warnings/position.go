package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// reversedPositions name a POSITION whose text to search is a literal and
// whose part to find is not: POSITION(text, sub) takes the text first, as
// PostgreSQL's strpos does, where SQL's POSITION(sub IN text) takes it
// second. Written in SQL's order, POSITION('/', invoice_date) looks for
// the date inside "/" and is 0 on every row: a count of dates with a
// slash came out 0 of 8,848 with no word. A literal searched for a
// column's value is rare enough (a grade's place in 'ABCDF') that the
// warning says which order it read.
func reversedPositions(plan *planast.Query) []string {
	var out []string
	seen := map[string]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		f, ok := n.(*planast.Func)
		if !ok || !strings.EqualFold(f.Name, "POSITION") || len(f.Args) != 2 {
			return true
		}
		text, isLit := f.Args[0].(*planast.Literal)
		if _, subLit := f.Args[1].(*planast.Literal); !isLit || subLit || text.Type != planast.TString {
			return true
		}
		w := fmt.Sprintf(`POSITION(text, sub) finds its second argument inside its first, and here the text searched is the literal %q: the place of the other argument's value inside %q, 0 wherever it is not part of it; to find %q inside the other argument, swap them`, text.Text, text.Text, text.Text)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
		return true
	})
	return out
}
