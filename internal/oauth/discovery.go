package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/internal/config"
)

// serverMetadata is the part of an authorization server's metadata (RFC
// 8414, or OpenID Connect discovery) this server reads.
type serverMetadata struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
}

// issuer is one configured authorization server with its discovered
// metadata and keys.
type issuer struct {
	cfg    config.Issuer
	client *http.Client
	now    func() time.Time
	retry  time.Duration
	keys   *keySet

	mu      sync.Mutex
	md      *serverMetadata
	tried   time.Time
	lastErr error
}

// metadataURLs are where an issuer's metadata may be, in the order the MCP
// authorization specification has clients try them: RFC 8414 with the
// issuer's path appended after the well-known part, OpenID Connect
// discovery with the same insertion, then OpenID Connect appended to the
// issuer.
func metadataURLs(iss string) []string {
	u, err := url.Parse(iss)
	if err != nil {
		return nil
	}
	path := strings.TrimRight(u.Path, "/")
	base := u.Scheme + "://" + u.Host
	out := []string{base + "/.well-known/oauth-authorization-server" + path}
	out = append(out, base+"/.well-known/openid-configuration"+path)
	if path != "" {
		out = append(out, base+path+"/.well-known/openid-configuration")
	}
	return out
}

// metadata returns the issuer's metadata, discovering it on first use.
// A failed discovery is retried at most once per retry interval.
func (i *issuer) metadata(ctx context.Context) (*serverMetadata, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.md != nil {
		return i.md, nil
	}
	if now := i.now(); i.lastErr != nil && now.Sub(i.tried) < i.retry {
		return nil, i.lastErr
	}
	i.tried = i.now()
	var errs []string
	for _, u := range metadataURLs(i.cfg.Issuer) {
		md, err := fetchMetadata(ctx, i.client, u)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		// RFC 8414 section 3.3: the issuer in the document must be the one
		// asked about, or a server could speak for another.
		if md.Issuer != i.cfg.Issuer {
			errs = append(errs, fmt.Sprintf("%s names issuer %q", u, md.Issuer))
			continue
		}
		i.md, i.lastErr = md, nil
		return md, nil
	}
	i.lastErr = fmt.Errorf("discover issuer %s: %s", i.cfg.Issuer, strings.Join(errs, "; "))
	return nil, i.lastErr
}

func fetchMetadata(ctx context.Context, c *http.Client, u string) (*serverMetadata, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d", u, resp.StatusCode)
	}
	var md serverMetadata
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&md); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	return &md, nil
}
