// Package index retrieves the part of a schema snapshot that a question
// needs, so the planner's prompt carries the relevant tables, columns and
// literal values instead of the whole schema.
//
// # What is indexed
//
// Build makes one document per table and per column of a
// schema.Snapshot. A table document holds its name split into words
// ("InvoiceLine" → "invoice line", see lex.SplitName), its comment and its
// columns' names; a column document its split name, its table's name, its
// comment and up to ten profile sample values. The documents go into a
// bleve v2 index (scorch, BM25 scoring, English analysis:
// possessives, stop words, Porter stems) and each is embedded by an
// Embedder (the built-in NGram by default: hashed character 3-5-grams, no
// model, no network). Column values go into a second bleve index (package
// index/values, below index), one document per distinct value of each
// text column: the profile's samples, and, when Options.Values is set,
// every value of columns with at most Options.MaxDistinctValues of them.
//
// # Stored indexes
//
// Build keeps its bleve indexes in memory. OpenOrBuild stores them on disk
// (the engine uses storage.path/indexes/<datasource>), under a key that
// hashes the snapshot's fingerprint (schema and profile), the embedder and
// the value options (IndexKey): an unchanged snapshot opens its stored
// index read-only in milliseconds, a changed one is rebuilt. A build
// writes to a temporary directory renamed into place when complete
// (index.json, with data.bin's SHA-256, last), so a killed build leaves the
// previous index; a damaged one is rebuilt, with the reason in
// Opened.Rebuilt. Vectors are kept sparse (the NGram embedder fills a few
// dozen of its buckets), documents reach bleve a hundred tables at a
// time, reported to Options.Progress, and while a build runs the GC
// collects early (gc.go), so a first build's memory stays near what it
// holds.
//
// A rebuild takes from the datasource's previous index what did not
// change (reuse.go): the values of every column whose table the snapshot
// describes exactly as before (schema, row count, profile) are not read
// from the database again, and a text embedded before is not embedded
// again; Opened.Reused counts both. The bleve indexes are written anew
// from the documents, so the stored index holds the documents, values and
// vectors a build from nothing makes, under the rule the snapshot loader applies to
// profiles (an unchanged table keeps its profile, and now its values).
//
// On a restart the engine knows the snapshot's version before it has read
// the snapshot (the state store records it with the source's state), so
// StartPrefetch reads the stored index on another core meanwhile and
// OpenOrBuild only checks it against the snapshot; an index read ahead
// for another version than the snapshot's is closed, never served.
//
// # Retrieval
//
// Retrieve ranks the documents four ways (BM25, exact cosine over every
// vector, columns whose stored values occur in the question, documents
// whose names the question spells out or shortens), fuses the rankings by
// weighted reciprocal rank fusion, picks seed tables, connects them
// through foreign keys (bridge tables on shortest join paths, and the
// link tables between kept tables that join no other way directly; a
// schema that declares no foreign keys, and a table no declared key
// touches, gets inferred ones, from key names, a key's name without its
// key word, and a first column that profiling found unique), keeps per
// table its primary key and the keys joining kept tables, the columns the
// question names (every word of the name in any inflection, "established"
// for year_of_establishment, or two words of it, "growing season" for
// growing_season_length), spells out or implies, the label (name or title column) of a
// table it names, the columns holding values the question names (stored
// strings, and the columns a year the question names may filter: integer,
// whole-number real or date ranges holding it, or, with no rows to
// profile, date-typed or date- or year-named columns) and its best
// columns by rank (the best 2·√d of the d documents, at least one per
// seed table; only the one per table when every weighed word of the
// question is a word of a table or column it names or of a value it
// spells: the rest would be the named table's columns its name alone
// ranks), and fills up to 35% of the schema's columns. A view
// seeds only when the question names it (views repeat their base
// tables' columns, and as seeds took the slots of the base tables whose
// keys join); a named table of people keeps its first and family name. Every sort breaks ties
// by document id, so the same index and question always give the same
// Selection, byte for byte as JSON.
//
// Names are matched as schemas write them (lex.Abbreviates): a
// column named by short forms of consecutive question words ("Fname",
// "LName" ← "first name", "last name", also across "first and last
// names"; "AvgMath" ← "average math"), one shortened word ("dept" ←
// "department"), a compound ending in the question's word ("forename",
// "surname" ← "name"), a word of one family that the Porter stemmer
// tells apart ("injured" ← "injuries"), words of the name the question
// writes as one ("eGFR", "A1c" ← eGFR_mL_min, HbA1c_pct: kept, not
// ranked), or an initialism of three
// question words or more ("frpm" ← "free or reduced-price meals") ranks
// as a mention of the
// lowest weight, as does a column one of whose name words a question word
// implies through a short list of general schema vocabulary
// (impliedNames in concepts.go: "youngest" → age, birth; "nation" →
// country; "sold" → quantity; "expensive" → price; "name" → title;
// "spent" → amount, amt; "year" → yr; a country's people, "Canadian",
// → country, nation, nationality: package places).
// Each shortening rule has a guard against names that merely share
// letters (a prefix of four letters, a contraction keeping the word's
// first two, a piece of three letters).
//
// Each ranked table carries its Score (its best document's fused score)
// and its Evidence: "text" (a BM25 hit), "value", "mention", or "vector"
// for a similarity more than four standard deviations above the mean over
// all documents (relevance.go). Selection.Relevant is false when no table
// has any: search_schema then answers that nothing matched instead of
// listing the top of a ranking of unrelated tables. Unmatched lists the
// words of a text that nothing the caller may read holds (a name,
// comment, sample or stored value), for a search whose other words match:
// "reason" in "accounts closed for which reason" (unmatched.go); Weighed
// lists the words it weighs (no common verbs, no comparatives of a
// measure), so a caller can tell a text none of whose words the data
// holds, whatever a fuzzy value says.
//
// A schema whose whole context is at most DefaultWholeSchemaTokens (see
// there for why 4,000) is selected whole: below that size certainty beats
// the token saving. The ranking still runs: the FocusColumns best non-key
// columns and those holding the question's values become the selection's
// Focus, and only they come with their values; the other columns are
// listed by name and type.
//
// Access control: Retrieve takes an Allow function. A denied table or
// column is never ranked, never selected, never a bridge, and its values
// are never reported, so it cannot reach a prompt; nor does its name,
// comment or sample make a question match (Relevant, Unmatched): a table
// document's list of its columns' names counts only where the caller may
// read every column (access.fieldQuery). Selection.Filter drops
// foreign keys that point outside the selection.
//
// # Rendering
//
// Selection.Filter cuts the snapshot down to the selection (matched values
// put first among their columns' samples, profiles outside a whole
// selection's focus dropped) and package schemactx (below index) renders it:
// SchemaContext one line per table, names plain or JSON-quoted, values
// always JSON; ContextTables reads the table names back; ContextTokens
// counts the result in o200k_base tokens with a compiled-in vocabulary.
//
// # Worked example
//
// Chinook (examples/chinook), whole-schema rule off, question "which
// artist has the most tracks sold":
//
//	src, _ := sqlite.OpenSQLite(ctx, "chinook", "examples/chinook/chinook.sqlite", source.Options{})
//	snap, _ := src.Snapshot(ctx)
//	_ = src.Profile(ctx, snap)
//	ix, _ := index.Build(ctx, snap, nil, index.Options{Values: values.FromQuery(
//		func(ctx context.Context, sql string, n int) ([][]any, bool, error) {
//			r, err := src.Query(ctx, sql, nil, n)
//			if err != nil {
//				return nil, false, err
//			}
//			return r.Rows, r.Truncated, nil
//		})})
//	defer ix.Close()
//	sel, _ := ix.Retrieve(ctx, "which artist has the most tracks sold", index.Budget{WholeSchemaTokens: -1}, nil)
//	prompt := schemactx.SchemaContext(sel.Filter(snap))
//
// The fused ranking starts Artist.ArtistId, Artist, Track.TrackId: BM25
// and the n-gram vectors both match "artist" and "tracks". Chinook has 11
// tables and 75 documents, so the seeds are its ⌈0.4·11⌉ = 5 best tables
// by their best document: Artist, Track, PlaylistTrack, InvoiceLine (its
// table document lists a TrackId column; its TrackId column itself speaks
// for Track, not for InvoiceLine) and Album. Expansion connects them
// through the declared foreign keys (Album joins Artist to Track; asked
// to join only Artist and InvoiceLine it would add Album and Track as
// bridges). Each table keeps its primary key, the keys joining it to
// kept tables, the columns the question names or implies ("sold" →
// InvoiceLine.Quantity) and its best columns; the fill adds cheap tables
// (keys and one column each) while the selection stays under 40 columns
// and 35% of the schema.
// The selection renders to about 300 tokens instead of 1,285. For "How many
// heavy metal tracks are there?" Selection.Values holds
// {Genre, Name, "Heavy Metal", exact}: the stored spelling, which Filter
// adds to Genre.Name's samples for the planner.
//
// # Packages below index
//
// index keeps the ranking, the selection and its public API; the parts it
// builds on sit below it and never import it: lex (name and question
// words: splitting, folding, stop words, singulars, short forms, secret
// names), values (the value index: fetching, storing and matching
// literal values, and the columns a year may filter), joins (the join
// graph, inferred keys and bridges), schemactx (the prompt text),
// phrases (verified-query phrases matched against questions) and embed
// (remote embedders).
//
// The retrieval evaluation (package evalret) measures recall, share and
// tokens on Spider and BIRD; see its documentation for the commands.
package index
