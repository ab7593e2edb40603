package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The session-based 2025 revisions' lifecycle, as this server implements it.
//
// A session holds no server state: every request is served by an ephemeral
// mcp-go session, and ids (mcp-session-<uuid>) are checked by format only,
// so an id works after a restart and on every replica. Ending a session would
// therefore need a list of terminated ids that every replica consults on
// every request (a round trip to the shared store per request, and a table
// that grows without bound). The 2025-11-25 revision lets a server refuse
// client termination instead ("The server MAY respond to this request with
// HTTP 405 Method Not Allowed"), which is what DELETE gets here: 405 with
// Allow, never a 200 that ends nothing. The SDK clients treat that 405 as
// "the server does not end sessions".
//
//	request                                             status
//	POST initialize                                     200, Mcp-Session-Id
//	POST with a well-formed Mcp-Session-Id              200 (any replica, after a restart)
//	POST without Mcp-Session-Id (not initialize)        400
//	POST with a malformed Mcp-Session-Id                404 (unknown session: re-initialize)
//	POST a JSON-RPC batch [...]                         400, JSON-RPC -32600
//	GET (no standalone stream), DELETE, other methods   405, Allow: POST
//
// Requests of the stateless 2026-07-28 revision (protocol version in the
// MCP-Protocol-Version header or in params._meta) carry no session id and
// pass unchanged, except that a batch gets the same JSON-RPC error.

// allowedMethods is the Allow header of every 405 from /mcp.
const allowedMethods = http.MethodPost

// sessionIDs issues and checks ids by format (mcp-go's stateless generating
// manager) and refuses termination, which mcp-go answers with 405.
type sessionIDs struct {
	server.StatelessGeneratingSessionIdManager
}

// Terminate refuses: there is no session state to end (see above).
func (*sessionIDs) Terminate(string) (isNotAllowed bool, err error) { return true, nil }

// lifecycle answers what mcp-go v1.2.1 answers differently from the
// 2025-11-25 revision (a missing session id, batches, Allow on 405) and
// passes everything else to next.
func lifecycle(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
		case http.MethodGet, http.MethodDelete, http.MethodHead:
			// mcp-go answers these (405 for GET and DELETE, with a message
			// saying why); the wrapper adds Allow to any 405.
			next.ServeHTTP(&allowOn405{ResponseWriter: w}, r)
			return
		default:
			w.Header().Set("Allow", allowedMethods)
			http.Error(w, r.Method+" is not supported on /mcp", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeRPCError(w, http.StatusRequestEntityTooLarge, mcpgo.INVALID_REQUEST, tooLong(tooBig.Limit))
				return
			}
			writeRPCError(w, http.StatusBadRequest, mcpgo.PARSE_ERROR, "request body could not be read")
			return
		}
		trimmed := bytes.TrimLeft(body, " \t\r\n")
		if len(trimmed) > 0 && trimmed[0] == '[' {
			writeRPCError(w, http.StatusBadRequest, mcpgo.INVALID_REQUEST,
				"JSON-RPC batches are not supported (removed in protocol revision 2025-06-18): send one request per POST")
			return
		}
		if r.Header.Get(server.HeaderKeySessionID) == "" && needsSessionID(r.Header, body) {
			http.Error(w, "Mcp-Session-Id header is required after initialize", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// needsSessionID reports whether a POST belongs to the session-based
// revisions and is a request or notification other than initialize. A
// body that does not parse is left to mcp-go (a JSON-RPC parse error).
func needsSessionID(h http.Header, body []byte) bool {
	if mcpgo.IsModernProtocol(h.Get(mcpgo.HeaderProtocolVersion)) {
		// modern whatever the body says: no need to decode it
		return false
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Meta *mcpgo.Meta `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method == "" || m.Method == string(mcpgo.MethodInitialize) {
		return false
	}
	return !mcpgo.IsModernProtocol(m.Params.Meta.ProtocolVersion())
}

func writeRPCError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": msg},
	})
}

// allowOn405 adds the Allow header RFC 9110 requires on a 405 that mcp-go
// writes without one.
type allowOn405 struct{ http.ResponseWriter }

func (a *allowOn405) WriteHeader(status int) {
	if status == http.StatusMethodNotAllowed && a.Header().Get("Allow") == "" {
		a.Header().Set("Allow", allowedMethods)
	}
	a.ResponseWriter.WriteHeader(status)
}
