package curated

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/engine/source"
)

// prepared is a verified query's SQL after the lexical pass: comments
// removed, each :name replaced by $k (k = 1 + the index of name in order,
// the order of first appearance). parse is what pg_query parses and, after
// placeholder conversion (placeholders), what the database runs.
type prepared struct {
	parse string
	order []string
}

// prepare runs the lexical pass over sql with dialect's rules for strings,
// identifiers and comments: SQLite's (no nesting of /* */, `…` and […]
// identifiers) or PostgreSQL's, which DuckDB shares (nested comments).
// Placeholders are :name outside quotes and comments (a "::" cast is not
// one). It refuses, so that the parser and the database cannot disagree
// about what is code: a NUL byte; an unterminated string, identifier or
// comment; "$" or "?" outside quotes (dollar quoting, positional
// parameters); a prefixed string literal (E'…', X'…', B'…', N'…', U&'…').
// Comments become one space: the text that runs is the text that was
// parsed.
func prepare(sql, dialect string) (*prepared, error) {
	if strings.IndexByte(sql, 0) >= 0 {
		return nil, refusef(CodeLexical, "the SQL holds a NUL byte")
	}
	sqlite := dialect == "sqlite"
	var b strings.Builder
	p := &prepared{}
	index := map[string]int{}
	i := 0
	for i < len(sql) {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			b.WriteByte(' ')
			i += j
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end, ok := source.CommentEnd(sql, i, !sqlite)
			if !ok {
				return nil, refusef(CodeLexical, "a /* comment */ is not closed")
			}
			b.WriteByte(' ')
			i = end
		case c == '\'' || c == '"' || (sqlite && c == '`'):
			if c == '\'' && i > 0 && (isWord(sql[i-1]) || sql[i-1] == '&') {
				return nil, refusef(CodeLexical, "prefixed string literals (E'…', X'…', B'…', N'…', U&'…') are not supported at byte %d", i-1)
			}
			if c == '"' && i > 0 && sql[i-1] == '&' {
				return nil, refusef(CodeLexical, "U&\"…\" identifiers are not supported at byte %d", i-1)
			}
			end, ok := source.QuotedEnd(sql, i, false)
			if !ok {
				return nil, refusef(CodeLexical, "a quoted string or identifier starting at byte %d is not closed", i)
			}
			b.WriteString(sql[i:end])
			i = end
		case sqlite && c == '[':
			j := strings.IndexByte(sql[i:], ']')
			if j < 0 {
				return nil, refusef(CodeLexical, "a [identifier] starting at byte %d is not closed", i)
			}
			b.WriteString(sql[i : i+j+1])
			i += j + 1
		case c == '$' || c == '?':
			return nil, refusef(CodeLexical, "%q at byte %d: write parameters as :name (dollar quoting and positional parameters are not supported)", string(c), i)
		case c == ':' && i+1 < len(sql) && sql[i+1] == ':':
			b.WriteString("::")
			i += 2
		case c == ':' && i+1 < len(sql) && isWordStart(sql[i+1]):
			j := i + 1
			for j < len(sql) && isWord(sql[j]) {
				j++
			}
			name := sql[i+1 : j]
			k, ok := index[name]
			if !ok {
				p.order = append(p.order, name)
				k = len(p.order)
				index[name] = k
			}
			b.WriteString("$" + strconv.Itoa(k))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	p.parse = b.String()
	return p, nil
}

func isWordStart(c byte) bool { return source.IsWordByte(c, false) }
func isWord(c byte) bool      { return source.IsWordByte(c, true) }

// placeholders converts the $k placeholders of a prepared (and possibly
// row-filter-wrapped) text into dialect's form: ?k for SQLite (bound by
// index), $k unchanged for PostgreSQL and DuckDB. Quoted text is left
// alone; the text holds no comments.
func placeholders(text, dialect string) string {
	if dialect != "sqlite" {
		return text
	}
	var b strings.Builder
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			end, _ := source.QuotedEnd(text, i, false)
			b.WriteString(text[i:end])
			i = end
		case c == '[':
			j := strings.IndexByte(text[i:], ']')
			if j < 0 {
				j = len(text) - i - 1
			}
			b.WriteString(text[i : i+j+1])
			i += j + 1
		case c == '$' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			b.WriteByte('?')
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// nameSpan returns the end of the (possibly qualified) name starting at i
// in a prepared text, and the text of its last part: words or "quoted"
// identifiers joined by dots, blanks allowed around the dots.
func nameSpan(text string, i int) (end int, last string, parts int, err error) {
	for {
		start := i
		switch {
		case i < len(text) && text[i] == '"':
			e, ok := source.QuotedEnd(text, i, false)
			if !ok {
				return 0, "", 0, fmt.Errorf("unterminated identifier")
			}
			i = e
		case i < len(text) && isWordStart(text[i]):
			for i < len(text) && (isWord(text[i]) || text[i] == '$') {
				i++
			}
		default:
			return 0, "", 0, fmt.Errorf("no table name at byte %d", i)
		}
		last = text[start:i]
		parts++
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
			j++
		}
		if j >= len(text) || text[j] != '.' {
			return i, last, parts, nil
		}
		j++
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
			j++
		}
		i = j
	}
}
