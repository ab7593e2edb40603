// Package extend is the engine's side of the extension points: it runs
// the operators' hooks (engine/hooks) for a run and publishes the
// catalogued events (engine/events) of the run and its steps.
//
// It owns the mapping of a hook's deny onto REFUSED_BY_RULE (the rule
// named, its reason kept for the log and the events), the check round
// after a rewrite (Unstable when hooks disagree), what a hook sees of a
// plan (PlanReads: the stored tables and columns it reads), the step
// events of a run (WithRun, Step), the caller's event sink
// (WithEventSink: MCP progress gets only caller-safe events), a run's
// last events (Finish: refused plans, cache hits, access denials and
// run.finished, the audit log's line), and the warning when a rule names
// what a datasource lacks. It never decides
// which point runs when, never changes or validates a plan, and never
// reads a datasource: the pipeline calls Hook at each fixed point with a
// hooks.<Point> constant (engine's TestHookCallSitesNamePoints), validates
// a plan a hook changed, and turns a require_approval into a held run.
//
// Worked example:
//
//	g := extend.Gate{Hooks: runner, Events: bus, Log: log}
//	run := extend.Run{ID: traceID, User: "ana", Roles: []string{"analyst"}, Started: t0}
//	q, err := g.BeforeRun(ctx, run, "Show me the salaries")
//	// a rule denying "salar" on before_run: err is REFUSED_BY_RULE naming
//	// the rule, and a hook.decision event carries its reason
//	tables, cols := extend.PlanReads("chinook", plan)
//	// tables = ["chinook.main.Artist"], cols = ["chinook.main.Artist.Name"]
package extend
