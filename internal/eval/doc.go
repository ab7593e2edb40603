// Package eval runs text-to-SQL benchmarks (Spider dev, BIRD mini-dev)
// through the plan language and measures execution accuracy.
//
// The oracle planner takes each question's gold SQL,
// lifts it into a plan (planast/lift) against the catalog of the question's
// SQLite database (sqlite.OpenSQLite → Snapshot), validates it
// (validate.Plan), renders it for the engine under test (render.SQL) and
// runs it there — SQLite itself, or DuckDB or PostgreSQL on a copy of the
// SQLite database made with sqlitecopy.CopySQLiteToDuckDB / CopySQLiteToPostgres.
// The rows are compared with those of the gold SQL run on SQLite with
// SQLite's defaults (compareTables): rows as a multiset, in order only when
// the gold query has ORDER BY at its top level; columns in any order;
// numbers compared numerically (integers against floats) within 1e-6
// relative; NULL equal to NULL. Where the ORDER BY keys tie, the rows may
// come in any order, and a LIMIT cutting through a tie may keep any of the
// tied rows (tiesExplain at the top level, tiesInSubqueries for a subquery
// or CTE with ORDER BY and LIMIT): the gold result is then one valid answer
// among several, and the case passes with Match "tie". The report keeps
// these apart: Counts.Exact and Counts.TieAccepted, ExecutionAccuracy
// (exact passes only, as the official evaluators count) beside
// AccuracyWithTies. A question whose database has no rows (BIRD's
// schema-only files) gets StatusRuns and stays out of both accuracies.
//
// The measurement tells how much of a benchmark the plan language, the
// validator and the renderers reach, with no model involved: a refusal by
// the lifter (StatusUnsupported) names a construct the plan language lacks;
// a validation, rendering or execution failure (StatusError) names a gap in
// the validator or a renderer; a wrong result (StatusFail) a bug anywhere.
//
// Usage (the CLI `nl2sql eval` wires these):
//
//	r, err := eval.Run(ctx, eval.Options{Suite: eval.SuiteSpider,
//		File: "shared/eval/spider/dev.json", DBRoot: "shared/eval/spider/database",
//		Engine: eval.EngineSQLite, Planner: eval.PlannerOracle})
//	fmt.Print(r.Summary())        // figures and grouped reasons
//	json.NewEncoder(os.Stdout).Encode(r) // total, counts, execution_accuracy, accuracy_with_ties, timings, cases
//
// The replay and live planners (PlannerReplay, PlannerLive) measure the
// whole system instead: an Asker (internal/app.NewEvalAsker builds one from
// a config's model or a directory of recordings) answers each question
// through retrieval, the model's plan with bounded repair, validation,
// rendering and execution, and its rows are compared by the same rules;
// each Case then carries the model calls, tokens and latency it cost, and
// Report.Usage their totals and the latency's median and p95.
//
//	asker, _ := app.NewEvalAsker(app.EvalPlanner{Planner: eval.PlannerLive, Config: "nl2sql.yaml", Record: "rec/"}, nil)
//	r, _ := eval.Run(ctx, eval.Options{File: "dev.json", DBRoot: "database", Planner: eval.PlannerLive, Asker: asker})
//
// The full benchmarks run from a test gated by NL2SQL_EVAL_FULL=1 (see
// TestFullBenchmarks).
package eval
