// Package schemactx owns the schema as prompt text: SchemaContext renders a
// snapshot (whole, or the sub-snapshot index.Selection.Filter cut) one line
// per table, names plain or JSON-quoted, values always JSON, so everything
// taken from the data is either a plain identifier or inside a JSON
// literal; ContextTables reads the table names back; ContextTokens counts
// a text in o200k_base tokens with a compiled-in vocabulary (no network,
// no files). MaxExamples and MaxExampleBytes bound what a column's line
// may carry; a table's and a column's comments are quoted notes, whole up
// to MaxNoteChars (Note). A view says so after its name, with the part of its
// definition that says what it covers, quoted and bounded (ViewNote,
// MaxViewBytes), or that the definition is withheld from the caller;
// DefinitionText is the whole definition on one line, for describe_schema.
// TestFlag and DeletedMark read, from a column's name and profile,
// a flag of test or internal records and a mark of rows deleted in place,
// which the context notes and engine/warnings names when a plan ignores
// them; ZoneColumn and InstantColumn read a column of IANA time zones
// and a column of instants, which the context notes (ZoneNote) and
// engine/warnings names when a plan reads a UTC hour or day beside one.
//
// It never ranks, selects or filters: which tables and columns reach the
// prompt is package index's decision (Retrieve, Selection.Filter, the
// whole-schema rule DefaultWholeSchemaTokens). It never reads a database
// and never calls a model; the same snapshot renders byte-identically,
// because recorded prompts are keyed by their hash.
package schemactx
