package tools

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
)

// memo keeps the results of recent page packings (the schema resource's
// pages, describe_schema's listings), keyed by the digest of what they
// were packed from: packing counts every table's tokens, which a walk
// over dozens of pages would otherwise repeat on each read. Past
// memoSize entries it forgets them all (a host reads one listing's pages
// in a row).
type memo[V any] struct {
	mu sync.Mutex
	m  map[[32]byte]V
}

const memoSize = 32

func (c *memo[V]) get(k [32]byte) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[V]) put(k [32]byte, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= memoSize {
		c.m = map[[32]byte]V{}
	}
	c.m[k] = v
}

// digest is the key of a packing of v (its JSON) under args.
func digest(v any, args ...any) [32]byte {
	b, _ := json.Marshal(v)
	return sha256.Sum256(fmt.Appendf(b, "\x00%q", args))
}
