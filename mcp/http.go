package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/scope"
)

// MaxRequestBytes bounds one HTTP request body (a tool call with a plan)
// unless HTTPOptions.MaxRequestBytes says otherwise.
const MaxRequestBytes = 1 << 20

// tooLong is the refusal of a message over limit bytes, on either
// transport: it names the limit and the flag that sets it, so the sender
// knows how much to cut or whom to ask.
func tooLong(limit int64) string {
	return fmt.Sprintf("the message is longer than the limit of %d bytes and was not read; send a smaller request (the limit is serve --max-line-bytes)", limit)
}

// Authenticator maps a bearer token to an identity (whatever the engine's
// access layer needs). It is implemented by scope.Policy.
type Authenticator interface {
	// Authenticate returns the identity for token and true, or false.
	Authenticate(token string) (identity any, ok bool)
}

type identityKey struct{}

// IdentityFrom returns the identity the HTTP layer authenticated for this
// request, or nil (stdio, or serving without authentication). Tools never
// read identity from their arguments.
func IdentityFrom(ctx context.Context) any { return ctx.Value(identityKey{}) }

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	Addr string
	// Listener, if set, is already bound to Addr (a caller that binds
	// before it opens anything reports a port in use first, alone); else
	// ServeHTTP listens on Addr.
	Listener net.Listener
	// Auth checks bearer tokens; nil requires NoAuth.
	Auth Authenticator
	// OAuth, if set, accepts access tokens of the configured identity
	// providers (oauth.go): a token that is not a static one is verified
	// there.
	OAuth OAuthVerifier
	// NoAuth serves without authentication; refused on non-loopback
	// addresses.
	NoAuth bool
	// AllowedOrigins lists browser origins allowed to call (scheme://host:port);
	// requests with another Origin header get 403. Loopback origins are
	// always allowed when the server listens on loopback.
	AllowedOrigins []string
	Logger         *slog.Logger
	// Ready, if set, receives the bound address once the listener is up.
	Ready chan<- string
	// Readiness, if set, is /readyz's check (see addOps): an error is not
	// ready, a note is said beside "ready"; nil is always ready.
	Readiness func(context.Context) (note string, err error)
	// Metrics, if set, are served at /metrics and count /mcp's requests.
	Metrics *Metrics
	// MaxRequestBytes bounds one request body (serve --max-line-bytes, the
	// stdio line's bound); <= 0 is MaxRequestBytes.
	MaxRequestBytes int
}

// Check refuses options ServeHTTP would not serve with: an address that
// is not HOST:PORT, --insecure-no-auth off loopback, and no
// authentication at all. The CLI calls it before saying it serves.
func (o HTTPOptions) Check() error {
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return fmt.Errorf("--http %q: want HOST:PORT: %w", o.Addr, err)
	}
	if o.NoAuth && !isLoopbackHost(host) {
		return fmt.Errorf("--insecure-no-auth serves only on a loopback address (127.0.0.1, ::1, localhost), not %q", host)
	}
	if o.Auth == nil && o.OAuth == nil && !o.NoAuth {
		return errors.New("HTTP needs authentication: configure users with tokens_sha256 or an oauth section in a config file (--config), or pass --insecure-no-auth on a loopback address")
	}
	return nil
}

// ServeHTTP serves s as streamable HTTP at /mcp (both the stateless
// 2026-07-28 revision and the session-based 2025 revisions, which mcp-go
// v1.2 negotiates per request; session ids are validated by format only, so
// they survive a restart and work on any replica, and DELETE answers 405: see
// lifecycle.go), and /healthz, /readyz
// and /metrics without authentication (see addOps), until ctx ends; then it
// shuts down gracefully.
func ServeHTTP(ctx context.Context, s *server.MCPServer, o HTTPOptions) error {
	if err := o.Check(); err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(o.Addr)
	loopback := isLoopbackHost(host)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	// a tool call runs under calls too (shutdownAnswer), which a shutdown
	// cancels first (with ErrShuttingDown): each call still running is
	// answered at once, and the shutdown then waits only for the answers to
	// be written (the request's own context stays, or mcp-go would not
	// write the answer)
	calls, stopCalls := context.WithCancelCause(context.WithoutCancel(ctx))
	defer stopCalls(nil)
	hs := server.NewStreamableHTTPServer(s,
		server.WithEndpointPath("/mcp"),
		// No standalone GET stream (GET /mcp answers 405, which the spec
		// allows). With one open, mcp-go v1.2.1 lets the GET stream and the
		// POST's SSE response drain the same notification channel, so a
		// call's progress notifications were split between them and arrived
		// out of order or after the result (mcp/e2e/http.test.mjs, progress).
		// The server sends nothing outside a request, so nothing is lost;
		// an open GET stream also held up shutdown for the full 10 s.
		server.WithDisableStreaming(true),
		// Ids by format, termination refused with 405 (lifecycle.go).
		server.WithSessionIdManager(&sessionIDs{}),
		server.WithStreamableHTTPLogger(o.Logger),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			ctx = context.WithValue(ctx, shutdownKey{}, calls)
			if id := r.Context().Value(identityKey{}); id != nil {
				ctx = context.WithValue(ctx, identityKey{}, id)
				if sc, ok := id.(*scope.Scope); ok {
					ctx = engine.WithCaller(ctx, sc) // every access decision of the call uses it
				}
			}
			return ctx
		}),
	)
	mux := http.NewServeMux()
	if o.OAuth != nil && !o.NoAuth {
		addProtectedResource(mux, o.OAuth)
	}
	mux.Handle("/mcp", addOps(mux, o, guard(withTextCheck(lifecycle(withInvalidParams(hs))), o, loopback)))
	ln := o.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", o.Addr); err != nil {
			return fmt.Errorf("listen on %s: %w", o.Addr, err)
		}
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	if o.Ready != nil {
		o.Ready <- ln.Addr().String()
	}
	o.Logger.Info("serving MCP over streamable HTTP", "addr", ln.Addr().String(), "endpoint", "/mcp", "auth", !o.NoAuth)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		stopCalls(ErrShuttingDown)
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	}
}

// guard applies, in order: the Origin check (DNS rebinding), the body size
// limit, and bearer authentication; it puts the identity in the request's
// context.
func guard(next http.Handler, o HTTPOptions, loopback bool) http.Handler {
	allowed := map[string]bool{}
	for _, a := range o.AllowedOrigins {
		allowed[strings.ToLower(strings.TrimRight(a, "/"))] = true
	}
	maxBody := int64(MaxRequestBytes)
	if o.MaxRequestBytes > 0 {
		maxBody = int64(o.MaxRequestBytes)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, allowed, loopback) {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		if !o.NoAuth {
			token, ok := bearer(r)
			if !ok {
				challenge(w, o.OAuth, http.StatusUnauthorized, "", "a bearer token is required", requiredScopes(o.OAuth))
				return
			}
			var id any
			ok = false // a token is only as good as the check that accepts it
			if o.Auth != nil {
				id, ok = o.Auth.Authenticate(token)
			}
			if !ok && o.OAuth != nil {
				if r, id, ok = authenticateOAuth(w, r, o.OAuth, token, o.Logger); !ok {
					return
				}
			}
			if !ok {
				challenge(w, o.OAuth, http.StatusUnauthorized, "invalid_token", "the bearer token is not valid", nil)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), identityKey{}, id))
		}
		next.ServeHTTP(w, r)
	})
}

func requiredScopes(v OAuthVerifier) []string {
	if v == nil {
		return nil
	}
	return v.RequiredScopes("")
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	const p = "bearer "
	if len(h) <= len(p) || !strings.EqualFold(h[:len(p)], p) {
		return "", false
	}
	t := strings.TrimSpace(h[len(p):])
	return t, t != ""
}

func originAllowed(origin string, allowed map[string]bool, loopback bool) bool {
	o := strings.ToLower(strings.TrimRight(origin, "/"))
	if allowed[o] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	return loopback && isLoopbackHost(u.Hostname())
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
