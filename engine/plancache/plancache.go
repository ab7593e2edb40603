package plancache

import (
	"context"
	"log/slog"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/planast"
)

// Store is where the plans are kept (internal/store's plan table).
type Store interface {
	GetPlan(ctx context.Context, key store.PlanKey) ([]byte, bool, error)
	PutPlan(ctx context.Context, key store.PlanKey, plan []byte) error
}

// Cache is the plan cache of one planner.
type Cache struct {
	// Store keeps the plans; nil means no cache (every Get misses, every
	// Put is dropped).
	Store Store
	// Planner names the planner's provider and model; it is part of every
	// key, so another model never answers from this one's plans.
	Planner string
	Log     *slog.Logger
}

// Question is what a cached plan answers: a question on one version of a
// datasource's snapshot, on one run date.
type Question struct {
	Datasource, Version string
	Text                string
	Today               string
}

// key is the store key of q: the normalised question, the datasource, its
// snapshot version (so any schema or profile change misses), the run date
// (relative dates resolve per day) and the planner. Without a store or a
// version there is no key.
func (c Cache) key(q Question) (store.PlanKey, bool) {
	if c.Store == nil || q.Version == "" {
		return store.PlanKey{}, false
	}
	return store.PlanKey{Intent: llm.Normalize(q.Text), Datasource: q.Datasource, SchemaVersion: q.Version,
		Today: q.Today, Extra: c.Planner}, true
}

// Get returns the bytes cached for q (the plan's canonical JSON), or nil:
// a miss, or a store that cannot be read (logged). The caller decodes and
// validates them again before use, and may keep what it made of the same
// bytes before.
func (c Cache) Get(ctx context.Context, q Question) []byte {
	key, ok := c.key(q)
	if !ok {
		return nil
	}
	b, hit, err := c.Store.GetPlan(ctx, key)
	if err != nil {
		c.Log.Warn("plan cache unreadable", "datasource", q.Datasource, "err", err)
		return nil
	}
	if !hit {
		return nil
	}
	return b
}

// Put caches plan for q in its canonical form; a failure is logged, never
// returned (the answer stands without the cache).
func (c Cache) Put(ctx context.Context, q Question, plan *planast.Query) {
	key, ok := c.key(q)
	if !ok {
		return
	}
	if err := c.Store.PutPlan(ctx, key, plan.Canonical()); err != nil {
		c.Log.Warn("cannot write the plan cache", "datasource", q.Datasource, "err", err)
	}
}
