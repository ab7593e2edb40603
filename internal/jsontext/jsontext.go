// Package jsontext checks JSON text for what encoding/json reads without
// a word: bytes that are not UTF-8 and \u escapes of half a surrogate
// pair (both read as U+FFFD), and numbers beyond a double. The MCP
// server and the command line refuse the same texts with the same words.
package jsontext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
)

// Bad reports where a JSON text (a JSON-RPC message, a plan) is not what JSON is, or
// not what a JSON reader of doubles can hold: a byte sequence that is not
// UTF-8, a \u escape of half a surrogate pair with no other half, or a
// number beyond a double's range (1e400), which failed the whole request
// with Go's type names. encoding/json reads both as U+FFFD without a word,
// so "caf\xc3 orders" was answered as a question about "caf", and a
// literal "\ud800" ran as '�' against the data. ok is false with the byte
// offset and what is wrong; a valid message is read once, linearly.
func Bad(body []byte) (at int, what string, ok bool) {
	if i := cellfmt.InvalidUTF8(body); i >= 0 {
		return i, fmt.Sprintf("byte 0x%02x is not UTF-8: send the message encoded as UTF-8", body[i]), false
	}
	inString := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !inString {
			switch {
			case c == '"':
				inString = true
			case c == '-' || c >= '0' && c <= '9':
				// a number a double cannot hold fails mcp-go's decoding of
				// the whole request with Go's type names; say which
				j := i + 1
				for j < len(body) && strings.IndexByte("0123456789.eE+-", body[j]) >= 0 {
					j++
				}
				if num := string(body[i:j]); strings.ContainsAny(num, "eE") || len(num) > 300 {
					if _, err := strconv.ParseFloat(num, 64); err != nil {
						return i, fmt.Sprintf("the number %s is beyond what a double holds (about ±1.8e308): a literal's value keeps every digit sent as a string ({\"kind\": \"literal\", \"type\": \"decimal\", \"value\": \"…\"}); no limit or count is that large", truncate(num, 40)), false
					}
				}
				i = j - 1
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(body) {
				return i, "", true // the decoder reports the cut string
			}
			if body[i+1] != 'u' {
				i++
				continue
			}
			u, n := hex4(body, i+2)
			if !n {
				i++
				continue
			}
			switch {
			case u >= 0xD800 && u <= 0xDBFF:
				if lo, ok := lowAfter(body, i+6); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 11 // both halves
					continue
				}
				return i, fmt.Sprintf(`\u%04x is half a surrogate pair with no other half: escape a character past U+FFFF as both halves of its pair`, u), false
			case u >= 0xDC00 && u <= 0xDFFF:
				return i, fmt.Sprintf(`\u%04x is half a surrogate pair with no other half: escape a character past U+FFFF as both halves of its pair`, u), false
			}
			i += 5
		}
	}
	return 0, "", true
}

// hex4 reads four hex digits at body[i:].
func hex4(body []byte, i int) (rune, bool) {
	if i+4 > len(body) {
		return 0, false
	}
	u, err := strconv.ParseUint(string(body[i:i+4]), 16, 32)
	return rune(u), err == nil
}

// lowAfter reads a \uXXXX escape at body[i:].
func lowAfter(body []byte, i int) (rune, bool) {
	if i+6 > len(body) || body[i] != '\\' || body[i+1] != 'u' {
		return 0, false
	}
	return hex4(body, i+2)
}

// truncate cuts s to n bytes with a marker, for quoting a number.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
