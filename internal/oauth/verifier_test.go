package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/oauth"
	"github.com/nl2sql/nl2sql/internal/oauthtest"
	"github.com/nl2sql/nl2sql/scope"
)

const resource = "https://nl2sql.example.com/mcp"

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newVerifier(t *testing.T, iss string, c *clock) *oauth.Verifier {
	t.Helper()
	v, err := oauth.New(config.OAuth{Resource: resource, UserClaim: "sub",
		Issuers:        []config.Issuer{{Issuer: iss, Algorithms: []string{"RS256", "ES256"}}},
		Leeway:         30 * time.Second,
		JWKSMinRefresh: 30 * time.Second, JWKSMaxAge: 10 * time.Minute,
	}, nil, oauth.Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Threat: a stream of tokens with made-up key ids makes this server fetch
// the issuer's JWKS once per token (an amplifier against the identity
// provider, and latency for everyone); or, the other way, a key the
// issuer rotated in stays unknown. Unknown kids cause at most one fetch
// per jwks_min_refresh; a rotated-in key is picked up once that has
// passed, and keys older than jwks_max_age are fetched again.
func TestJWKSRefreshIsRateLimited(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.ES256)
	c := &clock{t: time.Now()}
	v := newVerifier(t, as.URL, c)
	ctx := context.Background()
	claims := oauthtest.Claims{"sub": "jane", "aud": resource, "exp": c.now().Add(time.Hour).Unix()}
	if _, err := v.Verify(ctx, as.Mint(t, claims)); err != nil {
		t.Fatalf("valid ES256 token: %v", err)
	}
	if n := as.JWKSFetches(); n != 1 {
		t.Fatalf("%d JWKS fetches for the first token, want 1", n)
	}
	for range 50 {
		if _, err := v.Verify(ctx, as.MintWith(t, as.NewKey(t), claims)); err == nil {
			t.Fatal("a token of an unknown key verified")
		}
	}
	if n := as.JWKSFetches(); n != 1 {
		t.Errorf("50 tokens with unknown kids right after a fetch caused %d JWKS fetches in all, want 1", n)
	}
	c.add(31 * time.Second)
	for range 50 {
		_, _ = v.Verify(ctx, as.MintWith(t, as.NewKey(t), claims))
	}
	if n := as.JWKSFetches(); n != 2 {
		t.Errorf("50 tokens with unknown kids after the interval caused %d JWKS fetches in all, want 2 (one refresh)", n)
	}
	as.Rotate(t, true)
	rotated := as.Mint(t, claims)
	if _, err := v.Verify(ctx, rotated); err == nil {
		t.Error("a new kid verified before the refresh interval passed (the test clock did not move)")
	}
	c.add(31 * time.Second)
	if _, err := v.Verify(ctx, rotated); err != nil {
		t.Errorf("the rotated-in key is not picked up after the interval: %v", err)
	}
	before := as.JWKSFetches()
	c.add(11 * time.Minute)
	if _, err := v.Verify(ctx, rotated); err != nil || as.JWKSFetches() != before+1 {
		t.Errorf("keys older than jwks_max_age were not fetched again: %v, %d fetches", err, as.JWKSFetches()-before)
	}
}

// Threat: a metadata document served at the issuer's well-known path
// names another issuer (a misrouted proxy, a hostile server), and its keys
// are trusted for ours. RFC 8414 section 3.3: the issuer must match.
func TestDiscoveryRequiresMatchingIssuer(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.RS256)
	liar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"issuer":"` + as.URL + `","jwks_uri":"` + as.URL + `/jwks"}`))
	}))
	defer liar.Close()
	c := &clock{t: time.Now()}
	v := newVerifier(t, liar.URL, c)
	tok := as.Mint(t, oauthtest.Claims{"iss": liar.URL, "sub": "jane", "aud": resource})
	_, err := v.Verify(context.Background(), tok)
	var oe *oauth.Error
	if !errors.As(err, &oe) || oe.Code != "invalid_token" {
		t.Fatalf("a token trusted through metadata naming another issuer: %v", err)
	}
}

// Claims map to a scope: the user from user_claim, roles only through the
// table, attributes with JSON numbers as integers (row filters compare
// them with integer columns).
func TestClaimsMapToScope(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.RS256)
	cfg := &config.Config{Roles: map[string]config.Role{"rep": {Allow: []string{"chinook"}}, "analyst": {Allow: []string{"chinook"}}}}
	p, err := scope.New(cfg.Access())
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Now()}
	v, err := oauth.New(config.OAuth{Resource: resource, UserClaim: "email", RolesClaim: "groups",
		Roles:      map[string][]string{"sales": {"rep"}},
		Attributes: map[string]string{"employee_id": "emp", "region": "region"},
		Issuers:    []config.Issuer{{Issuer: as.URL, Algorithms: []string{"RS256"}}}, Leeway: time.Second, JWKSMaxAge: time.Minute,
	}, p, oauth.Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := v.Verify(context.Background(), as.Mint(t, oauthtest.Claims{"sub": "u1", "email": "jane@corp", "aud": []string{"other", resource},
		"groups": []string{"sales", "analyst", "admin"}, "emp": 3, "region": "EMEA", "scope": "a b"}))
	if err != nil {
		t.Fatal(err)
	}
	id := pr.Scope.Identity()
	emp, _ := pr.Scope.Attribute("employee_id")
	region, _ := pr.Scope.Attribute("region")
	if id.User != "jane@corp" || len(id.Roles) != 1 || id.Roles[0] != "rep" || emp != 3 || region != "EMEA" ||
		pr.Subject != "u1" || len(pr.Scopes) != 2 {
		t.Errorf("identity %+v, employee_id %#v, region %#v, subject %q, scopes %v", id, emp, region, pr.Subject, pr.Scopes)
	}
	if _, err := v.Verify(context.Background(), as.Mint(t, oauthtest.Claims{"sub": "u1", "aud": resource})); err == nil {
		t.Error("a token without the user claim verified")
	}
}
