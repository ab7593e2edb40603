package warnings

import (
	"fmt"

	"golang.org/x/text/unicode/norm"

	"github.com/nl2sql/nl2sql/planast"
)

// decomposedPatterns explain like patterns written in Unicode's decomposed
// form ('Cafe' and a combining accent for 'Café', as some keyboards and
// copied text write it): stored text is nearly always composed, no engine
// matches the one with the other, and the like found nothing with nothing
// said, where = with the same literal is told of it (foldNearMisses). The
// warning gives the pattern composed.
func decomposedPatterns(plan *planast.Query) []string {
	var out []string
	seen := map[string]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		l, ok := n.(*planast.Like)
		if !ok {
			return true
		}
		p, ok := l.Pattern.(*planast.Literal)
		if !ok || p.Type != planast.TString || norm.NFC.IsNormalString(p.Text) || seen[p.Text] {
			return true
		}
		seen[p.Text] = true
		out = append(out, fmt.Sprintf("the like pattern %q writes letters with combining marks (an accent as a character of its own after its letter), which stored text, composed, never matches on any engine: write it composed, %q",
			p.Text, norm.NFC.String(p.Text)))
		return true
	})
	return out
}
