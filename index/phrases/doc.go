// Package phrases matches questions against short phrases — the example
// questions and descriptions of verified queries — with the retrieval
// index's full-text machinery (an in-memory bleve index under English
// analysis) and a bounded, IDF-weighted Jaccard score that can be held to
// a fixed threshold (see PhraseIndex). A parameter's example value in a
// phrase is a slot that a value the question names may fill.
//
// It owns no schema and reads no datasource: the caller (engine/verified)
// builds the phrases and decides what a score means. Same phrases and
// question, same scores.
package phrases
