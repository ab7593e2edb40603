package warnings

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/jsontext"
)

// sharedFixMin is the size from which a fix written as plan JSON is given
// once: the expression that reads a column of mixed date forms is
// thousands of bytes, and MIN and MAX of the column each earned it.
const sharedFixMin = 300

// shareFixes writes each long plan-JSON expression (a balanced object
// that starts {"kind") once, in the first warning that gives it; a later
// warning giving the same one says so instead. The warnings keep their
// order, so "above" is where the host reads it.
func shareFixes(ws []string) []string {
	seen := map[string]bool{} // given by an earlier warning
	for i, w := range ws {
		given := map[string]bool{}
		var b strings.Builder
		rest := w
		for {
			at := strings.Index(rest, `{"kind"`)
			if at < 0 {
				b.WriteString(rest)
				break
			}
			n := jsontext.ObjectLen(rest[at:])
			if n == 0 {
				b.WriteString(rest)
				break
			}
			obj := rest[at : at+n]
			b.WriteString(rest[:at])
			switch {
			case len(obj) < sharedFixMin:
				b.WriteString(obj)
			case seen[obj]:
				b.WriteString("(the same expression as in the warning above)")
			default:
				given[obj] = true
				b.WriteString(obj)
			}
			rest = rest[at+n:]
		}
		for obj := range given {
			seen[obj] = true
		}
		ws[i] = b.String()
	}
	return ws
}
