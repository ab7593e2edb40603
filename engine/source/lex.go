package source

import "strings"

// The lexical primitives the statement scanners here and the verified-query
// loader (curated) share: where a block comment, a quoted string or
// identifier ends, and which bytes make up an unquoted word. Each takes the
// index of the opening byte and reports whether the token was closed; an
// unclosed one runs to the end of sql.

// CommentEnd returns the index after the /* comment */ opening at i. With
// nested (PostgreSQL, DuckDB) "/*" and "*/" nest; without (SQLite) the first
// "*/" closes it.
func CommentEnd(sql string, i int, nested bool) (end int, closed bool) {
	if !nested {
		if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
			return i + 2 + j + 2, true
		}
		return len(sql), false
	}
	depth := 0
	for i < len(sql) {
		switch {
		case strings.HasPrefix(sql[i:], "/*"):
			depth++
			i += 2
		case strings.HasPrefix(sql[i:], "*/"):
			depth--
			i += 2
			if depth == 0 {
				return i, true
			}
		default:
			i++
		}
	}
	return len(sql), false
}

// QuotedEnd returns the index after the string or identifier whose opening
// quote is at i: the quote doubled escapes it, and with backslash (an E'…'
// string) so does a backslash.
func QuotedEnd(sql string, i int, backslash bool) (end int, closed bool) {
	q := sql[i]
	for j := i + 1; j < len(sql); j++ {
		switch {
		case backslash && sql[j] == '\\':
			j++
		case sql[j] == q:
			if j+1 < len(sql) && sql[j+1] == q {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return len(sql), false
}

// IsWordByte reports whether c may appear in an unquoted identifier: a
// letter, "_" or a byte of a multi-byte character, and after the first byte
// also a digit.
func IsWordByte(c byte, notFirst bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80 || notFirst && c >= '0' && c <= '9'
}
