package source

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// readKeywords are the first words of the statements Query accepts.
var readKeywords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true}

// CheckStatement is the statement gate every adapter's Query applies
// before the engine sees the text, and the one the verified-query loader
// applies when it validates a query (so that what validates is what runs):
// the text scans with dialect's lexical rules (sqlscan.ScanDialect), holds
// exactly one statement, and that statement is a SELECT, WITH … or VALUES,
// possibly inside parentheses ("(SELECT …) UNION SELECT …": no other
// statement can open with a parenthesis in PostgreSQL's, DuckDB's or
// SQLite's grammar).
//
// It is a first gate, not the security boundary: every engine still holds
// the read-only line on its own (see the package doc).
func CheckStatement(dialect, sqlText string) *Error {
	key := passedKey{dialect, sqlText}
	if _, ok := passed.Load(key); ok {
		return nil
	}
	if err := checkStatementText(dialect, sqlText); err != nil {
		return err
	}
	if len(sqlText) > maxPassedBytes {
		return nil // a long text is checked every time rather than held
	}
	if passedCount.Add(1) > maxPassed { // bounded: start over
		passed.Clear()
		passedCount.Store(1)
	}
	passed.Store(key, struct{}{})
	return nil
}

// passed remembers texts that passed CheckStatement (a pure function of
// the dialect and the text), so the same rendered or verified SQL run
// again is not scanned again; at most maxPassed of them.
var (
	passed      sync.Map // passedKey → struct{}
	passedCount atomic.Int64
)

const maxPassed = 512

// maxPassedBytes bounds a remembered text, so the memo holds at most
// maxPassed × maxPassedBytes however large the plans.
const maxPassedBytes = 16 << 10

type passedKey struct{ dialect, text string }

func checkStatementText(dialect, sqlText string) *Error {
	shape, err := ShapeOf(dialect, sqlText)
	switch {
	case err != nil:
		hint := "send one SELECT statement"
		if se, ok := err.(*sqlscan.Error); ok && se.Hint != "" {
			hint = se.Hint
		}
		return Errorf(CodeQueryFailed, err, hint, "the query text does not scan: %s", err.Error())
	case shape.Empty:
		return Errorf(CodeQueryFailed, nil, "send one SELECT statement", "the query text holds no statement")
	case shape.Multiple:
		return Errorf(CodeReadOnly, nil, ReadOnlyHint, "the query text holds more than one statement")
	case !readKeywords[shape.Keyword]:
		return Errorf(CodeReadOnly, nil, ReadOnlyHint, "only SELECT, WITH … SELECT and VALUES statements may run")
	}
	return nil
}

// Shape is what the lexical check learns of a query text.
type Shape struct {
	Empty    bool   // no statement at all: only whitespace, comments, semicolons
	Multiple bool   // something other than comments and semicolons follows the first statement's ';'
	Keyword  string // the first word after any opening parentheses, upper-cased; "" when it is no word
}

// ShapeOf splits sql into statements with dialect's lexical rules:
// PostgreSQL's scanner, which DuckDB's parser shares, and for SQLite the
// same scanner with SQLite's diverging spellings refused (see sqlscan).
func ShapeOf(dialect, sql string) (Shape, error) {
	toks, err := sqlscan.ScanDialect(dialect, sql)
	if err != nil {
		return Shape{}, err
	}
	var code []sqlscan.Token // the tokens but comments
	for _, t := range toks {
		if t.Kind != sqlscan.Comment {
			code = append(code, t)
		}
	}
	isSemi := func(t sqlscan.Token) bool { return t.Kind == sqlscan.Op && t.Text == ";" }
	i := 0
	for i < len(code) && isSemi(code[i]) {
		i++
	}
	if i == len(code) {
		return Shape{Empty: true}, nil
	}
	var s Shape
	k := i
	for k < len(code) && code[k].Kind == sqlscan.Op && code[k].Text == "(" {
		k++
	}
	if k < len(code) && code[k].Kind == sqlscan.Word {
		s.Keyword = strings.ToUpper(code[k].Text)
	}
	for ; i < len(code); i++ {
		if isSemi(code[i]) {
			break
		}
	}
	for ; i < len(code); i++ {
		if !isSemi(code[i]) {
			s.Multiple = true
		}
	}
	return s, nil
}

// StatementBody is the one statement of sqlText (which passed
// CheckStatement) without the semicolons, comments and whitespace around
// it, so that it can sit inside parentheses: a trailing "-- comment" would
// otherwise swallow the closing one. It is "" when the text does not scan
// or holds no statement.
func StatementBody(dialect, sqlText string) string {
	toks, err := sqlscan.ScanDialect(dialect, sqlText)
	if err != nil {
		return ""
	}
	start, end := -1, -1
	for _, t := range toks {
		if t.Kind == sqlscan.Comment || (t.Kind == sqlscan.Op && t.Text == ";") {
			continue
		}
		if start < 0 {
			start = t.Start
		}
		end = t.End
	}
	if start < 0 {
		return ""
	}
	return sqlText[start:end]
}
