package source

import (
	"strings"

	"github.com/nl2sql/nl2sql/engine/schema"
)

// readKeywords are the first words of the statements Query accepts.
var readKeywords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true}

// checkStatementIn is the lexical gate every adapter's Query applies
// before the engine sees the text: exactly one statement (shapeOfDialect),
// starting with SELECT, WITH or VALUES.
func checkStatementIn(dialect, sqlText string) *Error {
	shape := shapeOfDialect(dialect, sqlText)
	switch {
	case shape.Empty:
		return errorf(CodeQueryFailed, nil, "send one SELECT statement", "the query text holds no statement")
	case shape.Multiple:
		return errorf(CodeReadOnly, nil, readOnlyHint, "the query text holds more than one statement")
	case !readKeywords[shape.Keyword]:
		return errorf(CodeReadOnly, nil, readOnlyHint, "only SELECT, WITH … SELECT and VALUES statements may run")
	}
	return nil
}

// shapeOfDialect is shapeOf with dialect's tokenizer: SQLite's (shapeOf),
// or for PostgreSQL and DuckDB, whose parsers share PostgreSQL's lexical
// rules, shapeOfPostgres.
func shapeOfDialect(dialect, sql string) statementShape {
	if dialect == schema.DialectSQLite {
		return shapeOf(sql)
	}
	return shapeOfPostgres(sql)
}

// statementShape is what the lexical check learns of a query text.
type statementShape struct {
	Empty    bool   // no statement at all: only whitespace, comments, semicolons
	Multiple bool   // something other than whitespace, comments and semicolons follows the first ';'
	Keyword  string // the first token upper-cased when it is a word, else ""
}

// shapeOf splits sql lexically, following SQLite's tokenizer for the parts
// that can hide a ';': '…' strings, "…" and `…` identifiers (the quote
// doubled as the only escape), […] identifiers, -- comments to the end of
// the line and /* comments */ (an unterminated one runs to the end; a "/*"
// that ends the text is a slash and a star). \v counts as a token, not as
// whitespace, which errs on the side of refusing. Text after a NUL is
// ignored, as SQLite ignores it.
//
// It is a first gate, not the security boundary: a statement that hides a
// ';' from it is refused as Multiple (CREATE TRIGGER … BEGIN …; END is), and
// every statement SQLite compiles still meets the authorizer.
func shapeOf(sql string) statementShape { return sqliteLex.shape(sql) }

// lexRules are what the SQLite and PostgreSQL scanners differ in: where a
// block comment opens, where it ends (PostgreSQL's nest), and how far a
// token reaches (its quoting rules).
type lexRules struct {
	opensComment func(sql string, i int) bool // sql[i] is '/'
	commentEnd   func(sql string, i int) int
	tokenEnd     func(sql string, i int) int
}

var (
	sqliteLex = lexRules{
		opensComment: func(sql string, i int) bool { return i+2 < len(sql) && sql[i+1] == '*' },
		commentEnd:   func(sql string, i int) int { end, _ := CommentEnd(sql, i, false); return end },
		tokenEnd:     tokenEnd,
	}
	postgresLex = lexRules{
		opensComment: func(sql string, i int) bool { return i+1 < len(sql) && sql[i+1] == '*' },
		commentEnd:   func(sql string, i int) int { end, _ := CommentEnd(sql, i, true); return end },
		tokenEnd:     pgTokenEnd,
	}
)

// shape splits sql into its first statement's keyword and whether more
// statements follow, by the rules r.
func (r lexRules) shape(sql string) statementShape {
	if i := strings.IndexByte(sql, 0); i >= 0 {
		sql = sql[:i]
	}
	var s statementShape
	seenToken := false
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			i = lineCommentEnd(sql, i)
		case c == '/' && r.opensComment(sql, i):
			i = r.commentEnd(sql, i)
		case c == ';':
			if seenToken {
				s.Multiple = r.hasToken(sql[i+1:])
				return s
			}
			i++
		default:
			if !seenToken {
				seenToken = true
				s.Keyword = strings.ToUpper(leadingWord(sql[i:]))
			}
			i = r.tokenEnd(sql, i)
		}
	}
	s.Empty = !seenToken
	return s
}

// hasToken reports whether rest holds anything but whitespace, comments and
// semicolons.
func (r lexRules) hasToken(rest string) bool {
	i := 0
	for i < len(rest) {
		c := rest[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ';':
			i++
		case c == '-' && i+1 < len(rest) && rest[i+1] == '-':
			i = lineCommentEnd(rest, i)
		case c == '/' && r.opensComment(rest, i):
			i = r.commentEnd(rest, i)
		default:
			return true
		}
	}
	return false
}

// tokenEnd returns the index after the token starting at i: a whole quoted
// string or identifier, or one other byte.
func tokenEnd(sql string, i int) int {
	switch sql[i] {
	case '\'', '"', '`':
		end, _ := QuotedEnd(sql, i, false)
		return end
	case '[':
		if j := strings.IndexByte(sql[i:], ']'); j >= 0 {
			return i + j + 1
		}
		return len(sql)
	}
	return i + 1
}

func lineCommentEnd(sql string, i int) int {
	if j := strings.IndexByte(sql[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(sql)
}

// leadingWord returns the ASCII letters at the start of s.
func leadingWord(s string) string {
	n := 0
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || s[n] == '_') {
		n++
	}
	return s[:n]
}

// shapeOfPostgres splits sql lexically the way PostgreSQL's scanner (and
// DuckDB's, derived from it) finds the parts that can hide a ';': '…'
// strings (the quote doubled; backslash is an ordinary character under
// standard_conforming_strings), E'…' strings (backslash escapes the next
// byte), $tag$…$tag$ strings (a "$" inside a word, or "$1", starts none),
// "…" identifiers, -- comments and nested /* comments */. An unterminated
// string or comment runs to the end. Backticks and brackets are ordinary
// bytes. \v and text after a NUL are treated as in shapeOf.
//
// Where it could misjudge, it errs towards Multiple, and the engines refuse
// a second statement on their own (PostgreSQL's extended protocol, DuckDB's
// single-statement Prepare).
func shapeOfPostgres(sql string) statementShape { return postgresLex.shape(sql) }

// pgTokenEnd returns the index after the token starting at i: a word (with
// the E'…' string it may open), a quoted string or identifier, a
// dollar-quoted string or parameter, or one other byte.
func pgTokenEnd(sql string, i int) int {
	switch c := sql[i]; {
	case c == '\'' || c == '"':
		end, _ := QuotedEnd(sql, i, false)
		return end
	case c == '$':
		j := i + 1
		if j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			return j
		}
		for j < len(sql) && IsWordByte(sql[j], j > i+1) {
			j++
		}
		if j < len(sql) && sql[j] == '$' {
			tag := sql[i : j+1]
			if k := strings.Index(sql[j+1:], tag); k >= 0 {
				return j + 1 + k + len(tag)
			}
			return len(sql)
		}
		return i + 1
	case IsWordByte(c, false):
		j := i + 1
		for j < len(sql) && (IsWordByte(sql[j], true) || sql[j] == '$') {
			j++
		}
		if j == i+1 && (c == 'E' || c == 'e') && j < len(sql) && sql[j] == '\'' {
			end, _ := QuotedEnd(sql, j, true)
			return end
		}
		return j
	}
	return i + 1
}
