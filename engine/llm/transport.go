package llm

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// maxCapture bounds the response bytes kept for error messages and
// InvalidOutputError.Content.
const maxCapture = 1 << 20

// exchange is what one HTTP call brought back: status, headers and the
// first maxCapture bytes of the body as the client read it. The SDKs hide
// some of this (Ollama's client drops the headers; OpenAI's turns a non-JSON
// error body into a parse error), so the providers classify failures from
// the exchange, not from the SDK's error types.
type exchange struct {
	mu     sync.Mutex
	code   int
	header http.Header
	body   bytes.Buffer
}

func (x *exchange) status() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.code
}

func (x *exchange) bodyBytes() []byte {
	x.mu.Lock()
	defer x.mu.Unlock()
	return bytes.Clone(x.body.Bytes())
}

func (x *exchange) bodyText() string { return string(x.bodyBytes()) }

func (x *exchange) retryAfter(now time.Time) time.Duration {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.header == nil {
		return 0
	}
	return ParseRetryAfter(x.header.Get("Retry-After"), now)
}

type exchangeKey struct{}

// withExchange attaches x to ctx; the capturing transport fills it.
func withExchange(ctx context.Context, x *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

// captureTransport records each response into the exchange found in the
// request's context, and sets the Authorization header when a key is given
// and the SDK does not set one itself (Ollama behind an authenticating proxy).
type captureTransport struct {
	next   http.RoundTripper
	bearer string
}

func (t *captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.bearer != "" && req.Header.Get("Authorization") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.bearer)
	}
	res, err := t.next.RoundTrip(req)
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x == nil || res == nil {
		return res, err
	}
	x.mu.Lock()
	x.code, x.header = res.StatusCode, res.Header.Clone()
	x.body.Reset()
	x.mu.Unlock()
	res.Body = &teeBody{rc: res.Body, x: x}
	return res, err
}

// teeBody copies what is read from a response body into the exchange.
type teeBody struct {
	rc io.ReadCloser
	x  *exchange
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.x.mu.Lock()
		if room := maxCapture - b.x.body.Len(); room > 0 {
			b.x.body.Write(p[:min(n, room)])
		}
		b.x.mu.Unlock()
	}
	return n, err
}

func (b *teeBody) Close() error { return b.rc.Close() }

// httpClient wraps base's transport (http.DefaultTransport when nil) with
// the capturing transport. It sets no client timeout: each call has its own
// context deadline.
func httpClient(base *http.Client, bearer string) *http.Client {
	c := &http.Client{}
	if base != nil {
		*c = *base
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &captureTransport{next: next, bearer: bearer}
	return c
}

// callSite is what error messages need to know about a provider: its name,
// where it is (scheme://host, no user info or path), the config key of the
// entry for hints, the key to redact, and the per-call timeout.
type callSite struct {
	name, host, label, key string
	timeout                time.Duration
	downHint, notFoundHint string
}

// hostOf returns scheme://host[:port] of a base URL, without user info.
func hostOf(u *url.URL) string {
	return u.Scheme + "://" + u.Host
}
