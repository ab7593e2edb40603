package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"testing"

	"github.com/lestrrat-go/jwx/v3/jwk"

	"github.com/nl2sql/nl2sql/internal/oauthtest"
)

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func hmacSHA256(key, in []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(in)
	return m.Sum(nil)
}

// publicDER is the PEM of k's public key: what an attacker who downloaded
// the JWKS would use as the HMAC secret.
func publicDER(t *testing.T, k *oauthtest.Key) []byte {
	t.Helper()
	var raw any
	if err := jwk.Export(k.Public, &raw); err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}
