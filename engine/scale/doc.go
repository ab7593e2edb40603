// Package scale is test-time scaling: instead of the planner's single call,
// several candidate plans per question, each run, grouped by what they
// return, and one selected.
//
// It owns the candidate strategies and their prompts, the router that lets
// easy questions take the single call, the token and time budgets, the
// canonical result hash and its buckets, the critique and revision passes,
// the selector's tournament, and the Report that says what happened. It
// never touches a datasource, a hook, an access policy, a cache or a trace:
// it declares what it needs of the pipeline as Host, and every candidate
// goes through those calls, which are the steps a single plan takes
// (validated for the caller, the hooks before and after its run, rendered,
// run read-only). So a candidate can do nothing the single call could not,
// and the engine's scaling tests (engine/scale*_test.go) check exactly that
// with the real steps.
//
// Worked example: the engine's side (engine/scale.go) implements Host over
// one question and runs
//
//	run := scale.New[*planned](host, scale.Question{Datasource: "chinook",
//		Text: "Which artist has released the most albums?", SchemaContext: sctx, Today: today, Tables: 11},
//		scale.Deps{Planner: planner, Selector: selector, MaxRepairs: 2}, cfg)
//	if !run.Route(ctx) { /* the single call; run.Usage() counts the router's call */ }
//	w, err := run.Plan(ctx)
//	// w.Plan, w.SQL, w.Rows: the winner, already run once as a candidate
//	// run.Report(): the candidates, buckets, selection and budget
//
// With cfg = Config{Strategies: plain×2, reasoning×2, decompose×3,
// Tournament: true} and the recordings in engine/testdata/scale, seven
// candidates disagree: two count albums, three count tracks, one returns
// nothing, one names a missing column (no recorded repair). The report's
// buckets are
//
//	0: 2 candidates (plain, reasoning)            → Iron Maiden, 21
//	1: 3 candidates (plain, reasoning, decompose) → Iron Maiden, 213
//	2: 1 candidate  (decompose), empty
//	3: 1 candidate  (decompose), the error bucket
//
// and three selector calls (one per pair of the live buckets) make bucket 0
// the winner: Selection "tournament", 11 model calls in all. With
// Tournament off the largest bucket wins ("majority", 213). The same
// inputs and recordings give a byte-identical Report, and
// Report.Warnings says what the result must warn of (a budget that cut
// the process short, a selector that failed).
package scale
