// Package planning is the plan step's conversation with the planner: the
// request for one attempt (the stable system prompt, the varying user
// message, the answer's JSON Schema, the replay keys), the strict decoding
// of the answer, the verdict on one answer (a plan that validated, issues
// to send back, or the error that ends the planning) and the single call's
// loop of at most MaxRepairs repairs with the validator's typed issues.
//
// The single call (Loop) and every scaling candidate (engine/scale) judge
// their answers with the same Accept, so both repair, give up and report a
// missing recorded repair alike. It also says what to do about a refused
// supplied plan (SuppliedHint).
//
// It never validates a plan itself, reads a datasource, applies access
// rules, caches a plan or writes a trace: the caller passes the validator
// (decode with Decode, then validate for the caller) and the trace
// recorder, and reads the Outcome. P is the caller's validated plan,
// opaque here.
//
// Worked example, the engine's side (engine/plan.go):
//
//	loop := planning.Loop[*planned]{Model: planner, MaxRepairs: 2, Log: log,
//		Validate: func(ctx context.Context, answer json.RawMessage) (*planned, error) {
//			_, plan, err := planning.Decode(answer) // {"reasoning", "plan"}, strictly
//			… validate plan for the caller …
//		},
//		Trace: traceCall}
//	o, err := loop.Run(ctx, planning.Question{Datasource: "chinook", Dialect: "sqlite",
//		Text: "Which artist has released the most albums?", SchemaContext: sctx, Today: "2026-01-15"})
//
// A first answer whose plan names a column Album lacks is refused: the
// second request is step "plan_repair", sample 1, its user message ending
// with [ERRORS IN YOUR LAST PLAN] and the issue as one JSON line; if that
// plan validates, o.Plan holds it, o.Attempts is 2, o.Calls 2 and
// o.Refused the first attempt's issues. Replay without a recorded repair
// ends with PLAN_INVALID naming the issues and the outcome so far; a
// request whose time ran out before the first call ends with TIMEOUT
// blaming the steps before the model (SpentBeforeModel), never the model.
package planning
