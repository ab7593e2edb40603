// Package verified matches a question to the verified queries (curated
// SQL a person wrote and accepted) and gates their runs through the
// operator's rules.
//
// It owns the phrase index of each datasource's verified queries (their
// example questions and descriptions, with parameter examples and named
// stored values as slots), rebuilt when the datasource's snapshot changes;
// the stored values a question names (NamedValues); the model call that
// fills a matched query's parameters (ParamFiller, which never shows the
// model the SQL); and the hook gate a verified run passes (after_planning
// and before_execution before it runs, after_execution and after_answer
// over its result's shape, never its rows), the Result of a verified run
// (Result, with the template answer), which failures fall back to planning
// (Fallback) and how a run's errors map to the product's (Error). It never runs SQL, reads the
// access policy or writes a trace: curated runs the query, the pipeline
// passes the caller's scope as an index.Allow, its hook step as a Hook and
// its trace as ParamFiller.Trace.
//
// Worked example: with examples/chinook/curated.yaml,
//
//	m, _ := matchers.Matcher(ctx, set, verified.Source{ID: "chinook", Version: v, Index: idx},
//		"Which tracks are in the Rock genre?", allow)
//	q, _, ok := set.Match(m, question, set.Runnable(sc, "chinook"))
//
// gives ok with q.ID "tracks_of_genre": "Rock" is a stored genre, so it
// fills the slot the query's phrase "Which tracks are in the Jazz genre?"
// holds. A rule whose after_planning would change the plan refuses the
// run (REFUSED_BY_RULE) through Gate: verified SQL has no plan to change.
package verified
