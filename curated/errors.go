package curated

import "fmt"

// Codes of *Error. Refusal codes (a query that `curated validate` refuses)
// are stable strings; the run-time ones are what a caller of Run sees.
const (
	// Refusals of a verified query (validate, startup).
	CodeDefinition = "INVALID_DEFINITION"   // id, datasource, questions, params malformed
	CodeLexical    = "LEXICAL"              // NUL, unterminated quote or comment, $, ?, prefixed strings
	CodeParse      = "PARSE_ERROR"          // the parser rejects the text
	CodeStatements = "NOT_ONE_STATEMENT"    // zero statements, or more than one
	CodeNotSelect  = "NOT_SELECT"           // not SELECT / WITH … SELECT, or a data-modifying CTE
	CodeInto       = "SELECT_INTO"          // SELECT … INTO creates a table
	CodeLocking    = "LOCKING_CLAUSE"       // FOR UPDATE / SHARE
	CodeRecursive  = "RECURSIVE_CTE"        // WITH RECURSIVE where not allowed
	CodeFunction   = "FUNCTION_NOT_ALLOWED" // a function off the dialect's allow-list
	CodeTableFunc  = "TABLE_FUNCTION"       // a function, sample or XMLTABLE in FROM
	CodePlacehold  = "PLACEHOLDERS"         // placeholders differ from the declared params
	CodeTable      = "TABLE_NOT_FOUND"      // a table the snapshot lacks (or an ambiguous name)
	CodeUnreadable = "TABLE_NOT_READABLE"   // a table no role may read
	CodePlan       = "PLAN_FAILED"          // the database refused to plan it
	CodeExample    = "EXAMPLE_INVALID"      // an example value fails its own param check

	// Run time.
	CodeNotFound     = "VERIFIED_QUERY_NOT_FOUND" // unknown id, or one the caller may not see
	CodeNotAllowed   = "ACCESS_DENIED"            // the query reads something the caller may not
	CodeParams       = "INVALID_PARAMS"           // a parameter value fails its check
	CodeRowFilter    = "ROW_FILTER"               // a row filter cannot be applied safely
	CodeNotValidated = "NOT_VALIDATED"            // a Query that did not come from Check
)

// Error is the error of this package: a Code and a message safe to show
// to the caller (it names nothing the caller may not read).
type Error struct {
	Code string
	Msg  string
	// Param is the parameter at fault for CodeParams, else "".
	Param string
}

func (e *Error) Error() string { return e.Code + ": " + e.Msg }

func refusef(code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Refusal is one verified query that validation refused, with the reason.
type Refusal struct {
	ID  string // the query's id ("#3" when it has none)
	Err *Error
}

func (r Refusal) String() string { return "refused " + r.ID + ": " + r.Err.Error() }
