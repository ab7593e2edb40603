package config

import (
	"strings"
	"testing"
	"time"
)

const oauthBase = `datasources:
  - {id: chinook, engine: sqlite, path: c.sqlite}
roles:
  rep: {allow: [chinook]}
`

func TestLoadOAuth(t *testing.T) {
	c, err := Load(writeConfig(t, oauthBase+`oauth:
  resource: https://nl2sql.example.com/mcp
  issuers:
    - {issuer: "https://idp.example.com/realms/corp", introspection: {client_id: nl2sql, client_secret: s}}
  roles_claim: groups
  roles:
    - {value: "cn=sales.reps,ou=groups", roles: [rep]}
  attributes: {employee_id: emp_no}
  scopes:
    required: ["nl2sql:read"]
    tools: {approve_run: ["nl2sql:approve"]}
  leeway_seconds: 10
`))
	if err != nil {
		t.Fatal(err)
	}
	o := c.OAuth
	if !o.Enabled() || o.UserClaim != "sub" || o.Leeway != 10*time.Second || o.JWKSMinRefresh != 30*time.Second ||
		strings.Join(o.Issuers[0].Algorithms, ",") != "RS256,ES256" || o.Issuers[0].Introspection.ClientID != "nl2sql" ||
		strings.Join(o.Roles["cn=sales.reps,ou=groups"], ",") != "rep" || o.Attributes["employee_id"] != "emp_no" ||
		strings.Join(o.AllScopes(), " ") != "nl2sql:approve nl2sql:read" {
		t.Errorf("oauth = %+v", o)
	}
}

// Threat: a typo or a dangerous setting in the oauth section is accepted
// and silently weakens what a token must prove (an HMAC algorithm with a
// public secret, a role mapping to nothing, an unbounded leeway), or an
// unknown key is ignored.
func TestLoadOAuthErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"unknown key", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], audiance: x}", "unknown key oauth.audiance"},
		{"unknown issuer key", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i, jwks: x}]}", "unknown key oauth.issuers[0].jwks"},
		{"no resource", "oauth: {issuers: [{issuer: https://i}]}", "oauth.resource: missing"},
		{"relative resource", "oauth: {resource: /mcp, issuers: [{issuer: https://i}]}", "oauth.resource"},
		{"no issuers", "oauth: {resource: https://x/mcp}", "oauth.issuers: missing"},
		{"HS256", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i, algorithms: [HS256]}]}", `oauth.issuers[0].algorithms[0]: "HS256" is not accepted`},
		{"none", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i, algorithms: [none]}]}", `"none" is not accepted`},
		{"role not configured", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], roles_claim: g, roles: [{value: a, roles: [admin]}]}", `oauth.roles[0].roles[0]: "admin" is not a configured role`},
		{"roles without claim", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], roles: [{value: a, roles: [rep]}]}", "oauth.roles_claim: missing"},
		{"bad attribute", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], attributes: {1x: c}}", "oauth.attributes.1x"},
		{"leeway", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], leeway_seconds: 3600}", "oauth.leeway_seconds"},
		{"scope with blank", "oauth: {resource: https://x/mcp, issuers: [{issuer: https://i}], scopes: {required: [\"a b\"]}}", "oauth.scopes.required[0]"},
	}
	for _, c := range cases {
		_, err := Load(writeConfig(t, oauthBase+c.body+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
