package config

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
)

// OAuth configures HTTP callers that present access tokens from an
// identity provider (section oauth:), beside the static tokens of users.
// The identity provider decides who the caller is; this section decides
// what that identity may do: which claim names the user, which claim
// values give which roles, which claims fill the attributes row filters
// bind, and which token scopes each tool needs. A zero OAuth (no section)
// accepts no access tokens.
type OAuth struct {
	// Resource is this server's canonical resource URI (RFC 8707): the
	// public URL of /mcp, e.g. https://nl2sql.example.com/mcp. A token's
	// aud must hold it; it is the resource of the protected resource
	// metadata.
	Resource string
	// Issuers are the authorization servers whose tokens are accepted.
	Issuers []Issuer
	// UserClaim names the claim holding the user name (default "sub").
	UserClaim string
	// RolesClaim names the claim holding the caller's groups (a string or
	// a list of strings); "" gives every token caller no role.
	RolesClaim string
	// Roles maps a value of RolesClaim to the roles it gives. A value not
	// in the table gives no role: a role is never taken from a token as
	// written.
	Roles map[string][]string
	// Attributes maps an attribute name (the :name of a row filter) to the
	// claim it is read from.
	Attributes map[string]string
	// Scopes say which token scopes a request needs.
	Scopes OAuthScopes
	// Leeway is the clock skew allowed on exp, nbf and iat (default 30 s).
	Leeway time.Duration
	// JWKSMinRefresh is the least time between two fetches of an issuer's
	// keys caused by a token with an unknown key id (default 30 s), so a
	// stream of made-up key ids cannot make us hammer the issuer.
	JWKSMinRefresh time.Duration
	// JWKSMaxAge is how long fetched keys are used before they are fetched
	// again (default 10 min), so a key the issuer withdrew stops verifying.
	JWKSMaxAge time.Duration
}

// Issuer is one accepted authorization server.
type Issuer struct {
	// Issuer is the issuer identifier (the iss of its tokens); its
	// metadata is discovered at RFC 8414's and OpenID Connect's well-known
	// paths.
	Issuer string
	// Algorithms are the signature algorithms accepted (default RS256,
	// ES256). Only asymmetric ones: none and HS* are refused at load.
	Algorithms []string
	// Introspection, when ClientID is set, checks tokens that are not JWTs
	// (opaque tokens) at the issuer's introspection endpoint (RFC 7662).
	Introspection Introspection
}

// Introspection is the client this server authenticates as at an issuer's
// introspection endpoint.
type Introspection struct {
	ClientID     string
	ClientSecret string
}

// OAuthScopes are the scopes requests need. Every request needs Required;
// a tools/call of a tool in Tools needs that tool's scopes as well.
type OAuthScopes struct {
	Required []string
	Tools    map[string][]string
}

// Enabled reports whether access tokens are accepted.
func (o OAuth) Enabled() bool { return len(o.Issuers) > 0 }

// AllScopes lists every scope the section names, sorted (the
// scopes_supported of the protected resource metadata).
func (o OAuth) AllScopes() []string {
	set := map[string]bool{}
	for _, s := range o.Scopes.Required {
		set[s] = true
	}
	for _, ss := range o.Scopes.Tools {
		for _, s := range ss {
			set[s] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// AsymmetricAlgorithms are the signature algorithms an issuer may list.
var AsymmetricAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

type fileOAuth struct {
	Resource              string            `koanf:"resource"`
	Issuers               []fileIssuer      `koanf:"issuers"`
	UserClaim             string            `koanf:"user_claim"`
	RolesClaim            string            `koanf:"roles_claim"`
	Roles                 []fileRoleMapping `koanf:"roles"`
	Attributes            map[string]string `koanf:"attributes"`
	Scopes                *fileOAuthScopes  `koanf:"scopes"`
	LeewaySeconds         *int              `koanf:"leeway_seconds"`
	JWKSMinRefreshSeconds *int              `koanf:"jwks_min_refresh_seconds"`
	JWKSMaxAgeSeconds     *int              `koanf:"jwks_max_age_seconds"`
}

// fileRoleMapping is one row of oauth.roles; a list, not a map, because a
// claim value may hold dots, which koanf reads as nesting in a map key.
type fileRoleMapping struct {
	Value string   `koanf:"value"`
	Roles []string `koanf:"roles"`
}

type fileIssuer struct {
	Issuer        string             `koanf:"issuer"`
	Algorithms    []string           `koanf:"algorithms"`
	Introspection *fileIntrospection `koanf:"introspection"`
}

type fileIntrospection struct {
	ClientID     string `koanf:"client_id"`
	ClientSecret string `koanf:"client_secret"`
}

type fileOAuthScopes struct {
	Required []string            `koanf:"required"`
	Tools    map[string][]string `koanf:"tools"`
}

// buildOAuth checks and copies the oauth section into c.
func buildOAuth(fo *fileOAuth, c *Config, bad func(key, format string, args ...any)) {
	if fo == nil {
		return
	}
	o := OAuth{Resource: fo.Resource, UserClaim: fo.UserClaim, RolesClaim: fo.RolesClaim,
		Leeway: 30 * time.Second, JWKSMinRefresh: 30 * time.Second, JWKSMaxAge: 10 * time.Minute}
	if o.UserClaim == "" {
		o.UserClaim = "sub"
	}
	if u, err := url.Parse(fo.Resource); fo.Resource == "" {
		bad("oauth.resource", "missing: the public URL of this server's /mcp endpoint, e.g. https://nl2sql.example.com/mcp")
	} else if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "" || u.RawQuery != "" {
		bad("oauth.resource", "%q must be an absolute http(s) URL without query or fragment (the canonical URI of /mcp)", fo.Resource)
	}
	if len(fo.Issuers) == 0 {
		bad("oauth.issuers", "missing: at least one authorization server whose tokens are accepted")
	}
	seen := map[string]int{}
	for i, fi := range fo.Issuers {
		key := fmt.Sprintf("oauth.issuers[%d]", i)
		is := Issuer{Issuer: fi.Issuer, Algorithms: slices.Clone(fi.Algorithms)}
		if u, err := url.Parse(fi.Issuer); fi.Issuer == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			bad(key+".issuer", "%q must be the issuer's https URL (the iss of its tokens)", fi.Issuer)
		}
		if j, dup := seen[fi.Issuer]; dup {
			bad(key+".issuer", "%q is already oauth.issuers[%d]", fi.Issuer, j)
		}
		seen[fi.Issuer] = i
		if len(is.Algorithms) == 0 {
			is.Algorithms = []string{"RS256", "ES256"}
		}
		for j, a := range is.Algorithms {
			if !slices.Contains(AsymmetricAlgorithms, a) {
				bad(fmt.Sprintf("%s.algorithms[%d]", key, j), "%q is not accepted: use one of %s (none and shared-secret HS* never verify an identity provider's token)", a, strings.Join(AsymmetricAlgorithms, ", "))
			}
		}
		if fi.Introspection != nil {
			if fi.Introspection.ClientID == "" {
				bad(key+".introspection.client_id", "missing (the client this server authenticates as at the introspection endpoint)")
			}
			is.Introspection = Introspection{ClientID: fi.Introspection.ClientID, ClientSecret: fi.Introspection.ClientSecret}
		}
		o.Issuers = append(o.Issuers, is)
	}
	if len(fo.Roles) > 0 && fo.RolesClaim == "" {
		bad("oauth.roles_claim", "missing: oauth.roles maps values of this claim to roles")
	}
	if len(fo.Roles) > 0 {
		o.Roles = map[string][]string{}
	}
	for i, m := range fo.Roles {
		key := fmt.Sprintf("oauth.roles[%d]", i)
		if m.Value == "" {
			bad(key+".value", "missing: the claim value that gives the roles")
		}
		if _, dup := o.Roles[m.Value]; dup {
			bad(key+".value", "%q is mapped twice", m.Value)
		}
		for j, r := range m.Roles {
			if _, ok := c.Roles[r]; c.Roles != nil && !ok {
				bad(fmt.Sprintf("%s.roles[%d]", key, j), "%q is not a configured role", r)
			}
		}
		o.Roles[m.Value] = slices.Clone(m.Roles)
	}
	if len(fo.Roles) > 0 && c.Roles == nil {
		bad("oauth.roles", "there is no roles section; without one every caller reads everything")
	}
	if len(fo.Attributes) > 0 {
		o.Attributes = map[string]string{}
	}
	for _, a := range slices.Sorted(maps.Keys(fo.Attributes)) {
		if !attrName.MatchString(a) {
			bad("oauth.attributes."+a, "an attribute name must match %s", attrName)
		}
		if fo.Attributes[a] == "" {
			bad("oauth.attributes."+a, "missing: the claim the attribute is read from")
		}
		o.Attributes[a] = fo.Attributes[a]
	}
	if fs := fo.Scopes; fs != nil {
		o.Scopes.Required = slices.Clone(fs.Required)
		if len(fs.Tools) > 0 {
			o.Scopes.Tools = map[string][]string{}
		}
		for _, t := range slices.Sorted(maps.Keys(fs.Tools)) {
			for j, s := range fs.Tools[t] {
				if s == "" || strings.ContainsAny(s, " \"\\") {
					bad(fmt.Sprintf("oauth.scopes.tools.%s[%d]", t, j), "%q is not a scope token (no blanks, quotes or backslashes)", s)
				}
			}
			o.Scopes.Tools[t] = slices.Clone(fs.Tools[t])
		}
		for j, s := range fs.Required {
			if s == "" || strings.ContainsAny(s, " \"\\") {
				bad(fmt.Sprintf("oauth.scopes.required[%d]", j), "%q is not a scope token (no blanks, quotes or backslashes)", s)
			}
		}
	}
	secs := func(key string, v *int, def time.Duration) time.Duration {
		if v == nil {
			return def
		}
		return time.Duration(intSetting(bad, key, v, 0, 0, "0 or more")) * time.Second
	}
	o.Leeway = secs("oauth.leeway_seconds", fo.LeewaySeconds, o.Leeway)
	o.JWKSMinRefresh = secs("oauth.jwks_min_refresh_seconds", fo.JWKSMinRefreshSeconds, o.JWKSMinRefresh)
	o.JWKSMaxAge = secs("oauth.jwks_max_age_seconds", fo.JWKSMaxAgeSeconds, o.JWKSMaxAge)
	if o.Leeway > 5*time.Minute {
		bad("oauth.leeway_seconds", "%d is more than 300: an expired token would be honoured for too long", int(o.Leeway/time.Second))
	}
	c.OAuth = o
}
