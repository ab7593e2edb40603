// Package multi answers questions across datasources, apart from the
// single-datasource steps each of its sub-queries takes.
//
// With several datasources configured and none named:
//
//  1. resolve: every datasource the caller reaches (the engine asks its
//     access policy before any model call) is ranked against the question
//     exactly (Shortlist: BM25F over its description and table names,
//     weighted 2 and 4, and its column names and the question's values it
//     stores, weighted 1; ties by id); one model call (Pick, step
//     "resolve") picks the datasources or answers NOT_ANSWERABLE with a
//     reason. Without a model, the top one is taken when it leads the
//     second 1.5 to 1 (hostplan.Leads), else the host is offered the
//     candidates. "nl2sql eval --measure routing" measures this choice
//     over a benchmark's databases, per split half.
//  2. decompose: one model call (Decomposer, step "decompose", datasource =
//     the picked ids joined by "+") splits the question into sub-queries,
//     each bound to one datasource with a semantic intent (never SQL) and
//     an expected output schema, combine groups (join, compare, union) and
//     a post plan over the results. Check refuses SQL in text fields,
//     unresolved references, cycles, uncoercible join keys and unused
//     results, and validates every group and the post plan with
//     duckcompute and planast before anything runs; a refused answer goes
//     back to the model ("decompose_repair") at most MaxRepairs times.
//     Sub-query ids are sha256 content hashes (sq_…; repeats get _2, _3),
//     group ids likewise (cg_…), and layers come from a topological sort
//     that sorts each ready set.
//  3. run: RunLayers calls the pipeline once per sub-query, the sub-queries
//     of one layer concurrently, at most MaxParallel at a time; the engine
//     plans each with its intent as the question and ExpectedSection after
//     the schema context.
//  4. combine: Combine loads each result into an in-memory DuckDB table
//     named by the sub-query id (join keys cast to one type; values that do
//     not convert are warnings) and runs the combination plan.
//
// Asker walks the whole question over a Host, the pipeline that asks it:
// Ask resolves, decomposes, runs and combines, Run does the last two for
// a decomposition already checked (a supplied one). The Host is the
// pipeline's own steps (ranking the reachable datasources, the
// after_resolution hooks, opening, retrieval, one sub-query's plan and
// run, the after_answer hooks, the trace), so a sub-query does nothing a
// question on one datasource could not; the combined result is an
// engine/result Result: the combined rows and columns at the top, Plan the
// validated combination plan over the sub-query tables, SQL the DuckDB SQL
// that combined them (each sub-query's own SQL is in its SubQuery), the
// sub-queries sorted by id, and warnings for truncated
// sub-queries, unconverted values and rows an inner join of two sub-queries
// dropped because their key matches no row of the other (unmatched.go:
// for a sub-query whose plan filters, only keys its table does not hold
// either, looked up through Host.Held; with a count of those that match
// once case and spaces, then separators too, are ignored, or once only
// their digits are compared where one key is a bare number; an outer join's
// keys are said of only when they match once so folded), and a join whose
// key repeats in one sub-query's rows while the combination aggregates the
// other's columns (fanout.go: no catalog links two databases, so the rows
// are asked; a join with a condition beside its keys, such as a period
// holding a date, is asked under the whole condition). It is byte-identical across runs
// apart from timings and trace_id. A sub-query that fails fails the run
// with its error, naming it (a table read as empty would change every
// figure of the combination); one cut at its row limit makes the answer
// start with "Partial answer". BeforeExecution refuses a sub-query a rule would
// hold for approval: an approval holds one query over one datasource.
//
// It owns the formats (Answer, SubQuerySpec, CombineSpec, InputSpec,
// ResolveAnswer, whose JSON is what recordings and supplied decompositions
// hold), their prompts and JSON Schemas, the ranking, the resolver and
// decomposer calls over the Model it is given, the layered run and the
// combination, and the codes CodeNotAnswerable and CodeDecompositionInvalid.
// It never opens a datasource, runs a datasource query, applies an access
// policy, runs a hook or writes a trace itself: the engine decides which
// datasources a caller reaches, runs each sub-query through its own steps
// (engine/subquery.go implements Host, passing its hook step to
// BeforeExecution) and records the model calls.
//
// Worked example, with two datasources offered:
//
//	ans, _ := multi.Decode([]byte(`{"reasoning": "…",
//	  "sub_queries": [
//	    {"ref": "sales", "datasource": "chinook", "intent": "Revenue per genre in 2024",
//	     "expected_schema": [{"name": "genre", "type": "text"}, {"name": "revenue", "type": "decimal"}]},
//	    {"ref": "targets", "datasource": "targets", "intent": "Revenue target per genre for 2024",
//	     "expected_schema": [{"name": "genre", "type": "text"}, {"name": "target", "type": "decimal"}]}],
//	  "combine": [{"name": "both", "op": "join", "join_type": "inner", "label_column": null,
//	    "inputs": [{"ref": "sales", "role": "left"}, {"ref": "targets", "role": "right"}],
//	    "keys": [{"left": "genre", "right": "genre"}]}],
//	  "post": null}`))
//	d, issues := multi.Check(ans, []string{"chinook", "targets"})
//	// issues = nil; d.Subs = two Subs with content-hash ids sq_…, sorted;
//	// d.Layers = [[sq_…, sq_…], [cg_…]]: both sub-queries first, then the join
//	// an intent of "SELECT genre FROM t" instead: issues[0].Code = IssueSQL,
//	// Path "sub_queries[0].intent"
//	multi.RunLayers(d, func(i int) { outs[i] = runSubQuery(d.Subs[i]) })
//	out, warnings, err := multi.Combine(ctx, d, outs, 1000, time.Minute)
//	// out.Rows: the joined rows; warnings name failed or truncated sub-queries
//
// A host that plans itself (run_combined_plan) sends a PlannedQuery
// instead of an Answer: one plan per source instead of an intent, and a
// combine plan instead of groups and a post plan. The engine validates
// each source's plan on its datasource for the caller, then CheckPlanned
// builds the Decomposition from the plans and their output columns (the
// sub-query ids hash datasource, plan and columns; Sub.Plan holds the
// plan, run as it is) and checks the combine plan as a post plan, its
// issues under sources[i] and combine. The run is Asker.Run's, with no
// model: Host.Run runs a Sub with a Plan without planning it, and its
// SubRun.Warnings (what run_plan would warn of its rows) reach the result
// named by the source:
//
//	pq, _ := multi.DecodePlanned([]byte(`{"sources": [
//	  {"name": "acc", "datasource": "ops", "plan": {…accounts…}},
//	  {"name": "tk", "datasource": "crm", "plan": {…tickets per account…}}],
//	  "combine": {"select": […], "from": [{"table": "acc", "alias": "a"}, {"table": "tk", "alias": "k"}], "joins": […]}}`))
//	d, issues := multi.CheckPlanned(pq, validatedPlans, outputColumns)
//	// issues = nil; d.Subs[i].Plan set, d.Layers = [[sq_…, sq_…]];
//	// a combine plan reading "tix" instead: issues[0].Path "combine",
//	// UNRESOLVED_REFERENCE "the table "tix" names no source name or CTE of the plan"
//
// The whole walk, as the engine runs it over its own steps:
//
//	a := multi.Asker{Host: host, Model: planner, MaxRepairs: 2, Timeout: time.Minute}
//	res, one, work, err := a.Ask(ctx, "Revenue against target per genre in 2024", "2026-12-01", traceID, sw, &tm)
//	// one = "" and res.SubQueries = the two sub-queries above, res.Rows the
//	// join; had the resolver picked one datasource, one = its id and res = nil
package multi
