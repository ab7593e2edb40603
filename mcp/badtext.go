package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/jsontext"
)

// badTextMessage is the JSON-RPC error message of a message jsontext.Bad
// refused; what says what to send instead.
func badTextMessage(at int, what string) string {
	return fmt.Sprintf("the message is not valid JSON text at byte %d: %s", at, what)
}

// withTextCheck answers an HTTP request whose JSON-RPC message is not
// valid JSON text (jsontext.Bad) with HTTP 400 and a JSON-RPC error carrying its
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
			if at, what, ok := jsontext.Bad(body); !ok {
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
