package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/internal/oauth"
)

// The resource-server side of the MCP authorization specification
// (2025-11-25): this server publishes its Protected Resource Metadata (RFC
// 9728) at /.well-known/oauth-protected-resource and at the path-suffixed
// form for its endpoint (/.well-known/oauth-protected-resource/mcp);
// every 401 carries WWW-Authenticate: Bearer resource_metadata="…" so a
// client can discover the authorization server from the refusal alone.
//
//	request                                      status  WWW-Authenticate
//	no token                                     401     Bearer resource_metadata, scope (no error)
//	token refused (signature, aud, exp, iss, …)  401     … error="invalid_token", error_description
//	valid token lacking a scope the call needs   403     … error="insufficient_scope", scope=<all needed>
//
// Static tokens of users (tokens_sha256) are checked first and need no
// scope: the operator gave them to one user.

// OAuthVerifier checks access tokens (implemented by *oauth.Verifier).
type OAuthVerifier interface {
	Verify(ctx context.Context, token string) (*oauth.Principal, error)
	// Resource is the canonical URI of /mcp that tokens must be issued for.
	Resource() string
	AuthorizationServers() []string
	ScopesSupported() []string
	// RequiredScopes are the scopes a request needs; tool is the name of
	// the tool a tools/call calls, "" for other requests.
	RequiredScopes(tool string) []string
}

const prmPath = "/.well-known/oauth-protected-resource"

// metadataURL is where the resource's metadata is: the well-known path
// inserted before the resource's path (RFC 9728 section 3.1).
func metadataURL(resource string) string {
	u, err := url.Parse(resource)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host + prmPath + strings.TrimRight(u.Path, "/")
}

// addProtectedResource serves the metadata document at both well-known
// paths, without authentication (a client reads it before it has a token).
func addProtectedResource(mux *http.ServeMux, v OAuthVerifier) {
	doc := map[string]any{
		"resource":                 v.Resource(),
		"authorization_servers":    v.AuthorizationServers(),
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "nl2sql",
	}
	if s := v.ScopesSupported(); len(s) > 0 {
		doc["scopes_supported"] = s
	}
	body, _ := json.Marshal(doc)
	h := func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*") // public metadata, read by browser clients too
		_, _ = w.Write(body)
	}
	mux.HandleFunc(prmPath, h)
	if u, err := url.Parse(v.Resource()); err == nil && strings.Trim(u.Path, "/") != "" {
		mux.HandleFunc(prmPath+strings.TrimRight(u.Path, "/"), h)
	}
}

// challenge writes a Bearer refusal: status 401 or 403, the
// WWW-Authenticate header (RFC 6750 section 3, RFC 9728 section 5.1) and a
// JSON body with the same error and error_description.
func challenge(w http.ResponseWriter, v OAuthVerifier, status int, code, desc string, scopes []string) {
	parts := []string{`realm="nl2sql"`}
	if v != nil {
		parts = append(parts, `resource_metadata="`+metadataURL(v.Resource())+`"`)
	}
	if code != "" {
		parts = append(parts, `error="`+code+`"`, `error_description="`+quotable(desc)+`"`)
	}
	if len(scopes) > 0 {
		parts = append(parts, `scope="`+strings.Join(scopes, " ")+`"`)
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(parts, ", "))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	body := map[string]string{"error": code, "error_description": desc}
	if code == "" {
		body["error"] = "unauthorized"
	}
	_ = json.NewEncoder(w).Encode(body)
}

// quotable drops what may not stand in a quoted-string of the header.
func quotable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || r < 0x20 || r > 0x7e {
			return -1
		}
		return r
	}, s)
}

// authenticateOAuth verifies an access token and the scopes the request
// needs. It returns the caller's identity, or writes the refusal and
// returns false. The log names the token by subject and key id only.
func authenticateOAuth(w http.ResponseWriter, r *http.Request, v OAuthVerifier, token string, log *slog.Logger) (*http.Request, any, bool) {
	p, err := v.Verify(r.Context(), token)
	if err != nil {
		var oe *oauth.Error
		if !errors.As(err, &oe) {
			oe = &oauth.Error{Code: "invalid_token", Description: "the token could not be verified"}
		}
		log.Info("access token refused", "sub", oe.Subject, "kid", oe.KeyID, "reason", oe.Description)
		challenge(w, v, http.StatusUnauthorized, oe.Code, oe.Description, v.RequiredScopes(""))
		return r, nil, false
	}
	r, tools := toolsCalled(r)
	need := v.RequiredScopes("")
	for _, t := range tools {
		for _, s := range v.RequiredScopes(t) {
			if !slices.Contains(need, s) {
				need = append(need, s)
			}
		}
	}
	var missing []string
	for _, s := range need {
		if !slices.Contains(p.Scopes, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		log.Info("access token lacks a scope", "sub", p.Subject, "kid", p.KeyID, "missing", strings.Join(missing, " "))
		challenge(w, v, http.StatusForbidden, "insufficient_scope",
			"this request needs the scope "+strings.Join(missing, " "), need)
		return r, nil, false
	}
	log.Debug("access token accepted", "sub", p.Subject, "kid", p.KeyID)
	return r, p.Scope, true
}

// toolsCalled reads the JSON-RPC body (already bounded by MaxRequestBytes)
// for the tools a tools/call names, and gives the request back with its
// body intact. A body that does not read or parse names no tool; mcp-go
// then answers it as it would have.
func toolsCalled(r *http.Request) (*http.Request, []string) {
	if r.Method != http.MethodPost || r.Body == nil {
		return r, nil
	}
	b, err := readBody(r)
	if err != nil {
		return r, nil
	}
	type call struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var calls []call
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		_ = json.Unmarshal(t, &calls)
	} else {
		var c call
		if json.Unmarshal(t, &c) == nil {
			calls = []call{c}
		}
	}
	var tools []string
	for _, c := range calls {
		if c.Method == "tools/call" {
			tools = append(tools, c.Params.Name)
		}
	}
	return r, tools
}

// readBody reads r's body and puts back a reader of the same bytes, so
// the next handler reads what this one did; when the read failed (a body
// over the limit) the new reader fails with the same error after them.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
		return b, err
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
