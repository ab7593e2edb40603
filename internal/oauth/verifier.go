package oauth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/scope"
)

// Principal is a caller whose access token verified.
type Principal struct {
	// Scope is the caller's access scope, built from the token's claims
	// through the oauth section's mapping.
	Scope *scope.Scope
	// Subject and KeyID are the only things about a token that may be
	// logged.
	Subject, KeyID string
	Issuer         string
	// Scopes are the token's granted scopes (scope or scp claim).
	Scopes []string
}

// Error is a refused token, in RFC 6750's terms: Code is the error of the
// WWW-Authenticate challenge (invalid_token, invalid_request) and
// Description its error_description, safe to send back (it never quotes
// the token). Subject and KeyID are set when they could be read, for the
// log.
type Error struct {
	Code, Description string
	Subject, KeyID    string
	Err               error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Description + ": " + e.Err.Error()
	}
	return e.Description
}

func (e *Error) Unwrap() error { return e.Err }

// Options are what New needs besides the config.
type Options struct {
	// HTTPClient fetches metadata, keys and introspection answers; nil is
	// a client with a 10 s timeout.
	HTTPClient *http.Client
	// Now is the clock (tests); nil is time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Verifier checks access tokens against the configured issuers.
type Verifier struct {
	cfg     config.OAuth
	policy  *scope.Policy
	issuers map[string]*issuer
	order   []*issuer
	now     func() time.Time
	client  *http.Client
	log     *slog.Logger
}

// New returns a Verifier for cfg (cfg.Enabled() must hold). Nothing is
// fetched until the first token: an identity provider that is down at
// start delays nothing but that token.
func New(cfg config.OAuth, p *scope.Policy, o Options) (*Verifier, error) {
	if !cfg.Enabled() {
		return nil, errors.New("oauth: no issuers configured")
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	v := &Verifier{cfg: cfg, policy: p, issuers: map[string]*issuer{}, now: o.Now, client: o.HTTPClient, log: o.Logger}
	for _, ic := range cfg.Issuers {
		is := &issuer{cfg: ic, client: o.HTTPClient, now: o.Now, retry: cfg.JWKSMinRefresh}
		is.keys = &keySet{issuer: is, client: o.HTTPClient, now: o.Now, minRefresh: cfg.JWKSMinRefresh, maxAge: cfg.JWKSMaxAge}
		v.issuers[ic.Issuer] = is
		v.order = append(v.order, is)
	}
	return v, nil
}

// Resource is the canonical resource URI tokens must be issued for.
func (v *Verifier) Resource() string { return v.cfg.Resource }

// AuthorizationServers lists the issuers, in config order.
func (v *Verifier) AuthorizationServers() []string {
	out := make([]string, len(v.cfg.Issuers))
	for i, is := range v.cfg.Issuers {
		out[i] = is.Issuer
	}
	return out
}

// ScopesSupported lists every scope the config names.
func (v *Verifier) ScopesSupported() []string { return v.cfg.AllScopes() }

// RequiredScopes returns the scopes a request needs: oauth.scopes.required,
// plus the tool's own for a tools/call of tool ("" for any other request).
func (v *Verifier) RequiredScopes(tool string) []string {
	out := slices.Clone(v.cfg.Scopes.Required)
	for _, s := range v.cfg.Scopes.Tools[tool] {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Verify checks raw: a JWT is checked for its issuer (one configured),
// signature (the issuer's keys, an accepted asymmetric algorithm), audience
// (this server's resource URI), exp and nbf (with the configured leeway);
// any other token is introspected when an issuer allows it. Errors are
// *Error.
func (v *Verifier) Verify(ctx context.Context, raw string) (*Principal, error) {
	if strings.Count(raw, ".") != 2 {
		return v.introspect(ctx, raw)
	}
	msg, err := jws.Parse([]byte(raw), jws.WithCompact())
	if err != nil || len(msg.Signatures()) != 1 {
		return nil, &Error{Code: "invalid_token", Description: "the token is not a well-formed signed JWT", Err: err}
	}
	h := msg.Signatures()[0].ProtectedHeaders()
	kid, _ := h.KeyID()
	unverified, err := jwt.ParseInsecure([]byte(raw))
	if err != nil {
		return nil, &Error{Code: "invalid_token", Description: "the token's claims do not parse", KeyID: kid, Err: err}
	}
	sub, _ := unverified.Subject()
	iss, _ := unverified.Issuer()
	is, ok := v.issuers[iss]
	if !ok {
		return nil, &Error{Code: "invalid_token", Description: "the token's issuer is not accepted by this server", Subject: sub, KeyID: kid}
	}
	if alg, ok := h.Algorithm(); !ok || !slices.Contains(is.cfg.Algorithms, alg.String()) {
		return nil, &Error{Code: "invalid_token", Description: "the token's signing algorithm is not accepted", Subject: sub, KeyID: kid}
	}
	tok, err := jwt.Parse([]byte(raw),
		jwt.WithKeyProvider(is.keys),
		jwt.WithValidate(true),
		jwt.WithIssuer(is.cfg.Issuer),
		jwt.WithAudience(v.cfg.Resource),
		jwt.WithRequiredClaim("exp"),
		jwt.WithAcceptableSkew(v.cfg.Leeway),
		jwt.WithClock(jwt.ClockFunc(v.now)),
		jwt.WithContext(ctx),
	)
	if err != nil {
		return nil, &Error{Code: "invalid_token", Description: describe(err), Subject: sub, KeyID: kid, Err: err}
	}
	claims := map[string]any{}
	for _, k := range tok.Keys() {
		var val any
		if tok.Get(k, &val) == nil {
			claims[k] = val
		}
	}
	p, err := v.principal(claims)
	if err != nil {
		return nil, &Error{Code: "invalid_token", Description: err.Error(), Subject: sub, KeyID: kid}
	}
	p.KeyID, p.Issuer = kid, iss
	return p, nil
}

// describe turns a jwx refusal into a description a client may read.
func describe(err error) string {
	switch {
	case errors.Is(err, jwt.TokenExpiredError()):
		return "the token has expired"
	case errors.Is(err, jwt.TokenNotYetValidError()):
		return "the token is not valid yet (nbf)"
	case errors.Is(err, jwt.InvalidAudienceError()):
		return "the token was not issued for this resource (its aud does not hold this server's resource URI)"
	case errors.Is(err, jwt.InvalidIssuerError()):
		return "the token's issuer is not accepted by this server"
	case errors.Is(err, jwt.MissingRequiredClaimError()):
		return "the token lacks a required claim (exp)"
	case errors.Is(err, errUnknownKey):
		return "the token is signed with a key the issuer does not publish"
	case errors.Is(err, errAlgorithm):
		return "the token's signing algorithm is not accepted"
	}
	return "the token's signature does not verify with the issuer's keys"
}
