// Package engine answers natural-language questions over SQL datasources.
//
// One question walks an ordered list of steps, each in its own file and
// each reading the previous step's output value:
//
//	resolve   (resolve.go)   which datasource: the one named, or the only one; no model call
//	          (multi.go)     several configured and none named: engine/multi shortlists,
//	                         picks, decomposes and combines, over multi.Host (subquery.go)
//	open      (engine.go)    on first use, in the background (engine/opening): the adapter
//	                         (Options.Open, chosen by the composition root),
//	                         the profiled snapshot (engine/snapshots), the retrieval index
//	                         (engine/indexing: stored, read ahead, or built)
//	          (filewatch.go) on every call, one stat: a file put in a file
//	                         datasource's place is opened before anything answers
//	          (schemawatch.go) at most every 2 s, or at once for a plan naming
//	                         what the snapshot lacks or a statement failing on
//	                         what it holds: a changed schema is read again
//	verified  (verified.go)  a verified query the caller may run answers instead (engine/verified)
//	retrieve  (retrieve.go)  the schema context the planner sees, within the caller's
//	                         scope (engine/retrieval)
//	plan      (plan.go)      the planner's typed plan (planast), never SQL: a cached one
//	                         (engine/plancache), else the planner's (engine/planning:
//	                         the request, the strict decoding, the repair loop)
//	          (scale.go)     with Options.Scaling: several candidate plans, each run,
//	                         grouped by result hash and selected (test-time scaling,
//	                         package engine/scale behind its Host interface)
//	validate  (access.go)    validate.Plan against the snapshot for the caller; typed
//	                         issues go back to the planner at most Options.MaxRepairs
//	                         times (engine/planning's loop)
//	          (compiled.go)  plan bytes sent again (a client's plan, a cached one) by a
//	                         caller who reads everything, on the same snapshot: the
//	                         validation and the profile's warnings are kept, not redone
//	render    (render.go)    render.SQL for the datasource's dialect, LIMIT = row limit + 1
//	execute   (execute.go)   read-only, streamed, stopped at the row limit (truncated)
//	answer    (engine/answer) a short summary drawn from the first rows only, with the
//	                         warnings the plan earns (engine/warnings)
//
// Around the steps, the operators' hooks run at fixed points and the run's
// events are published through engine/extend (extend.go calls it), and each
// request leaves a trace (the steps fill it into an engine/traces
// Recorder, trace.go queues it; engine/traces writes and finds it).
//
// Capabilities beyond one question's walk are packages of their own, each
// declaring what it needs: engine/scale (test-time scaling, behind
// scale.Host, which scale.go implements with the steps above),
// engine/multi (questions across datasources, walked by multi.Asker:
// ranking, the resolver and decomposer calls, layers, the combination,
// the combined result; subquery.go implements its multi.Host, running
// each sub-query through the steps above) and engine/approval (the
// four-eyes process; approvals.go holds and re-runs plans),
// engine/verified (verified-query matching, parameter filling and the hook
// gate; verified.go takes the step), engine/planning (the planner's request,
// answer and repair loop; plan.go), engine/plancache (cache.go),
// engine/retrieval (retrieve.go), engine/indexing (the retrieval index), engine/hostplan (the plan-it-yourself
// result over hostplan.Source, host.go), engine/answer (the summary and the
// answer model's checks), engine/warnings and engine/emptyrange (what a
// correct result must say so that it is not misread), engine/extend (the
// hook gate and the run's events), engine/snapshots (loading a profiled
// snapshot with the freshness rules), engine/opening (background opens and
// waiting for them), engine/traces (the trace's shape and files),
// engine/spans (the run's OpenTelemetry spans, observe.go) and
// engine/result (the shape of what a run returns, re-exported as Result,
// Usage, SubQuery and Timings).
// engine/internal/fault is the boundary error type this package re-exports
// as Error, engine/internal/modeltext how rows and prompts reach a model.
//
// Worked example, with the bundled Chinook recordings:
//
//	rp, _ := llm.OpenReplay("examples/chinook/recordings")
//	e, _ := engine.New(engine.Options{
//		Datasources: []engine.DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: "/abs/chinook.sqlite"}},
//		Open:        app.OpenSource, // the composition root chooses the adapters
//		Planner:     rp,
//	})
//	res, err := e.Ask(ctx, engine.AskRequest{Question: "Which artist has released the most albums?"})
//	// res.Columns = ["Artist", "AlbumCount"], res.Rows = [["Iron Maiden", 21]]
//	// res.SQL =
//	//   SELECT "ar"."Name" AS "Artist", COUNT(*) AS "AlbumCount"
//	//   FROM "main"."Artist" AS "ar"
//	//   INNER JOIN "main"."Album" AS "al" ON "ar"."ArtistId" = "al"."ArtistId"
//	//   GROUP BY "ar"."ArtistId", "ar"."Name"
//	//   ORDER BY "AlbumCount" DESC NULLS LAST, 1 ASC NULLS LAST
//	//   LIMIT 1
//	// res.Answer = `Artist "Iron Maiden", AlbumCount 21.` (stored text quoted as data)
//
// Without a planner (Options.Planner nil: host planning, engine/hostplan) the
// same Ask returns the plan-it-yourself result instead, for the client
// that plans itself:
//
//	e, _ := engine.New(engine.Options{Datasources: …})
//	res, _ := e.Ask(ctx, engine.AskRequest{Question: "Which artist has released the most albums?"})
//	// res.HostPlan.Kind = "plan_it_yourself", .Datasource = "chinook", .Dialect = "sqlite",
//	// .SchemaContext = "Album (347 rows): AlbumId integer pk; …\nArtist (275 rows): …",
//	// .RunPlan = {Tool: "run_plan", Arguments: {"datasource": "chinook"}, Missing: ["plan"]}
//	// json.Marshal(res) is the HostPlan's JSON; an answer's starts {"kind":"answer", …}
//
// Each request is one OpenTelemetry trace (engine/spans; Options.TracerProvider):
// the steps above are spans under the request's root (the MCP tool call's
// span when the context carries one, else the run's own), with validate,
// "chat <model>" and "SELECT <datasource>" spans inside them. For the
// question above, with an SDK provider installed:
//
//	ask
//	  resolve
//	  retrieve
//	  plan
//	    chat recording
//	    validate
//	  render
//	  execute
//	    SELECT chinook
//	  answer
//
// docs/architecture.md walks the same question through every package, with
// the layers and the one place each invariant is enforced.
//
// Every error that leaves the package is an *Error with a Code, a message
// safe to show, a hint and, for refused plans, the typed issues.
package engine
