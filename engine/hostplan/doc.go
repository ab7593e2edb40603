// Package hostplan builds the plan-it-yourself result: what a host that
// plans its own questions needs from one round trip when the server has
// no planner (or replay has no recording for the question).
//
// It owns the result's shape (HostPlan, HostContext, the tool calls it
// names), how a schema context is cut so that the whole result fits the
// result budget (a first share, smaller while the result would not fit)
// and what was left out is named with the call that shows it, which
// matching verified queries are listed with their parameters filled from
// the question, the one-line Next, and the rule by which a ranking of
// datasources picks one without a resolver model (Leads, Resolve, over the
// Resolver the pipeline gives it), and when a planning error hands the
// question to the host (HandsOver). It never ranks, runs hooks,
// retrieves, screens access or runs anything itself: the pipeline
// gives each datasource as a Source whose methods are its own steps,
// already within the caller's scope, so the host sees exactly what the
// server's planner would have seen.
//
// Worked example: on Chinook without an llm section, "How many tracks
// does each album by AC/DC have?" reaches planning; the pipeline calls
//
//	hp := hostplan.Plan(ctx, src, nil, q, "2026-12-01", hostplan.HostReasonNoPlanner, traceID, 20000)
//
// and hp.SchemaContext holds the retrieved tables (Artist, Album, Track…)
// within 20000/4 tokens (less if the rest of the result needs the room),
// hp.RunPlan is {"tool": "run_plan", "arguments":
// {"datasource": "chinook"}, "missing": ["plan"]}, and hp.Next says to
// write a plan over schema_context and call run_plan with it. Asked
// "How many tracks does each album by AC/DC have, and why were they
// banned?", hp.Unmatched is ["banned"] (nothing Chinook holds says it,
// Source.Matches) and hp.Next names it first: the data may not answer
// what turns on it. Given the other datasources (others, opened only when
// a word is unmatched), a word one of them holds moves to
// hp.HeldElsewhere with its id ("town" asked of billing: [{town [ops]}]),
// hp.Related holds ops's own context for the question (premises, town),
// and hp.Next leads with them and the way to combine the two. The
// columns two of the datasources offered join on are hp.Links (links.go:
// a text key of one whose stored values a column of the other holds).
package hostplan
