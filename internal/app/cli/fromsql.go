package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
)

// CodePlanUnsupported is the code of `plan from-sql` for SQL the plan
// language cannot express with the same meaning (GROUP_CONCAT, a window
// frame, ...): the SQL may be fine, but no plan says the same.
const CodePlanUnsupported engine.Code = "PLAN_UNSUPPORTED"

// liftFailure gives a lift or validation failure of `plan from-sql` the one
// error type with a code and a hint, as every other command's error: a
// construct the language lacks is PLAN_UNSUPPORTED, SQL that is not a valid
// query of the schema is INVALID_REQUEST, a lifted plan the validator
// refuses is PLAN_INVALID with its issues.
func liftFailure(err error) error {
	var un *lift.Unsupported
	var le *lift.Error
	var pe *planast.Error
	switch {
	case errors.As(err, &un):
		hint := "rewrite the SQL without that construct, or write the plan by hand (nl2sql schema plan prints the language)"
		if un.Hint != "" {
			hint = un.Hint
		}
		msg := fmt.Sprintf("the plan language cannot express %s%s", un.Construct, posText(un.Pos))
		if un.Unavailable != "" {
			msg = fmt.Sprintf("%s is not available on this datasource: %s%s", un.Construct, un.Unavailable, posText(un.Pos))
		}
		return &engine.Error{Code: CodePlanUnsupported, Err: err, Msg: msg, Hint: hint}
	case errors.As(err, &le):
		return &engine.Error{Code: engine.CodeInvalidRequest, Err: err,
			Msg:  "the SQL is not a valid query of the datasource: " + le.Msg + posText(le.Pos),
			Hint: "give one SELECT statement in the datasource's dialect whose tables and columns exist (nl2sql schema show lists them)"}
	case errors.As(err, &pe):
		return &engine.Error{Code: engine.CodePlanInvalid, Err: err, Issues: pe.Issues,
			Msg:  "the lifted plan does not validate: " + pe.Error(),
			Hint: "the SQL uses something the validator refuses (each issue names its path in the plan); fix the SQL or write the plan by hand"}
	}
	return err
}

// wordsNotSQL is err with a hint that sql reads as a question in words
// ("show me the members please"), which the parser took for an SQL
// statement it names (SHOW), when it does: three words or more, none of
// them FROM, and no SQL punctuation.
func wordsNotSQL(sql string, err error) error {
	var ee *engine.Error
	w := strings.Fields(strings.ToUpper(sql))
	if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || len(w) < 3 || slices.Contains(w, "FROM") || strings.ContainsAny(sql, "*=(),;") {
		return err
	}
	c := *ee
	c.Hint = "that reads as a question in words, not SQL: `nl2sql ask \"<the question>\"` takes a question; `plan from-sql` lifts one SELECT statement"
	return &c
}

func posText(pos int) string {
	if pos < 0 {
		return ""
	}
	return fmt.Sprintf(" (at byte %d)", pos)
}
