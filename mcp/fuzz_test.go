package mcp

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/scope"
)

var (
	fuzzOnce    sync.Once
	fuzzHandler http.Handler
	fuzzErr     error
)

// fuzzServer is the /mcp handler ServeHTTP builds (guard in front of the
// streamable HTTP server) over the real Chinook app, with bearer tokens.
func fuzzServer(t testing.TB) http.Handler {
	fuzzOnce.Do(func() {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		a, err := app.Open(filepath.Join("..", "examples", "chinook", "nl2sql.yaml"), logger)
		if err != nil {
			fuzzErr = err
			return
		}
		hs := server.NewStreamableHTTPServer(NewServer(a.Engine, "fuzz", logger),
			server.WithEndpointPath("/mcp"), server.WithDisableStreaming(true), server.WithStreamableHTTPLogger(logger))
		fuzzHandler = guard(hs, HTTPOptions{Auth: tokenAuth{scope.TokenDigest("s3cret"): "alice"}, Logger: logger}, true)
	})
	if fuzzErr != nil {
		t.Fatal(fuzzErr)
	}
	return fuzzHandler
}

// FuzzHTTPHandler sends arbitrary methods, bodies and headers to the /mcp
// handler: it never panics and always answers with a valid status; an
// unauthenticated request never gets past 401, and a foreign Origin
// always gets 403. Seeds are in testdata/fuzz/FuzzHTTPHandler.
func FuzzHTTPHandler(f *testing.F) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"question":"Which artist has released the most albums?","role":"admin"}}}`
	f.Add("POST", init, "Bearer s3cret", "", "application/json", "")
	f.Add("POST", call, "Bearer s3cret", "", "application/json", "mcp-session-d2e6e6b3-0000-4000-8000-000000000000")
	f.Add("POST", call, "", "", "application/json", "")
	f.Add("POST", init, "Bearer s3cret", "http://attacker.example", "application/json", "")
	f.Add("DELETE", "", "Bearer s3cret", "", "", "made-up")
	f.Add("GET", "", "bearer s3cret", "http://127.0.0.1:1", "text/event-stream", "")
	f.Add("POST", "not json", "Bearer s3cret", "", "application/json", "")
	f.Add("POST", `[`+init+`,`+call+`]`, "Bearer s3cret", "", "application/json", "")
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, method, body, authz, origin, ctype, session string) {
		if method == "" || strings.ContainsAny(method, " \t\r\n()<>@,;:\\\"/[]?={}") || !validHeaderish(method) {
			method = "POST"
		}
		req := httptest.NewRequest("POST", "http://127.0.0.1:8080/mcp", bytes.NewReader([]byte(body)))
		req.Method = method
		for k, v := range map[string]string{"Authorization": authz, "Origin": origin, "Content-Type": ctype, "Mcp-Session-Id": session} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		code := rec.Code
		if code < 100 || code > 599 {
			t.Fatalf("status %d", code)
		}
		foreign := origin != "" && !originAllowed(origin, map[string]bool{}, true)
		if foreign && code != http.StatusForbidden {
			t.Fatalf("foreign origin %q got %d", origin, code)
		}
		tok, ok := bearer(req)
		if !foreign && (!ok || tok != "s3cret") && code != http.StatusUnauthorized {
			t.Fatalf("no valid token (%q) got %d: %s", authz, code, rec.Body.String())
		}
		if foreign || code == http.StatusUnauthorized {
			if rec.Header().Get("Access-Control-Allow-Origin") != "" {
				t.Fatalf("CORS header on a refusal")
			}
		}
	})
}

func validHeaderish(s string) bool {
	for _, r := range s {
		if r <= ' ' || r >= 0x7f {
			return false
		}
	}
	return true
}
