package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/store"
	"github.com/nl2sql/nl2sql/planast"
)

// planKey is the plan cache key of a question on a datasource: the
// normalised intent, the datasource, its schema version (so any schema or
// profile change misses), the run date (relative dates resolve per day) and
// the planner's identity. Without a state store there is no key.
func (e *Engine) planKey(ds *datasource, question, today string) (store.PlanKey, bool) {
	if e.opts.Store == nil || ds.version == "" {
		return store.PlanKey{}, false
	}
	return store.PlanKey{Intent: llm.Normalize(question), Datasource: ds.spec.ID, SchemaVersion: ds.version,
		Today: today, Extra: e.opts.PlannerID}, true
}

// cachedPlan returns a cached plan for the question, validated again now
// (so a schema or access change applies at once), or nil.
func (e *Engine) cachedPlan(ctx context.Context, ds *datasource, question, today string) *planned {
	key, ok := e.planKey(ds, question, today)
	if !ok {
		return nil
	}
	b, hit, err := e.opts.Store.GetPlan(ctx, key)
	if err != nil {
		e.log.Warn("plan cache unreadable", "datasource", ds.spec.ID, "err", err)
		return nil
	}
	if !hit {
		return nil
	}
	plan, err := planast.Decode(b, planast.DefaultLimits)
	if err != nil {
		e.log.Warn("cached plan does not decode; asking the planner", "datasource", ds.spec.ID, "err", err)
		return nil
	}
	v, err := e.validateFor(ctx, ds, plan)
	if err != nil {
		e.log.Info("cached plan does not validate for this caller; asking the planner", "datasource", ds.spec.ID, "err", err)
		return nil
	}
	return &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "cache", attempts: 0, warnings: v.Warnings,
		usage: Usage{PlanCacheHits: 1}, planner: plan}
}

// storePlan caches a plan that validated and executed. Only planner plans
// are cached (never cache hits again, verified or supplied plans).
func (e *Engine) storePlan(ctx context.Context, ds *datasource, question, today string, p *planned) {
	if p.source != "llm" {
		return
	}
	key, ok := e.planKey(ds, question, today)
	if !ok {
		return
	}
	plan := p.planner
	if plan == nil {
		plan = p.plan
	}
	if err := e.opts.Store.PutPlan(ctx, key, plan.Canonical()); err != nil {
		e.log.Warn("cannot write the plan cache", "datasource", ds.spec.ID, "err", err)
	}
}

// ClearPlanCache empties the plan cache of one datasource ("" for all) and
// returns how many plans were removed.
func (e *Engine) ClearPlanCache(ctx context.Context, datasource string) (int, error) {
	if e.opts.Store == nil {
		return 0, Errorf(CodeInvalidRequest, "set storage.path in the config", "no state store is configured")
	}
	return e.opts.Store.ClearPlans(ctx, datasource)
}
