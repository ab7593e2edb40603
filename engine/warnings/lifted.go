package warnings

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Lifted are the warnings of a plan lifted from SQL (plan from-sql) where
// the plan means other rows than that SQL did on its own engine: booleans
// spelt as text (LiftedBooleans) and LIKE patterns of letters beyond A–Z
// (liftedLikes).
func Lifted(snap *schema.Snapshot, plan *planast.Query) []string {
	return append(LiftedBooleans(snap, plan), liftedLikes(snap, plan)...)
}

// liftedLikes names each case-insensitive LIKE of a plan lifted from
// SQLite whose pattern holds a letter with case outside A–Z: SQLite's
// LIKE folds A–Z alone, the plan every letter, so '%ö%' also matched
// 'Zoë ÖSTLUND' and 'анна%' 'Анна Каренина', rows the user's own SQLite
// left out, with nothing said.
func liftedLikes(snap *schema.Snapshot, plan *planast.Query) []string {
	if snap == nil || snap.Dialect != "sqlite" {
		return nil
	}
	var out []string
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			lk, ok := e.(*planast.Like)
			if !ok || !lk.CaseInsensitive {
				return
			}
			lit, ok := lk.Pattern.(*planast.Literal)
			if !ok || lit.Type != planast.TString || !strings.ContainsFunc(lit.Text, foldsBeyondASCII) {
				return
			}
			w := fmt.Sprintf("the pattern %s holds letters beyond A–Z, whose case SQLite's LIKE does not ignore; the plan ignores the case of every letter, so it can match more rows than this SQL did on SQLite (to match the case as written, drop \"case_insensitive\")",
				example(lit.Text, planast.TypeText))
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		})
	})
	return out
}

// foldsBeyondASCII reports whether r is a letter outside ASCII with an
// upper and a lower case.
func foldsBeyondASCII(r rune) bool {
	return r > unicode.MaxASCII && unicode.IsLetter(r) && unicode.ToUpper(r) != unicode.ToLower(r)
}
