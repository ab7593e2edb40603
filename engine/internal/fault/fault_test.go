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

// A reader of the one-line error reads the fix of each issue beside the
// message it fixes; written after the general hint's closing bracket, it
// read as detached from the error.
func TestIssueHintsComeBeforeTheGeneralHint(t *testing.T) {
	e := &Error{Code: "FUNCTION_NOT_ALLOWED", Msg: "function FOO is not allowed", Hint: "fix the listed issues",
		Issues: []planast.Issue{{Path: "select[0].expr.name", Hint: "scalar functions allowed here: ABS"}}}
	got := e.Error()
	want := "FUNCTION_NOT_ALLOWED: function FOO is not allowed; select[0].expr.name: scalar functions allowed here: ABS (hint: fix the listed issues)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if strings.HasSuffix(got, "ABS") {
		t.Error("an issue's fix ends the line after the hint")
	}
}

// One issue whose message names its path already (PLAN_INVALID's does:
// "CODE at PATH: …") gets its fix without the path again: "…; PATH: fix"
// after "at PATH" read as a second issue.
func TestOneIssuesHintDoesNotRepeatItsPath(t *testing.T) {
	e := &Error{Code: CodePlanInvalid, Msg: "FUNCTION_NOT_ALLOWED at select[0].expr.name: AT_TIME_ZONE is not available on this sqlite datasource",
		Issues: []planast.Issue{{Path: "select[0].expr.name", Hint: "select the instants as they are"}}}
	want := "PLAN_INVALID: FUNCTION_NOT_ALLOWED at select[0].expr.name: AT_TIME_ZONE is not available on this sqlite datasource; select the instants as they are"
	if got := e.Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
