package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/nl2sql/nl2sql/engine"
)

// mcp-go v1.2.1 answers every error a resource or prompt handler returns
// with JSON-RPC -32603 (internal error). The specification asks for -32602
// (invalid params) when the request names a resource or prompt argument
// that is wrong: an unknown datasource in a resource URI, a missing
// question. Handlers mark such errors with invalidParams; the transports
// (stdio's writer, HTTP's response writer) turn the code of exactly those
// error responses into -32602 as they write them. The two codes have the
// same length, so a response's size (and an HTTP Content-Length) does not
// change.

// invalidParamsMarker opens the message of every invalid-params error.
const invalidParamsMarker = "invalid params: "

// invalidParams is an error for a request whose parameters are wrong.
func invalidParams(format string, args ...any) error {
	return errors.New(invalidParamsMarker + fmt.Sprintf(format, args...))
}

// asInvalidParams marks an engine error that names the request's own
// arguments (an unknown or hidden datasource) as invalid params; other
// errors (a database down) stay internal.
func asInvalidParams(err error) error {
	if e := engine.AsError(err); e.Code == engine.CodeDatasourceNotFound || e.Code == engine.CodeInvalidRequest {
		return invalidParams("%s", e.Error())
	}
	return err
}

var (
	internalCode  = []byte(`"error":{"code":-32603,`)
	paramsCode    = []byte(`"error":{"code":-32602,`)
	markedMessage = []byte(`"message":"` + invalidParamsMarker)
)

// fixInvalidParams rewrites, in one written JSON-RPC message (a line of
// stdio, a JSON body or an SSE event of HTTP), the code of an internal
// error whose message carries the invalid-params marker. Inside JSON
// strings quotes are escaped, so neither pattern can match data.
func fixInvalidParams(p []byte) []byte {
	i := bytes.Index(p, internalCode)
	if i < 0 || !bytes.Contains(p[i:], markedMessage) {
		return p
	}
	out := bytes.Clone(p)
	copy(out[i:], paramsCode)
	return out
}

// paramsWriter applies fixInvalidParams to an HTTP response's writes.
type paramsWriter struct{ http.ResponseWriter }

func (w paramsWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(fixInvalidParams(p))
	return min(n, len(p)), err
}

// Flush keeps SSE responses streaming through the wrapper.
func (w paramsWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets net/http's ResponseController reach the real writer.
func (w paramsWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func withInvalidParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(paramsWriter{w}, r)
	})
}
