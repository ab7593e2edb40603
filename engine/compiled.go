package engine

import (
	"context"
	"crypto/sha256"
	"sync"
	"weak"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// compiledCap bounds the memo of compiled plans: a host resends the
// plans it is working on (a retry, the next page, the same figure asked
// again), not thousands, and the bound keeps memory flat whatever it
// sends.
const compiledCap = 512

// compiledPlan is what a plan's bytes give before it runs, for a caller
// who may read everything: the decoded plan, its validation against one
// datasource value (snapshot, semantic layer, retrieval index: a new
// snapshot is a new value, so a schema change is a miss) and, once a run
// returned rows, the warnings the plan earns before it runs. A plan sent
// again is neither decoded nor validated again, and its warnings, which
// read the profile's values of every column it groups or filters by, are
// computed once.
//
// Only an unrestricted caller's plans are kept: a role's row filters and
// column grants change what validation makes of the same bytes, and the
// policy decides per call (scope), so those plans go the whole way each
// time.
//
// The datasource value and the snapshot an entry was made on are held
// weakly: an entry never keeps a replaced snapshot and its index alive
// (on a large catalog hundreds of megabytes), it only stops matching.
type compiledPlan struct {
	ds      weak.Pointer[datasource]
	planner *planast.Query // as sent, before expansion
	v       *validate.Result

	mu         sync.Mutex
	staticSnap weak.Pointer[schema.Snapshot] // the snapshot static was computed on (zero: not yet)
	static     []string
	sql        string // v.Plan rendered for ds (its dialect and row limit); "" until rendered
}

// compiledKey is the memo's key of a plan's bytes for a datasource.
func compiledKey(datasource string, doc []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(datasource))
	h.Write([]byte{0})
	h.Write(doc)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// newCompiled is the engine's empty memo.
func newCompiled() *lru.Cache[[32]byte, *compiledPlan] {
	c, _ := lru.New[[32]byte, *compiledPlan](compiledCap) // a positive size never fails
	return c
}

// memoable reports whether what validation makes of a plan for this
// call may be kept and reused: the caller reads everything and the plan
// is no sub-query of a combination (which must return the columns the
// combination expects).
func (e *Engine) memoable(ctx context.Context) bool {
	return e.compiled != nil && e.caller(ctx).Unrestricted() && multi.Expected(ctx) == nil
}

// validateDoc decodes doc and validates it for ds as the caller: v is
// the validation's result, plan the plan as sent and memo what is kept
// of them (nil when the caller's plans are not kept). Bytes this
// datasource value validated before for an unrestricted caller are
// neither decoded nor validated again; a plan that does not decode or
// validate is never kept, so its error is the same every time.
func (e *Engine) validateDoc(ctx context.Context, ds *datasource, doc []byte) (v *validate.Result, plan *planast.Query, memo *compiledPlan, err error) {
	keep := e.memoable(ctx)
	var key [32]byte
	if keep {
		key = compiledKey(ds.spec.ID, doc)
		if c, ok := e.compiled.Get(key); ok && c.ds.Value() == ds {
			return c.v, c.planner, c, nil
		}
	}
	if plan, err = planast.Decode(doc, planast.DefaultLimits); err != nil {
		return nil, nil, nil, err
	}
	if v, err = e.validateFor(ctx, ds, plan); err != nil {
		return nil, plan, nil, err
	}
	if keep {
		memo = &compiledPlan{ds: weak.Make(ds), planner: plan, v: v}
		e.compiled.Add(key, memo)
	}
	return v, plan, memo, nil
}

// staticWarnings is warnings.Run's Static for a run of p on snap: the
// memo's, computed on the first run that returned rows and again when the
// snapshot the warnings read is another (a table profiled empty has rows
// now), when p is the memo's plan unchanged (no hook replaced it); nil
// otherwise, and Of computes them.
func (p *planned) staticWarnings(ds *datasource, snap *schema.Snapshot, stored func(string, string, string) []string) func() []string {
	c := p.memo
	if c == nil || p.plan != c.v.Plan {
		return nil
	}
	return func() []string {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.staticSnap.Value() != snap {
			c.static, c.staticSnap = warnings.Static(snap, ds.src.Dialect(), p.plan, stored), weak.Make(snap)
		}
		return c.static
	}
}
