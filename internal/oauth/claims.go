package oauth

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// principal maps verified claims to a caller: the user from user_claim,
// roles only through the oauth.roles table (a claim value not in it gives
// nothing, so a token cannot name a role), attributes from their claims.
func (v *Verifier) principal(claims map[string]any) (*Principal, error) {
	user, ok := claims[v.cfg.UserClaim].(string)
	if !ok || user == "" {
		return nil, fmt.Errorf("the token has no %s claim naming the user", v.cfg.UserClaim)
	}
	var roles []string
	if v.cfg.RolesClaim != "" {
		for _, val := range strings1(claims[v.cfg.RolesClaim]) {
			for _, r := range v.cfg.Roles[val] {
				if !slices.Contains(roles, r) {
					roles = append(roles, r)
				}
			}
		}
	}
	slices.Sort(roles)
	var attrs map[string]any
	for a, c := range v.cfg.Attributes {
		val, ok := attribute(claims[c])
		if !ok {
			continue // a row filter needing it then refuses the query (scope.ApplyRowFilters)
		}
		if attrs == nil {
			attrs = map[string]any{}
		}
		attrs[a] = val
	}
	sub, _ := claims["sub"].(string)
	return &Principal{Scope: v.policy.ForToken(user, roles, attrs), Subject: sub, Scopes: grantedScopes(claims)}, nil
}

// strings1 reads a claim holding a string or a list of strings.
func strings1(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return x
	}
	return nil
}

// attribute converts a claim to an attribute value of the kinds
// users[].attributes hold: strings, booleans, integers (a JSON number
// without fraction) and floats.
func attribute(v any) (any, bool) {
	switch x := v.(type) {
	case string, bool:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int(x), true
		}
		return x, true
	case int:
		return x, true
	case int64:
		return int(x), true
	}
	return nil, false
}

// grantedScopes reads the scope claim (RFC 9068: space-separated) or scp
// (a list, as some providers send).
func grantedScopes(claims map[string]any) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	return strings1(claims["scp"])
}
