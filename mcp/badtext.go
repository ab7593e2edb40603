package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// badText reports where a JSON-RPC message's text is not what JSON is, or
// not what a JSON reader of doubles can hold: a byte sequence that is not
// UTF-8, a \u escape of half a surrogate pair with no other half, or a
// number beyond a double's range (1e400), which failed the whole request
// with Go's type names. encoding/json reads both as U+FFFD without a word,
// so "caf\xc3 orders" was answered as a question about "caf", and a
// literal "\ud800" ran as '�' against the data. ok is false with the byte
// offset and what is wrong; a valid message is read once, linearly.
func badText(body []byte) (at int, what string, ok bool) {
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
						return i, fmt.Sprintf("the number %s is beyond what a double holds (about ±1.8e308): send it as a string (a decimal literal takes its digits as text)", planast.Truncate(num, 40)), false
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

// badTextMessage is the JSON-RPC error message of a message badText
// refused; what says what to send instead.
func badTextMessage(at int, what string) string {
	return fmt.Sprintf("the message is not valid JSON text at byte %d: %s", at, what)
}

// withTextCheck answers an HTTP request whose JSON-RPC message is not
// valid JSON text (badText) with HTTP 400 and a JSON-RPC error carrying its
// id, before mcp-go reads it as U+FFFD. The body is read once, within the
// MaxRequestBytes the guard already set, and handed on unchanged; a body
// that does not read is mcp-go's to answer, as before.
func withTextCheck(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := readBody(r)
		if err == nil {
			if at, what, ok := badText(body); !ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": requestID(body),
					"error": map[string]any{"code": mcpgo.INVALID_REQUEST, "message": badTextMessage(at, what)}})
				w.Write(b)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
