// Package plancache keeps the planner's plans, so that the same question on
// the same snapshot, date and planner needs no model call.
//
// It owns the key (the normalised question, the datasource, its snapshot
// version, the run date, the planner's identity), reading a cached plan's
// bytes and writing a plan in its canonical form; a store that fails is
// logged and the question planned as if nothing were cached. It never
// decodes, validates, filters or runs a plan and never decides what is
// cached: the engine decodes and validates every hit again for the caller and the current
// snapshot (so an access or schema change applies at once) and caches
// only the planner's own plans, before row filters.
//
// Worked example:
//
//	c := plancache.Cache{Store: st, Planner: "openai/gpt-4.1", Log: log}
//	q := plancache.Question{Datasource: "chinook", Version: "v3f…",
//		Text: "Which artist has released the most albums?", Today: "2026-01-15"}
//	c.Get(ctx, q)       // nil: a miss
//	c.Put(ctx, q, plan) // after the plan ran
//	c.Get(ctx, q)       // the plan's canonical JSON
//	q.Text = "which  artist has released the most albums"
//	c.Get(ctx, q)       // the same plan: the key is the normalised question
//	q.Today = "2026-01-16"
//	c.Get(ctx, q)       // nil: "last month" means another month tomorrow
package plancache
