// Package result is the shape of what a run returns: the Result with its
// JSON, the sub-queries behind it, the model work (Usage) and the
// wall-clock time per step (Timings, measured with a Stopwatch).
//
// It owns those types and their JSON (kind first; a plan-it-yourself
// result is its HostPlan's JSON), so that the pipeline and the step
// packages that build whole results (engine/multi, for a question across
// datasources) fill one type. It never plans, runs, answers or decides
// anything: it is data, and the engine re-exports it under its own names
// (engine.Result, engine.Usage, engine.SubQuery, engine.Timings). The one
// rule over data it holds is how a run's rows take their plan's column
// types (ApplyTypes: the validator's types over the driver's, SQLite's
// floating-point noise in decimals rounded away), so that every path that
// runs a plan returns the same rows.
//
// Worked example:
//
//	sw := result.NewStopwatch()
//	var tm result.Timings
//	// … resolve the datasource …
//	tm.Resolve = sw.Lap()
//	res := &result.Result{Question: "How many albums?", Columns: []string{"n"},
//		Rows: [][]any{{347}}, RowCount: 1, Warnings: []string{}}
//	res.Usage.Add(result.Usage{ModelCalls: 1})
//	tm.Total = sw.Total()
//	res.Timings = tm
//	b, _ := json.Marshal(res)
//	// b starts {"kind":"answer","question":"How many albums?","answer":"",…
package result
