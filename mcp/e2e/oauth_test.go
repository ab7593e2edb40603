package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nl2sql/nl2sql/internal/oauthtest"
)

// TestOAuthWithTypeScriptSDK: the built binary serves HTTP with an oauth
// section trusting a real authorization server (internal/oauthtest, run
// by this test on loopback), and the official TypeScript SDK's
// ClientCredentialsProvider finds it from the 401 alone (protected
// resource metadata, authorization server metadata, token endpoint with
// the resource parameter) and calls tools with the token (oauth.test.mjs).
func TestOAuthWithTypeScriptSDK(t *testing.T) {
	f := setup(t)
	as := oauthtest.Start(t, oauthtest.RS256)
	as.AddClient("jane-app", "jane-secret", oauthtest.Claims{"sub": "u-1001", "preferred_username": "jane", "groups": []string{"sales-reps"}, "employee_id": 3}, "nl2sql:read")
	as.AddClient("margaret-app", "margaret-secret", oauthtest.Claims{"sub": "u-1002", "preferred_username": "margaret", "groups": []string{"sales-reps"}, "employee_id": 4}, "nl2sql:read")
	as.AddClient("ann-app", "ann-secret", oauthtest.Claims{"sub": "u-2001", "preferred_username": "ann", "groups": []string{"analysts"}}, "nl2sql:read", "nl2sql:approve")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	dir := t.TempDir()
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
oauth:
  resource: "http://127.0.0.1:%d/mcp"
  issuers: [{issuer: %q}]
  user_claim: preferred_username
  roles_claim: groups
  roles:
    - {value: sales-reps, roles: [rep]}
    - {value: analysts, roles: [analyst]}
  attributes: {employee_id: employee_id}
  scopes:
    required: ["nl2sql:read"]
    tools: {approve_run: ["nl2sql:approve"]}
`, filepath.Join(dir, "state"), filepath.Join(f.chinook, "chinook.sqlite"), filepath.Join(f.chinook, "curated.yaml"),
		filepath.Join(f.chinook, "recordings"), port, as.URL)
	cfgPath := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	clients, _ := json.Marshal(map[string]string{"jane": "jane-secret", "margaret": "margaret-secret", "ann": "ann-secret"})
	ctx, cancel := context.WithTimeout(context.Background(), overallTimeout)
	defer cancel()
	env := append(f.env(filepath.Join(dir, "storage")),
		"E2E_OAUTH_CONFIG="+cfgPath, "E2E_OAUTH_PORT="+strconv.Itoa(port), "E2E_OAUTH_ISSUER="+as.URL, "E2E_OAUTH_CLIENTS="+string(clients))
	run(ctx, t, f.root, env, f.node, "--test", "--test-reporter=spec", filepath.Join("mcp", "e2e", "oauth.test.mjs"))
	if reqs := as.TokenRequests(); len(reqs) < 3 {
		t.Errorf("the SDK asked for %d tokens, want one per client: %v", len(reqs), reqs)
	} else {
		t.Logf("token requests the SDK sent (secrets in the Basic header, not shown): %v", reqs)
	}
}
