package fault

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// PLAN_INVALID's message leaves the issues' hints to the issues; a reader
// of the error text alone (the CLI) must still see each hint, once.
func TestErrorTextCarriesIssueHintsOnce(t *testing.T) {
	is := []planast.Issue{{Code: planast.CodeFunction, Path: "select[0].expr.name", Message: "function \"MEDIAN\" is not allowed", Hint: "scalar functions allowed here: ABS"}}
	brief := &Error{Code: CodePlanInvalid, Msg: "invalid plan: FUNCTION_NOT_ALLOWED", Issues: is}
	full := &Error{Code: CodePlanInvalid, Msg: "invalid plan: (scalar functions allowed here: ABS)", Issues: is}
	for _, e := range []*Error{brief, full} {
		if n := strings.Count(e.Error(), "scalar functions allowed here"); n != 1 {
			t.Errorf("the hint appears %d times in %q", n, e.Error())
		}
	}
}
