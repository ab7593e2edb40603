package source

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/render"
)

// Error codes of *Error. The engine maps them onto the product's codes.
const (
	// CodeReadOnly: the text is not exactly one read-only query, or the
	// query reaches for something the read-only policy denies (a write, DDL,
	// ATTACH, PRAGMA, a denied function).
	CodeReadOnly = "READ_ONLY_VIOLATION"
	// CodeTimeout: the query ran past Options.Timeout or the caller's
	// deadline.
	CodeTimeout = "TIMEOUT"
	// CodeCancelled: the caller cancelled the context.
	CodeCancelled = "CANCELLED"
	// CodeUnavailable: the database is missing, not a database, corrupt,
	// locked or unreadable.
	CodeUnavailable = "DATASOURCE_UNAVAILABLE"
	// CodeQueryFailed: the database rejected the statement for another
	// reason (syntax, unknown name, an empty statement).
	CodeQueryFailed = "QUERY_FAILED"
	// CodeOverflow: an arithmetic result beyond its type's range (an
	// integer beyond int64, a decimal beyond DECIMAL(38,10)): every engine
	// fails so for a rendered plan (package render, overflow.go).
	CodeOverflow = "ARITHMETIC_OVERFLOW"
)

// OverflowHint is ARITHMETIC_OVERFLOW's hint.
const OverflowHint = "a computed number is beyond its type's range (integers: ±9.2e18; decimals: 10^28, a product of two decimals 10^18): on PostgreSQL and DuckDB a SUM of integers beyond ±9.2e18 keeps every digit as SUM of the column cast to decimal; else cast an operand to float to compute with doubles, which reach 1.8e308 but keep only about 15-17 significant digits; a div whose quotient is beyond ±9.2e18 has no integer answer: use / for a float quotient"

// DoubleOverflowHint is ARITHMETIC_OVERFLOW's hint for a float result:
// OverflowHint's advice, to cast to float, is what overflowed.
const DoubleOverflowHint = "a float (double) reaches only ±1.8e308, and this result, computed from floats, is beyond it: scale the operands down before multiplying or adding (divide by a power of ten and say the unit in the alias), or filter out the rows whose values are that large"

// DoubleOverflow returns the ARITHMETIC_OVERFLOW error of a float result
// beyond the double range when msg, an engine's error text, is one
// (PostgreSQL's own, SQLite's and DuckDB's raised by the renderer's range
// check with render.DoubleOverflowMessage), else nil.
func DoubleOverflow(msg string, cause error) *Error {
	if !strings.Contains(msg, render.DoubleOverflowMessage) && !strings.HasPrefix(msg, "value out of range: overflow") {
		return nil
	}
	return Errorf(CodeOverflow, cause, DoubleOverflowHint, "the query failed: %s", render.DoubleOverflowMessage)
}

// DecimalOverflow returns the ARITHMETIC_OVERFLOW error of a decimal
// result beyond the plan's decimal range when msg, an engine's error text,
// is one (SQLite's, raised by the renderer's range check with
// render.DecimalOverflowMessage), else nil.
func DecimalOverflow(msg string, cause error) *Error {
	if !strings.Contains(msg, render.DecimalOverflowMessage) {
		return nil
	}
	return Errorf(CodeOverflow, cause, OverflowHint, "the query failed: %s", render.DecimalOverflowMessage)
}

// SeveralRowsHint is the hint of a scalar subquery (a subquery used as a
// value) that returned more than one row: every engine fails so for a
// rendered plan, SQLite through the renderer's check (package render).
const SeveralRowsHint = "a subquery used as a value must return at most one row: aggregate it (MAX, MIN, COUNT), filter it down to one row, add \"limit\": 1 with an order_by that picks the row, or test membership with an in subquery"

// SeveralRows returns the QUERY_FAILED error of a scalar subquery that
// returned more than one row when msg, an engine's error text, is one
// (PostgreSQL's and DuckDB's own, SQLite's raised by the renderer's check
// as a JSON path error naming the same text), else nil.
func SeveralRows(msg string, cause error) *Error {
	if !strings.Contains(strings.ToLower(msg), "more than one row returned by a subquery") {
		return nil
	}
	return Errorf(CodeQueryFailed, cause, SeveralRowsHint, "the query failed: more than one row returned by a subquery used as an expression")
}

// Error is the one error type adapters return. Msg and Hint are safe to show
// to a client: they never hold a file path (the caller adds the datasource
// id). Err is the cause, for logs and errors.Is/As; it may name paths.
type Error struct {
	Code string // one of the Code* constants
	Msg  string
	Hint string
	// Waited marks a TIMEOUT spent waiting (for a lock, for a pooled
	// connection) rather than on the query's own work: only such a timeout
	// may pass on a retry; a slow query times out again.
	Waited bool
	// Transient marks a DATASOURCE_UNAVAILABLE that may pass by itself (a
	// lock, a server that is down or unreachable, a file replaced under a
	// running server): only such a fault is worth sending again; a corrupt
	// file, a refused login or a wrong path fails the same way until a
	// person acts.
	Transient bool
	// SchemaChanged marks a statement that named a table or column the
	// database no longer has (SchemaChanged builds it): validated SQL
	// names only what the snapshot held, so the schema moved under it.
	SchemaChanged bool
	Err           error
}

// TimeoutHint is a slow query's TIMEOUT hint: the same plan would time out
// again, so it says how to make the query cheaper.
const TimeoutHint = "the query itself is too slow and will time out again: narrow the plan (filters, a smaller date range), aggregate before joining, or raise the datasource's timeout_seconds in a config file (a --db database has none: write one naming it)"

// Error returns "CODE: Msg".
func (e *Error) Error() string { return e.Code + ": " + e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code string, cause error, hint, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Hint: hint, Err: cause}
}

// Temporary marks e Transient and returns it.
func (e *Error) Temporary() *Error {
	e.Transient = true
	return e
}

// CtxError returns the TIMEOUT or CANCELLED error for a done ctx, nil while
// ctx is not done. limit is the time limit reported with TIMEOUT.
func CtxError(ctx context.Context, limit time.Duration) *Error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return Errorf(CodeTimeout, err, TimeoutHint,
			"the query ran past its time limit (%s)", limit)
	default:
		return Errorf(CodeCancelled, err, "", "the query was cancelled")
	}
}

// SchemaChangedHint is the hint of a query that names a table or column
// the database no longer has: the schema was read when the datasource
// opened, and it changed since. The engine reads the schema again before
// it returns the error (marked retryable), so the request sent again
// runs on the schema as it is, or is refused naming what is gone.
const SchemaChangedHint = "the database's schema changed after nl2sql read it and is being read again: send the request again; it then runs on the schema as it is now, or is refused naming what is gone"

// SchemaChanged is the QUERY_FAILED error of a statement that named a
// table or column the database no longer has, with SchemaChangedHint.
func SchemaChanged(cause error, format string, args ...any) *Error {
	e := Errorf(CodeQueryFailed, cause, SchemaChangedHint, format, args...)
	e.SchemaChanged = true
	return e
}

const (
	ReadOnlyHint = "send exactly one SELECT (or WITH … SELECT); writes, schema changes, ATTACH, PRAGMA, transactions and file or extension functions are refused"
	PathHint     = "check the datasource's file (its --db argument, or path: in nl2sql.yaml)"
)
