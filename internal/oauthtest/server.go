// Package oauthtest is a small, real OAuth 2.1 authorization server for
// tests: it serves RFC 8414 and OpenID Connect discovery, a JWKS, a token
// endpoint for the client_credentials grant (client_secret_basic or
// client_secret_post, with RFC 8707's resource parameter becoming the aud)
// and RFC 7662 introspection, over real HTTP on loopback, signing with real
// RSA or EC keys through jwx. Keys rotate on demand. Mint forges tokens the
// server never issued (expired, other audience, other alg), for refusal
// tests.
//
//	as := oauthtest.Start(t, oauthtest.RS256)
//	as.AddClient("rep-app", "s3cret", map[string]any{"sub": "jane", "employee_id": 3}, "nl2sql:read")
//	tok := as.Mint(t, oauthtest.Claims{"sub": "jane", "aud": resource, "scope": "nl2sql:read"})
package oauthtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"
)

// KeyKind is the kind of signing key.
type KeyKind int

const (
	RS256 KeyKind = iota // RSA 2048
	ES256                // ECDSA P-256
)

// Claims are a token's claims.
type Claims map[string]any

// Key is one signing key: the private key and its public JWK.
type Key struct {
	ID      string
	Alg     jwa.SignatureAlgorithm
	Private jwk.Key
	Public  jwk.Key
}

type client struct {
	secret string
	claims Claims
	scopes []string
}

// Server is a running authorization server.
type Server struct {
	URL  string // the issuer
	kind KeyKind
	srv  *httptest.Server
	TTL  time.Duration

	mu        sync.Mutex
	keys      []*Key // published in the JWKS
	current   *Key
	clients   map[string]client
	opaque    map[string]Claims
	seq       int
	jwksHits  int
	tokenReqs []string // form bodies of token requests, secrets elided
}

// Start starts a server with one key of kind, stopped at the test's end.
func Start(t testing.TB, kind KeyKind) *Server {
	t.Helper()
	s := &Server{kind: kind, clients: map[string]client{}, opaque: map[string]Claims{}, TTL: 5 * time.Minute}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("GET /.well-known/openid-configuration", s.metadata)
	mux.HandleFunc("GET /jwks", s.jwks)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("POST /introspect", s.introspect)
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_response_type", "error_description": "this test server issues tokens by client_credentials only"})
	})
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	s.Rotate(t, false)
	return s
}

// NewKey makes a key of the server's kind that is not published.
func (s *Server) NewKey(t testing.TB) *Key {
	t.Helper()
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("key-%d", s.seq)
	s.mu.Unlock()
	var raw any
	alg := jwa.RS256()
	switch s.kind {
	case ES256:
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		raw, alg = k, jwa.ES256()
	default:
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		raw = k
	}
	priv, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	_ = priv.Set(jwk.KeyIDKey, id)
	_ = priv.Set(jwk.AlgorithmKey, alg)
	_ = priv.Set(jwk.KeyUsageKey, "sig")
	pub, err := priv.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return &Key{ID: id, Alg: alg, Private: priv, Public: pub}
}

// Rotate makes a new current signing key and publishes it; keepOld keeps
// the previous keys in the JWKS (a grace period), else they are withdrawn.
// It returns the new key.
func (s *Server) Rotate(t testing.TB, keepOld bool) *Key {
	t.Helper()
	k := s.NewKey(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !keepOld {
		s.keys = nil
	}
	s.keys = append(s.keys, k)
	s.current = k
	return k
}

// Current is the key new tokens are signed with.
func (s *Server) Current() *Key {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// JWKSFetches counts GET /jwks.
func (s *Server) JWKSFetches() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jwksHits
}

// AddClient registers a client_credentials client whose tokens carry
// claims and at most scopes.
func (s *Server) AddClient(id, secret string, claims Claims, scopes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[id] = client{secret: secret, claims: claims, scopes: scopes}
}

// Mint signs claims with the current key (iss and a one-minute exp filled
// in when absent).
func (s *Server) Mint(t testing.TB, c Claims) string {
	t.Helper()
	return s.MintWith(t, s.Current(), c)
}

// MintWith signs claims with key k.
func (s *Server) MintWith(t testing.TB, k *Key, c Claims) string {
	t.Helper()
	b, err := s.sign(k, c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (s *Server) sign(k *Key, c Claims) (string, error) {
	tok := jwt.New()
	now := time.Now()
	base := Claims{"iss": s.URL, "iat": now.Unix(), "exp": now.Add(s.TTL).Unix()}
	maps.Copy(base, c)
	for name, v := range base {
		if v == nil {
			continue // a nil value drops the claim
		}
		if n, ok := v.(int64); ok && (name == "exp" || name == "iat" || name == "nbf") {
			v = time.Unix(n, 0)
		}
		if err := tok.Set(name, v); err != nil {
			return "", err
		}
	}
	hdr := jws.NewHeaders()
	_ = hdr.Set(jws.KeyIDKey, k.ID)
	_ = hdr.Set("typ", "at+jwt")
	b, err := jwt.Sign(tok, jwt.WithKey(k.Alg, k.Private, jws.WithProtectedHeaders(hdr)))
	return string(b), err
}

// MintOpaque issues an opaque token whose introspection answer is claims
// (with active: true).
func (s *Server) MintOpaque(c Claims) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	tok := "opaque-" + hex.EncodeToString(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	cc := Claims{"active": true, "iss": s.URL}
	maps.Copy(cc, c)
	s.opaque[tok] = cc
	return tok
}

// IntrospectionClient is the id and secret the introspection endpoint
// accepts.
const IntrospectionClient, IntrospectionSecret = "nl2sql-rs", "introspection-secret"

// TokenRequests returns the form bodies of the token requests received,
// client_secret elided.
func (s *Server) TokenRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tokenReqs)
}

func (s *Server) metadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":         s.URL,
		"token_endpoint": s.URL + "/token",
		// required by RFC 8414 clients even for client_credentials; this
		// server has no interactive login, so it refuses every request
		"authorization_endpoint":                s.URL + "/authorize",
		"jwks_uri":                              s.URL + "/jwks",
		"introspection_endpoint":                s.URL + "/introspect",
		"grant_types_supported":                 []string{"client_credentials"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{s.Current().Alg.String()},
	})
}

func (s *Server) jwks(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	s.jwksHits++
	set := jwk.NewSet()
	for _, k := range s.keys {
		_ = set.AddKey(k.Public)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, set)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	logged := maps.Clone(r.PostForm)
	if logged.Has("client_secret") {
		logged.Set("client_secret", "…")
	}
	s.mu.Lock()
	s.tokenReqs = append(s.tokenReqs, logged.Encode())
	c, known := s.clients[id]
	s.mu.Unlock()
	if !known || c.secret != secret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	if r.PostForm.Get("grant_type") != "client_credentials" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	granted := c.scopes
	if req := strings.Fields(r.PostForm.Get("scope")); len(req) > 0 {
		granted = nil
		for _, sc := range req {
			if slices.Contains(c.scopes, sc) {
				granted = append(granted, sc)
			}
		}
	}
	claims := maps.Clone(c.claims)
	claims["client_id"] = id
	claims["scope"] = strings.Join(granted, " ")
	if res := r.PostForm.Get("resource"); res != "" {
		claims["aud"] = res // RFC 8707: the token is bound to the resource asked for
	}
	claims["jti"] = fmt.Sprintf("%s-%d", id, time.Now().UnixNano())
	tok, err := s.sign(s.Current(), claims)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer",
		"expires_in": int(s.TTL / time.Second), "scope": strings.Join(granted, " ")})
}

func (s *Server) introspect(w http.ResponseWriter, r *http.Request) {
	if id, secret, ok := r.BasicAuth(); !ok || id != IntrospectionClient || secret != IntrospectionSecret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	_ = r.ParseForm()
	s.mu.Lock()
	c, ok := s.opaque[r.PostForm.Get("token")]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusOK, map[string]any{"active": false})
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
