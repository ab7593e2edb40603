package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// keySet is one issuer's JWKS, cached. jwx fetches, parses and verifies;
// this type only decides when to fetch: when the keys are older than
// maxAge (a withdrawn key stops verifying), and when a token names a key
// id the cache does not hold (the issuer rotated) — but then at most once
// per minRefresh, so tokens with made-up key ids cannot turn into a flood
// of requests to the issuer. jwk.Cache refreshes on a timer only, which
// would leave a freshly rotated key unknown until its next tick.
type keySet struct {
	issuer     *issuer
	client     *http.Client
	now        func() time.Time
	minRefresh time.Duration
	maxAge     time.Duration

	mu        sync.Mutex
	set       jwk.Set
	fetchedAt time.Time
	triedAt   time.Time
}

// errUnknownKey: the token's kid is not among the issuer's keys, even after
// a refresh (or a refresh was not due).
var errUnknownKey = errors.New("the token's key id is not among the issuer's keys")

// lookup returns the key with kid, fetching the set when it is stale or
// (rate-limited) when kid is unknown.
func (k *keySet) lookup(ctx context.Context, kid string) (jwk.Key, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.now()
	if k.set == nil || now.Sub(k.fetchedAt) > k.maxAge {
		if err := k.fetchLocked(ctx, now); err != nil && k.set == nil {
			return nil, err
		}
	}
	if key, ok := k.set.LookupKeyID(kid); ok {
		return key, nil
	}
	if now.Sub(k.triedAt) < k.minRefresh {
		return nil, errUnknownKey
	}
	if err := k.fetchLocked(ctx, now); err != nil {
		return nil, err
	}
	if key, ok := k.set.LookupKeyID(kid); ok {
		return key, nil
	}
	return nil, errUnknownKey
}

// fetchLocked fetches the JWKS (discovering its URL first if need be).
func (k *keySet) fetchLocked(ctx context.Context, now time.Time) error {
	k.triedAt = now
	md, err := k.issuer.metadata(ctx)
	if err != nil {
		return err
	}
	if md.JWKSURI == "" {
		return fmt.Errorf("issuer %s publishes no jwks_uri", k.issuer.cfg.Issuer)
	}
	set, err := jwk.Fetch(ctx, md.JWKSURI, jwk.WithHTTPClient(k.client))
	if err != nil {
		return fmt.Errorf("fetch the keys of issuer %s: %w", k.issuer.cfg.Issuer, err)
	}
	k.set, k.fetchedAt = set, now
	return nil
}

// FetchKeys implements jws.KeyProvider: the one key the token's kid names,
// for the token's algorithm, provided the algorithm is accepted for the
// issuer and fits the key's type (an RSA or EC public key is never used
// as an HMAC secret).
func (k *keySet) FetchKeys(ctx context.Context, sink jws.KeySink, sig *jws.Signature, _ *jws.Message) error {
	h := sig.ProtectedHeaders()
	alg, ok := h.Algorithm()
	if !ok || !slices.Contains(k.issuer.cfg.Algorithms, alg.String()) {
		return errAlgorithm
	}
	kid, ok := h.KeyID()
	if !ok || kid == "" {
		return errors.New("the token names no key id (kid)")
	}
	key, err := k.lookup(ctx, kid)
	if err != nil {
		return err
	}
	if !fits(key.KeyType(), alg) {
		return errAlgorithm
	}
	if ka, ok := key.Algorithm(); ok && ka.String() != alg.String() {
		return errAlgorithm
	}
	sink.Key(alg, key)
	return nil
}

var errAlgorithm = errors.New("the token's signing algorithm is not accepted for this key")

// fits reports whether a key of type kty can verify alg.
func fits(kty jwa.KeyType, alg jwa.SignatureAlgorithm) bool {
	a := alg.String()
	switch kty {
	case jwa.RSA():
		return a[:2] == "RS" || a[:2] == "PS"
	case jwa.EC():
		return a[:2] == "ES"
	case jwa.OKP():
		return a == "EdDSA"
	}
	return false
}
