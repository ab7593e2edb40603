// Package multi is the document side of questions across datasources: the
// resolver's ranking and answer, and the decomposer's answer, checked into
// a Decomposition whose sub-queries and combine groups form a DAG in
// deterministic layers.
//
// It owns the formats (Answer, SubQuerySpec, CombineSpec, InputSpec,
// ResolveAnswer, whose JSON is what recordings and supplied decompositions
// hold), their prompts and JSON Schemas, the BM25 ranking of datasources
// (Rank), and Check: SQL in text fields, unresolved references, cycles,
// uncoercible join keys and unused results are refused with typed issues
// (planast.Issue with the codes below), and every group and the post plan
// are validated by duckcompute and planast before anything runs. It never
// calls a model, opens a datasource or runs a query: package engine asks
// the models (askMulti, multi.go), runs each sub-query through the
// single-datasource steps and combines the results with duckcompute
// (multi_run.go).
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
package multi
