package hooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// SignatureHeader carries "sha256=" + the hex HMAC-SHA256 of the request
// body under the hook's shared secret. A receiver recomputes it over the
// raw body and compares in constant time (see Sign).
const SignatureHeader = "X-NL2SQL-Signature"

// maxDecisionBytes bounds an external hook's answer.
const maxDecisionBytes = 1 << 20

// HTTP is an external hook: each call POSTs the Input as JSON to URL and
// reads a Decision as JSON ({"decision": "allow"} at least). A status other
// than 200, a body that is not exactly a Decision, or a timeout is an error
// (which denies unless the entry is on_error: open).
type HTTP struct {
	URL    string
	Secret []byte // shared secret for SignatureHeader; empty sends no signature
	Client *http.Client
}

// Sign returns the SignatureHeader value of body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is body's signature under secret.
func Verify(secret, body []byte, sig string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(sig))
}

// Decide calls the external hook.
func (h *HTTP) Decide(ctx context.Context, in Input) (Decision, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return Decision{}, fmt.Errorf("encode hook request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return Decision{}, fmt.Errorf("hook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if len(h.Secret) > 0 {
		req.Header.Set(SignatureHeader, Sign(h.Secret, body))
	}
	client := h.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return Decision{}, fmt.Errorf("hook call: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Decision{}, fmt.Errorf("hook answered HTTP %d", resp.StatusCode)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxDecisionBytes+1))
	if err != nil {
		return Decision{}, fmt.Errorf("read hook answer: %w", err)
	}
	if len(raw) > maxDecisionBytes {
		return Decision{}, fmt.Errorf("hook answer is over %d bytes", maxDecisionBytes)
	}
	var d Decision
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Decision{}, fmt.Errorf("hook answer is not a decision object: %w", err)
	}
	if d.Action == "" {
		return Decision{}, fmt.Errorf("hook answer has no \"decision\"")
	}
	return d, nil
}
