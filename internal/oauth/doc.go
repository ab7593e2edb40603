// Package oauth checks the access tokens HTTP callers present when an
// identity provider, not this server, decides who they are (the oauth
// section of nl2sql.yaml; docs/oauth.md). It is the resource-server side
// of OAuth 2.1 as the MCP authorization specification has it:
//
//   - issuer metadata is discovered (RFC 8414, then OpenID Connect) and
//     must name the configured issuer;
//   - a JWT is verified by jwx with the key its kid names in the issuer's
//     JWKS (cached; fetched again for an unknown kid at most once per
//     jwks_min_refresh, and when older than jwks_max_age), with an accepted
//     asymmetric algorithm that fits the key's type;
//   - iss, aud (this server's resource URI, RFC 8707), exp and nbf (with
//     a leeway) are checked; exp is required;
//   - an opaque token is introspected (RFC 7662) where configured, and its
//     answer held to the same rules;
//   - the claims become a *scope.Scope through the config's mapping: the
//     user from user_claim, roles only through the roles table, attributes
//     (the :name of row filters) from their claims.
//
// Package mcp serves the protected resource metadata, asks Verify, checks
// RequiredScopes and writes the 401/403 challenges.
//
// Example:
//
//	v, err := oauth.New(cfg.OAuth, policy, oauth.Options{Logger: logger})
//	p, err := v.Verify(ctx, bearerToken)
//	// err: *oauth.Error{Code: "invalid_token", Description: "the token has expired"}
//	// p.Scope: jane (rep), attribute employee_id = 3; p.Scopes: [nl2sql:read]
//	ctx = engine.WithCaller(ctx, p.Scope)
package oauth
