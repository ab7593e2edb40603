package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// introspect checks an opaque token at the introspection endpoint (RFC
// 7662) of each issuer configured for it, in config order; the first that
// calls it active decides. The answer is held to the same rules as a JWT:
// the issuer's own, an aud holding this server's resource URI, exp and nbf
// within the leeway.
func (v *Verifier) introspect(ctx context.Context, raw string) (*Principal, error) {
	if raw == "" {
		return nil, &Error{Code: "invalid_request", Description: "the bearer token is empty"}
	}
	tried := false
	for _, is := range v.order {
		if is.cfg.Introspection.ClientID == "" {
			continue
		}
		tried = true
		claims, err := v.introspectAt(ctx, is, raw)
		if err != nil {
			v.log.Warn("token introspection failed", "issuer", is.cfg.Issuer, "err", err)
			continue
		}
		if active, _ := claims["active"].(bool); !active {
			continue
		}
		sub, _ := claims["sub"].(string)
		if iss, ok := claims["iss"].(string); ok && iss != is.cfg.Issuer {
			return nil, &Error{Code: "invalid_token", Description: "the token's issuer is not accepted by this server", Subject: sub}
		}
		if !slices.Contains(strings1(claims["aud"]), v.cfg.Resource) {
			return nil, &Error{Code: "invalid_token", Description: "the token was not issued for this resource (its aud does not hold this server's resource URI)", Subject: sub}
		}
		now := v.now()
		exp, ok := claims["exp"].(float64)
		if !ok {
			return nil, &Error{Code: "invalid_token", Description: "the token lacks a required claim (exp)", Subject: sub}
		}
		if now.After(time.Unix(int64(exp), 0).Add(v.cfg.Leeway)) {
			return nil, &Error{Code: "invalid_token", Description: "the token has expired", Subject: sub}
		}
		if nbf, ok := claims["nbf"].(float64); ok && now.Add(v.cfg.Leeway).Before(time.Unix(int64(nbf), 0)) {
			return nil, &Error{Code: "invalid_token", Description: "the token is not valid yet (nbf)", Subject: sub}
		}
		p, err := v.principal(claims)
		if err != nil {
			return nil, &Error{Code: "invalid_token", Description: err.Error(), Subject: sub}
		}
		p.Issuer = is.cfg.Issuer
		return p, nil
	}
	if !tried {
		return nil, &Error{Code: "invalid_token", Description: "the token is not a JWT and no issuer is configured for introspection"}
	}
	return nil, &Error{Code: "invalid_token", Description: "the token is not active"}
}

func (v *Verifier) introspectAt(ctx context.Context, is *issuer, raw string) (map[string]any, error) {
	md, err := is.metadata(ctx)
	if err != nil {
		return nil, err
	}
	if md.IntrospectionEndpoint == "" {
		return nil, fmt.Errorf("issuer %s publishes no introspection_endpoint", is.cfg.Issuer)
	}
	form := url.Values{"token": {raw}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, md.IntrospectionEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(is.cfg.Introspection.ClientID), url.QueryEscape(is.cfg.Introspection.ClientSecret))
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("introspection endpoint: HTTP %d", resp.StatusCode)
	}
	var claims map[string]any
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&claims); err != nil {
		return nil, fmt.Errorf("introspection endpoint: %w", err)
	}
	return claims, nil
}
