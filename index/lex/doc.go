// Package lex owns how schema names and question text become words that
// can be compared: SplitName and SplitWords split identifiers
// (camelCase, snake_case, acronyms, digits), Fold and Words fold text to
// lower case without accents, StopWord tells words that carry no schema
// signal, Singular is the one plural rule every comparison applies,
// EditDistanceAtMost bounds fuzzy matches, Abbreviates reads the shortened
// column names schemas use ("Fname" ← "first name"), SecretColumn tells
// the names that mark secrets, Numbers and NumberUnit read the numbers a
// question states ("4,5", "1,200", "4.5km"; not a date's or an id's
// digits), and Descriptive tells a verb or an adjective from a noun.
//
// It never ranks, selects or indexes anything, reads no snapshot and no
// database: which words matter for which document is package index's
// decision, and which values are stored package index/values'. Every
// function is pure and deterministic, so both sides of a comparison (the
// index built yesterday, the question asked today) fold alike.
//
// Worked example: the column "FName" of a table "owners" and the question
// "the first names of owners":
//
//	name := lex.SplitWords("FName") // ["f", "name"]
//	var q []string
//	for _, w := range lex.Words("the first names of owners") {
//		if !lex.StopWord(w) {
//			q = append(q, lex.Singular(w)) // "first", "name", "owner"
//		}
//	}
//	lex.Abbreviates(name, q)     // true: "f" shortens "first", "name" is "name"
//	lex.SecretColumn("user_pwd") // true: its values are never indexed
package lex
