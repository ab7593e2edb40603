package validate

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// Names a plan gives (a select item's alias, a from item's alias, a CTE's
// name) are read by people: an alias is the column's header in every
// table and in the answer summary, and every name stands in the SQL shown
// beside the rows. Beyond what a renderer can quote (validName), such a
// name must show what it is: not blank, and without a character that is
// acted on or invisible rather than shown (cellfmt.Hidden: a bidi
// override such as U+202E reverses the text after it, a zero-width space
// makes two headers look alike, a control character moves the cursor).
// The host schema (planschema.Host) states the same rule as a pattern.

// nameHint is the hint of every refusal of a name that does not show
// what it is.
const nameHint = `write the name in visible characters (letters, digits, "_", spaces between words), e.g. "total_revenue"; leave a select item's "alias" out to name the column after its source column`

// unreadable says why a person could not read s as the name it is, or ""
// when they can.
func unreadable(s string) string {
	if strings.TrimSpace(s) == "" {
		return "is blank: a header of spaces alone shows no name"
	}
	for _, r := range s {
		if cellfmt.Hidden(r) {
			return fmt.Sprintf("holds %U, a character that is not shown but acts on the text around it or hides in it (a control, bidi or zero-width character)", r)
		}
	}
	return ""
}

// readableName adds a refusal at path when s, the name a plan gives to a
// thing of the given kind ("alias", "CTE name"), does not show what it is.
func (v *validator) readableName(kind, s, path string) {
	if why := unreadable(s); why != "" {
		v.addHint(planast.CodeBadValue, path, nameHint, "%s %q %s", kind, s, why)
	}
}
