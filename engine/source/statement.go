package source

import "strings"

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
func shapeOf(sql string) statementShape {
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
		case c == '/' && i+2 < len(sql) && sql[i+1] == '*':
			i = blockCommentEnd(sql, i)
		case c == ';':
			if seenToken {
				s.Multiple = hasToken(sql[i+1:])
				return s
			}
			i++
		default:
			if !seenToken {
				seenToken = true
				s.Keyword = strings.ToUpper(leadingWord(sql[i:]))
			}
			i = tokenEnd(sql, i)
		}
	}
	s.Empty = !seenToken
	return s
}

// hasToken reports whether rest holds anything but whitespace, comments and
// semicolons.
func hasToken(rest string) bool {
	i := 0
	for i < len(rest) {
		c := rest[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ';':
			i++
		case c == '-' && i+1 < len(rest) && rest[i+1] == '-':
			i = lineCommentEnd(rest, i)
		case c == '/' && i+2 < len(rest) && rest[i+1] == '*':
			i = blockCommentEnd(rest, i)
		default:
			return true
		}
	}
	return false
}

// tokenEnd returns the index after the token starting at i: a whole quoted
// string or identifier, or one other byte.
func tokenEnd(sql string, i int) int {
	switch q := sql[i]; q {
	case '\'', '"', '`':
		for j := i + 1; j < len(sql); j++ {
			if sql[j] == q {
				if j+1 < len(sql) && sql[j+1] == q {
					j++
					continue
				}
				return j + 1
			}
		}
		return len(sql)
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

func blockCommentEnd(sql string, i int) int {
	if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
		return i + 2 + j + 2
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
