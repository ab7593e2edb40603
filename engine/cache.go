package engine

import (
	"context"

	"github.com/nl2sql/nl2sql/engine/plancache"
)

// planCache is the engine's plan cache (engine/plancache): none without a
// state store.
func (e *Engine) planCache() plancache.Cache {
	c := plancache.Cache{Planner: e.opts.PlannerID, Log: e.log}
	if e.opts.Store != nil {
		c.Store = e.opts.Store
	}
	return c
}

// cacheQuestion is the plan cache's key of a question on a datasource.
func cacheQuestion(ds *datasource, question, today string) plancache.Question {
	return plancache.Question{Datasource: ds.spec.ID, Version: ds.version, Text: question, Today: today}
}

// cachedPlan returns a cached plan for the question, validated again now
// (so a schema or access change applies at once), or nil.
func (e *Engine) cachedPlan(ctx context.Context, ds *datasource, question, today string) *planned {
	raw := e.planCache().Get(ctx, cacheQuestion(ds, question, today))
	if raw == nil {
		return nil
	}
	v, plan, memo, err := e.validateDoc(ctx, ds, raw)
	if err != nil {
		e.log.Info("cached plan does not decode or validate for this caller; asking the planner", "datasource", ds.spec.ID, "err", err)
		return nil
	}
	return &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "cache", attempts: 0, warnings: v.Warnings,
		usage: Usage{PlanCacheHits: 1}, planner: plan, memo: memo}
}

// storePlan caches a plan that validated and executed. Only planner plans
// are cached (never cache hits again, verified or supplied plans), as the
// planner wrote them, before row filters, so a hit is filtered for each
// caller.
func (e *Engine) storePlan(ctx context.Context, ds *datasource, question, today string, p *planned) {
	if p.source != "llm" {
		return
	}
	plan := p.planner
	if plan == nil {
		plan = p.plan
	}
	e.planCache().Put(ctx, cacheQuestion(ds, question, today), plan)
}

// ClearPlanCache empties the plan cache of one datasource ("" for all) and
// returns how many plans were removed.
func (e *Engine) ClearPlanCache(ctx context.Context, datasource string) (int, error) {
	if e.opts.Store == nil {
		return 0, Errorf(CodeInvalidRequest, "set storage.path in the config", "no state store is configured")
	}
	return e.opts.Store.ClearPlans(ctx, datasource)
}
