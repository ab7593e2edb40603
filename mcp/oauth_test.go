package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/oauthtest"
	"github.com/nl2sql/nl2sql/scope"
)

// The resource-server side of MCP authorization, against a real
// authorization server (internal/oauthtest: discovery, JWKS, token
// endpoint, real RSA keys) over loopback HTTP.

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// oauthServer is nl2sql serving Chinook over HTTP with an oauth section
// trusting as, and a static user bob beside it.
type oauthServer struct {
	base, resource string
	log            *syncBuffer
}

const bobToken = "bob-static-token"

// freePort returns a loopback port that was free a moment ago: the
// resource URI, which tokens are bound to, must name the port before the
// server listens.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func oauthConfig(t *testing.T, issuer, resource string, static bool) string {
	t.Helper()
	ex, _ := filepath.Abs(filepath.Join("..", "examples", "chinook"))
	dir := t.TempDir()
	users := "" // OAuth only
	if static {
		users = fmt.Sprintf("users:\n  - {name: bob, roles: [analyst], tokens_sha256: [%q]}", scope.TokenDigest(bobToken))
	}
	cfg := fmt.Sprintf(`storage: {path: %q}
datasources:
  - {id: chinook, engine: sqlite, path: %q}
curated: %q
llm:
  default: {provider: replay, recordings: %q}
roles:
  analyst:
    allow: ["chinook"]
    deny: ["chinook.main.Employee", "chinook.main.Customer.Email"]
  rep:
    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
    row_filters:
      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
%s
oauth:
  resource: %q
  issuers:
    - {issuer: %q, algorithms: [RS256], introspection: {client_id: %q, client_secret: %q}}
  user_claim: preferred_username
  roles_claim: groups
  roles:
    - {value: sales-reps, roles: [rep]}
    - {value: analysts, roles: [analyst]}
  attributes: {employee_id: employee_id, region: region}
  scopes:
    required: ["nl2sql:read"]
    tools: {approve_run: ["nl2sql:approve"]}
  jwks_min_refresh_seconds: 0
`, filepath.Join(dir, "state"), filepath.Join(ex, "chinook.sqlite"), filepath.Join(ex, "curated.yaml"),
		filepath.Join(ex, "recordings"), users, resource, issuer,
		oauthtest.IntrospectionClient, oauthtest.IntrospectionSecret)
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func startOAuth(t *testing.T, as *oauthtest.Server) *oauthServer { return startOAuthWith(t, as, true) }

// startOAuthWith: static says whether the static user bob is configured
// beside the oauth section.
func startOAuthWith(t *testing.T, as *oauthtest.Server, static bool) *oauthServer {
	t.Helper()
	addr := freePort(t)
	resource := "http://" + addr + "/mcp"
	buf := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a, err := app.Open(oauthConfig(t, as.URL, resource, static), logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	o := HTTPOptions{Addr: addr, Ready: ready, Logger: logger, Auth: a.Authenticator(), OAuth: a.OAuthVerifier(logger)}
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, NewServer(a.Engine, "test", logger), o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	return &oauthServer{base: "http://" + addr, resource: resource, log: buf}
}

// post sends one JSON-RPC request to /mcp with token ("" for none).
func post(t *testing.T, url, token, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// claimsOf is what the identity provider says about each test caller.
var (
	janeClaims     = oauthtest.Claims{"sub": "u-1001", "preferred_username": "jane", "groups": []string{"sales-reps"}, "employee_id": 3, "email": "jane@corp.example"}
	margaretClaims = oauthtest.Claims{"sub": "u-1002", "preferred_username": "margaret", "groups": []string{"sales-reps"}, "employee_id": 4}
	annClaims      = oauthtest.Claims{"sub": "u-2001", "preferred_username": "ann", "groups": []string{"analysts"}}
)

// Threat: a client that has only the server's URL cannot find where to get
// a token, or gets one that any other server would accept too. The
// exchange a client performs: 401 naming the metadata, the metadata naming
// the authorization server, its metadata naming the token endpoint, a
// token bound to this resource, a call that succeeds.
func TestOAuthDiscoveryExchange(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.RS256)
	as.AddClient("rep-app", "rep-secret", janeClaims, "nl2sql:read")
	srv := startOAuth(t, as)

	resp, body := post(t, srv.base+"/mcp", "", initializeBody)
	challengeHdr := resp.Header.Get("WWW-Authenticate")
	t.Logf("1. POST /mcp (no token) -> %d\n   WWW-Authenticate: %s\n   %s", resp.StatusCode, challengeHdr, body)
	wantMD := srv.base + "/.well-known/oauth-protected-resource/mcp"
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challengeHdr, `resource_metadata="`+wantMD+`"`) ||
		!strings.Contains(challengeHdr, `scope="nl2sql:read"`) || strings.Contains(challengeHdr, "error=") {
		t.Fatalf("no-token challenge: %d %q", resp.StatusCode, challengeHdr)
	}

	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	for _, u := range []string{wantMD, srv.base + "/.well-known/oauth-protected-resource"} {
		r, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		t.Logf("2. GET %s -> %d\n   %s", u, r.StatusCode, b)
		if err := json.Unmarshal(b, &prm); err != nil || r.StatusCode != 200 {
			t.Fatalf("metadata %s: %d %s", u, r.StatusCode, b)
		}
	}
	if prm.Resource != srv.resource || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != as.URL ||
		strings.Join(prm.ScopesSupported, " ") != "nl2sql:approve nl2sql:read" {
		t.Fatalf("metadata: %+v", prm)
	}

	r, err := http.Get(prm.AuthorizationServers[0] + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	var asmd struct {
		TokenEndpoint string `json:"token_endpoint"`
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	_ = json.Unmarshal(b, &asmd)
	t.Logf("3. GET %s/.well-known/oauth-authorization-server -> %d\n   %s", as.URL, r.StatusCode, b)

	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"nl2sql:read"}, "resource": {prm.Resource}}
	req, _ := http.NewRequest(http.MethodPost, asmd.TokenEndpoint, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("rep-app", "rep-secret")
	r, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		Scope       string `json:"scope"`
	}
	b, _ = io.ReadAll(r.Body)
	r.Body.Close()
	if err := json.Unmarshal(b, &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("token: %d %s", r.StatusCode, b)
	}
	t.Logf("4. POST %s (Authorization: Basic …) %s -> %d\n   {\"access_token\":\"<JWT, %d bytes>\",\"token_type\":%q,\"scope\":%q}",
		asmd.TokenEndpoint, form.Encode(), r.StatusCode, len(tok.AccessToken), tok.TokenType, tok.Scope)

	resp, body = post(t, srv.base+"/mcp", tok.AccessToken, initializeBody)
	t.Logf("5. POST /mcp (Authorization: Bearer <JWT>) initialize -> %d\n   %.160s", resp.StatusCode, body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"serverInfo"`) {
		t.Fatalf("call with the token: %d %s", resp.StatusCode, body)
	}
	// the token is bound to this resource: its aud is the resource URI
	if reqs := as.TokenRequests(); len(reqs) != 1 || !strings.Contains(reqs[0], "resource="+url.QueryEscape(srv.resource)) {
		t.Errorf("token request: %v", reqs)
	}
}

// wwwAuth parses the error and scope of a WWW-Authenticate header.
func wwwAuth(h string) (errCode, scopeParam string) {
	for _, part := range strings.Split(strings.TrimPrefix(h, "Bearer "), ", ") {
		k, v, _ := strings.Cut(part, "=")
		v = strings.Trim(v, `"`)
		switch k {
		case "error":
			errCode = v
		case "scope":
			scopeParam = v
		}
	}
	return
}

// callOAuthTool initializes with token and calls tool over the 2025-11-25
// session protocol, returning the HTTP status and body of the call.
func callOAuthTool(t *testing.T, base, token, tool string, args map[string]any) (int, string, string) {
	t.Helper()
	resp, body := post(t, base+"/mcp", token, initializeBody)
	if resp.StatusCode != 200 {
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body
	}
	sid := resp.Header.Get("Mcp-Session-Id")
	a, _ := json.Marshal(args)
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, tool, a)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	return r.StatusCode, r.Header.Get("WWW-Authenticate"), string(b)
}

// unsigned builds a JWT with header hdr and claims, signed by sign (nil:
// no signature, as alg none has).
func unsigned(hdr, claims map[string]any, sign func([]byte) []byte) string {
	h, _ := json.Marshal(hdr)
	c, _ := json.Marshal(claims)
	in := b64(h) + "." + b64(c)
	var sig []byte
	if sign != nil {
		sig = sign([]byte(in))
	}
	return in + "." + b64(sig)
}

// Threat: a token that should be refused gets in — expired, not yet
// valid, from another issuer, for another resource, unsigned, signed
// with the public key as an HMAC secret, signed by a withdrawn or unknown
// key — or a valid one does the wrong thing (a call its scopes do not
// cover, a role its claims do not map to). Each gets the status and the
// error RFC 6750 and the MCP authorization spec prescribe.
// The table runs with static users beside the oauth section and without
// any (then no token may pass on the strength of being a bearer token).
func TestOAuthBadTokens(t *testing.T) {
	t.Run("with static users", func(t *testing.T) { badTokens(t, true) })
	t.Run("oauth only", func(t *testing.T) { badTokens(t, false) })
}

func badTokens(t *testing.T, static bool) {
	as := oauthtest.Start(t, oauthtest.RS256)
	other := oauthtest.Start(t, oauthtest.RS256) // an authorization server this one does not trust
	as.AddClient("rep-app", "rep-secret", janeClaims, "nl2sql:read")
	srv := startOAuthWith(t, as, static)
	bobStatus, bobErr := 200, ""
	if !static {
		bobStatus, bobErr = 401, "invalid_token"
	}
	now := time.Now()
	read := func(extra oauthtest.Claims) oauthtest.Claims {
		c := oauthtest.Claims{"aud": srv.resource, "scope": "nl2sql:read"}
		for k, v := range janeClaims {
			c[k] = v
		}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	// a token for another resource, issued by the trusted server itself
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {"http://127.0.0.1:9/mcp"}}
	req, _ := http.NewRequest(http.MethodPost, as.URL+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("rep-app", "rep-secret")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var otherResource struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(r.Body).Decode(&otherResource)
	r.Body.Close()

	oldKey := as.Current()
	pubDER := publicDER(t, oldKey)
	claimsJSON := func(c oauthtest.Claims) map[string]any {
		m := map[string]any{"iss": as.URL, "exp": now.Add(time.Minute).Unix()}
		for k, v := range c {
			m[k] = v
		}
		return m
	}
	type tc struct {
		name   string
		token  func() string
		tool   string // "" sends initialize
		args   map[string]any
		status int
		err    string // error of the WWW-Authenticate challenge
		scope  string // scope of the challenge, when checked
	}
	approveArgs := map[string]any{"id": "nope", "decision": "approve"}
	var rotated *oauthtest.Key
	var preRotation string
	cases := []tc{
		{"valid token", func() string { return as.Mint(t, read(nil)) }, "", nil, 200, "", ""},
		{"static bearer token", func() string { return bobToken }, "", nil, bobStatus, bobErr, ""},
		{"no token", func() string { return "" }, "", nil, 401, "", "nl2sql:read"},
		{"not a JWT, not introspectable", func() string { return "garbage" }, "", nil, 401, "invalid_token", ""},
		{"three segments of garbage", func() string { return "abc.def.ghi" }, "", nil, 401, "invalid_token", ""},
		{"expired", func() string { return as.Mint(t, read(oauthtest.Claims{"exp": now.Add(-10 * time.Minute).Unix()})) }, "", nil, 401, "invalid_token", ""},
		{"expired within the leeway", func() string { return as.Mint(t, read(oauthtest.Claims{"exp": now.Add(-10 * time.Second).Unix()})) }, "", nil, 200, "", ""},
		{"no exp", func() string { return as.Mint(t, read(oauthtest.Claims{"exp": nil})) }, "", nil, 401, "invalid_token", ""},
		{"not yet valid", func() string { return as.Mint(t, read(oauthtest.Claims{"nbf": now.Add(10 * time.Minute).Unix()})) }, "", nil, 401, "invalid_token", ""},
		{"wrong issuer, trusted key", func() string { return as.Mint(t, read(oauthtest.Claims{"iss": "http://127.0.0.1:9"})) }, "", nil, 401, "invalid_token", ""},
		{"untrusted authorization server", func() string { return other.Mint(t, read(oauthtest.Claims{"iss": other.URL})) }, "", nil, 401, "invalid_token", ""},
		{"other server's key claiming our issuer", func() string { return other.Mint(t, read(oauthtest.Claims{"iss": as.URL})) }, "", nil, 401, "invalid_token", ""},
		{"wrong audience", func() string { return as.Mint(t, read(oauthtest.Claims{"aud": "https://other.example/mcp"})) }, "", nil, 401, "invalid_token", ""},
		{"no audience", func() string { return as.Mint(t, read(oauthtest.Claims{"aud": nil})) }, "", nil, 401, "invalid_token", ""},
		{"token for another resource (RFC 8707)", func() string { return otherResource.AccessToken }, "", nil, 401, "invalid_token", ""},
		{"alg none", func() string {
			return unsigned(map[string]any{"alg": "none", "typ": "JWT", "kid": oldKey.ID}, claimsJSON(read(nil)), nil)
		}, "", nil, 401, "invalid_token", ""},
		{"HS256 signed with the public key", func() string {
			return unsigned(map[string]any{"alg": "HS256", "typ": "JWT", "kid": oldKey.ID}, claimsJSON(read(nil)), func(in []byte) []byte { return hmacSHA256(pubDER, in) })
		}, "", nil, 401, "invalid_token", ""},
		{"signature tampered", func() string {
			tok := as.Mint(t, read(nil))
			parts := strings.Split(tok, ".")
			c, _ := json.Marshal(claimsJSON(read(oauthtest.Claims{"employee_id": 5})))
			return parts[0] + "." + b64(c) + "." + parts[2]
		}, "", nil, 401, "invalid_token", ""},
		{"unknown kid", func() string { return as.MintWith(t, as.NewKey(t), read(nil)) }, "", nil, 401, "invalid_token", ""},
		{"missing scope for approve_run", func() string { return as.Mint(t, read(nil)) }, "approve_run", approveArgs, 403, "insufficient_scope", "nl2sql:read nl2sql:approve"},
		{"approve_run with its scope", func() string { return as.Mint(t, read(oauthtest.Claims{"scope": "nl2sql:read nl2sql:approve"})) }, "approve_run", approveArgs, 200, "", ""},
		{"no read scope", func() string { return as.Mint(t, read(oauthtest.Claims{"scope": "profile"})) }, "", nil, 403, "insufficient_scope", "nl2sql:read"},
		// a role named in the token as written, not through oauth.roles,
		// gives nothing: the call succeeds and reaches no datasource
		{"mapped role (analysts -> analyst)", func() string {
			return as.Mint(t, read(oauthtest.Claims{"groups": []string{"analysts"}}))
		}, "list_datasources", nil, 200, "", ""},
		{"forged role claim (a role name, not a mapped value)", func() string {
			return as.Mint(t, read(oauthtest.Claims{"groups": []string{"analyst", "rep", "admin"}}))
		}, "list_datasources", nil, 200, "", ""},
		{"opaque token, introspected active", func() string {
			return as.MintOpaque(oauthtest.Claims(read(oauthtest.Claims{"exp": now.Add(time.Minute).Unix()})))
		}, "", nil, 200, "", ""},
		{"opaque token, introspected for another resource", func() string {
			return as.MintOpaque(oauthtest.Claims(read(oauthtest.Claims{"exp": now.Add(time.Minute).Unix(), "aud": "https://other.example/mcp"})))
		}, "", nil, 401, "invalid_token", ""},
		{"opaque token the issuer does not know", func() string { return "opaque-unknown" }, "", nil, 401, "invalid_token", ""},
		// Rotation, in order: a token of the current key, then the issuer
		// rotates and withdraws it; a token of the new key (a kid the cache
		// does not hold) makes the server fetch the keys again and is
		// accepted; the withdrawn key's token is then refused.
		{"before rotation", func() string { preRotation = as.Mint(t, read(nil)); return preRotation }, "", nil, 200, "", ""},
		{"new kid after rotation", func() string { rotated = as.Rotate(t, false); return as.Mint(t, read(nil)) }, "", nil, 200, "", ""},
		{"withdrawn kid after rotation", func() string { return preRotation }, "", nil, 401, "invalid_token", ""},
	}
	for _, c := range cases {
		tok := c.token()
		var status int
		var hdr, body string
		if c.tool == "" {
			resp, b := post(t, srv.base+"/mcp", tok, initializeBody)
			status, hdr, body = resp.StatusCode, resp.Header.Get("WWW-Authenticate"), b
		} else {
			status, hdr, body = callOAuthTool(t, srv.base, tok, c.tool, c.args)
		}
		code, sc := wwwAuth(hdr)
		t.Logf("%-45s -> %d %s %s", c.name, status, code, strings.TrimSpace(body[:min(len(body), 140)]))
		if status != c.status || code != c.err {
			t.Errorf("%s: %d error=%q, want %d error=%q (%s; %s)", c.name, status, code, c.status, c.err, hdr, body)
			continue
		}
		if status >= 400 && !strings.Contains(hdr, `resource_metadata="`+srv.base+`/.well-known/oauth-protected-resource/mcp"`) {
			t.Errorf("%s: the challenge names no resource metadata: %s", c.name, hdr)
		}
		if c.err != "" && !strings.Contains(hdr, "error_description=") {
			t.Errorf("%s: no error_description: %s", c.name, hdr)
		}
		if mapped := strings.HasPrefix(c.name, "mapped role"); c.tool == "list_datasources" && strings.Contains(body, `"id":"chinook"`) != mapped {
			t.Errorf("%s: reaches chinook = %v, want %v: %s", c.name, !mapped, mapped, body)
		}
		if c.scope != "" && sc != c.scope {
			t.Errorf("%s: scope=%q, want %q", c.name, sc, c.scope)
		}
	}
	_ = rotated

	// Threat: logs become a store of bearer tokens (or of what they say
	// about a person). Every token sent above is absent from the log; of
	// a token the log holds its subject and key id only.
	logs := srv.log.String()
	for _, c := range []string{preRotation, bobToken} {
		for _, seg := range strings.Split(c, ".") {
			if len(seg) > 8 && strings.Contains(logs, seg) {
				t.Errorf("the log holds part of a token: %.20s…", seg)
			}
		}
	}
	for _, leak := range []string{"jane@corp.example", "sales-reps", "employee_id", "nl2sql:read nl2sql:approve\"", "Bearer"} {
		if strings.Contains(logs, leak) {
			t.Errorf("the log holds %q", leak)
		}
	}
	if !strings.Contains(logs, `"sub":"u-1001"`) || !strings.Contains(logs, `"kid":"`+oldKey.ID+`"`) {
		t.Errorf("refusals are logged without subject and key id:\n%s", logs)
	}
}
