package lift

import (
	"errors"
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift/normalize"
)

// Dialects Lift reads.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
	// DialectDuckDB reads DuckDB's SQL as PostgreSQL's, but for what
	// DuckDB means otherwise: / divides as floats (// as integers) and
	// NULLs sort last in either direction.
	DialectDuckDB = "duckdb"
)

// Unsupported is returned when the SQL uses a construct the plan language
// cannot express with the same meaning. Construct names it ("GROUP_CONCAT",
// "window frame", "SELECT without FROM", ...); Pos is its byte offset in
// the SQL text given to Lift, or -1 when unknown.
type Unsupported struct {
	Construct string
	Pos       int
	// Hint, when set, is SQL the dialect has that says the same and
	// lifts, or the plan construct that does: the generic advice to
	// rewrite the SQL sent users in circles where one spelling lifts and
	// its neighbour does not.
	Hint string
	// Unavailable, when set, says why the dialect's engine cannot compute
	// what the construct means, which the plan language can say (AT TIME
	// ZONE on SQLite, which holds no zone rules): the refusal is the
	// engine's, and blaming the language sent users after a plan form
	// that is refused there too.
	Unavailable string
}

func (e *Unsupported) Error() string {
	if e.Unavailable != "" {
		if e.Pos < 0 {
			return "lift: " + e.Construct + " is not available on this datasource: " + e.Unavailable
		}
		return fmt.Sprintf("lift: %s is not available on this datasource: %s (at byte %d)", e.Construct, e.Unavailable, e.Pos)
	}
	if e.Pos < 0 {
		return "lift: the plan language cannot express " + e.Construct
	}
	return fmt.Sprintf("lift: the plan language cannot express %s (at byte %d)", e.Construct, e.Pos)
}

// Error is returned for SQL that is not a valid query of the catalog: a
// syntax error, more than one statement, a statement that is not a SELECT,
// an unknown table or column, an ambiguous name. Pos is a byte offset in
// the SQL text given to Lift, or -1.
type Error struct {
	Msg string
	Pos int
	Err error // the parser's error, when it is one
}

func (e *Error) Error() string {
	if e.Pos < 0 {
		return "lift: " + e.Msg
	}
	return fmt.Sprintf("lift: %s (at byte %d)", e.Msg, e.Pos)
}

func (e *Error) Unwrap() error { return e.Err }

// notSelect is the error of a statement that is no query.
const notSelect = "only a SELECT statement can be lifted"

// Lift parses one SELECT statement written for dialect ("sqlite" or
// "postgres") and returns the plan that means the same on that dialect,
// with every column qualified by a source alias and every name resolved
// against cat. The plan has not been validated: run validate.Plan on it
// (a lifted plan the validator refuses points at a gap between what the SQL
// does and what the plan language checks).
//
// Errors: *Error for SQL that does not parse or names what cat lacks;
// *Unsupported, naming the construct, for SQL the plan language cannot
// express faithfully. Lift never approximates.
func Lift(sql string, dialect string, cat planast.Catalog) (q *planast.Query, err error) {
	switch dialect {
	case DialectSQLite, DialectPostgres, DialectDuckDB:
	default:
		return nil, &Error{Msg: fmt.Sprintf("unknown dialect %q (want sqlite, postgres or duckdb)", dialect), Pos: -1}
	}
	if cat == nil {
		return nil, &Error{Msg: "no catalog", Pos: -1}
	}
	n := normalize.SQL(sql, dialect)
	tree, perr := pg.Parse(n.SQL)
	if perr != nil {
		if nested, ok := normalize.QualifyNested(sql); ok {
			return Lift(nested, dialect, cat)
		}
		if word, at, ok := normalize.NotQuery(sql); ok {
			// PRAGMA, ATTACH, a DuckDB SUMMARIZE: statements the
			// PostgreSQL parser does not know, and no query either way
			return nil, &Error{Msg: notSelect + " (this one is " + strings.ToUpper(word) + ")", Pos: at}
		}
		if word, at, ok := normalize.SQLiteOnly(sql); ok {
			return nil, &Unsupported{Construct: strings.ToUpper(word), Pos: at}
		}
		pos := -1
		var pe *pgparser.Error
		if errors.As(perr, &pe) && pe.Cursorpos > 0 {
			pos = n.OrigPos(pe.Cursorpos - 1)
		}
		return nil, &Error{Msg: "syntax error: " + perr.Error(), Pos: pos, Err: perr}
	}
	if len(tree.Stmts) != 1 {
		return nil, &Error{Msg: fmt.Sprintf("want exactly one statement, got %d", len(tree.Stmts)), Pos: -1}
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil {
		return nil, &Error{Msg: notSelect, Pos: -1}
	}
	l := &lifter{src: n, dialect: dialect, cat: cat, aliases: map[string]bool{}, outCols: map[*planast.Query][]column{}}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *Unsupported:
				q, err = nil, e
			case *Error:
				q, err = nil, e
			default:
				// a bug in the lifter: an error for this SQL, not a crash
				// of the server that called it
				q, err = nil, &Error{Msg: fmt.Sprintf("internal error: %v", r), Pos: -1}
			}
		}
	}()
	q, _ = l.query(sel, nil, nil)
	// the root returns strftime's text, as SQLite does
	for _, b := range append([]*planast.Query{q}, setOpQueries(q)...) {
		for i := range b.Select {
			b.Select[i].Expr = l.textify(b.Select[i].Expr, -1)
		}
	}
	return q, nil
}

// lifter holds the state of one Lift call. Failures panic with *Error or
// *Unsupported and Lift recovers them.
type lifter struct {
	src     *normalize.Text
	dialect string
	cat     planast.Catalog
	// aliases holds every plan alias handed out (lower case): aliases are
	// unique across the whole plan, so a correlated reference can never be
	// captured by an inner source of the same name.
	aliases map[string]bool
	nextT   int
	// outCols records the output columns of each lifted query.
	outCols map[*planast.Query][]column
	// byAlias finds a source by its plan alias.
	byAlias map[string]*source
	// strf marks the DATE_PART calls lifted from strftime: their SQLite
	// value is text of a fixed width (see strftime).
	strf map[*planast.Func]string
	// instants marks the timestamps that have a time zone in the SQL
	// beyond what columns say (see zoned).
	instants map[planast.Expr]bool
}

func (l *lifter) sqlite() bool { return l.dialect == DialectSQLite }

func (l *lifter) duckdb() bool { return l.dialect == DialectDuckDB }

// nullsFirst reports whether the dialect sorts NULLs first by default in
// the direction desc says: SQLite ascending (NULL is its least value),
// PostgreSQL descending (its greatest), DuckDB never.
func (l *lifter) nullsFirst(desc bool) bool {
	switch l.dialect {
	case DialectSQLite:
		return !desc
	case DialectPostgres:
		return desc
	}
	return false
}

// unsupported aborts the lift with *Unsupported at normalised offset pos.
func (l *lifter) unsupported(pos int32, format string, args ...any) {
	panic(&Unsupported{Construct: fmt.Sprintf(format, args...), Pos: l.src.OrigPos(int(pos))})
}

// unsupportedHint is unsupported with a hint naming what lifts instead.
func (l *lifter) unsupportedHint(pos int32, hint, format string, args ...any) {
	panic(&Unsupported{Construct: fmt.Sprintf(format, args...), Pos: l.src.OrigPos(int(pos)), Hint: hint})
}

// fail aborts the lift with *Error at normalised offset pos.
func (l *lifter) fail(pos int32, format string, args ...any) {
	panic(&Error{Msg: fmt.Sprintf(format, args...), Pos: l.src.OrigPos(int(pos))})
}

// alias returns a plan alias for the SQL alias want (a fresh tN when want
// is empty), unique across the plan.
func (l *lifter) alias(want string) string {
	if want != "" && !l.aliases[strings.ToLower(want)] && len(want) <= 128 {
		l.aliases[strings.ToLower(want)] = true
		return want
	}
	for {
		l.nextT++
		a := fmt.Sprintf("t%d", l.nextT)
		if want != "" {
			a = fmt.Sprintf("%s_%d", truncateName(want, 100), l.nextT)
		}
		if !l.aliases[strings.ToLower(a)] {
			l.aliases[strings.ToLower(a)] = true
			return a
		}
	}
}

func truncateName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// sameName compares SQL names: case-insensitively, as SQLite does and as
// PostgreSQL's parser has already folded unquoted names.
func sameName(a, b string) bool { return strings.EqualFold(a, b) }

func setOpQueries(q *planast.Query) []*planast.Query {
	var out []*planast.Query
	for _, s := range q.SetOps {
		out = append(out, s.Query)
	}
	return out
}
