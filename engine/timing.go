package engine

import (
	"crypto/rand"
	"encoding/hex"
)

// newTraceID returns a random 16-byte hex id: unique per run, never derived
// from the question (two runs of one question have two traces).
func newTraceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
