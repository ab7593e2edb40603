// Package dictionary reads a datasource's documentation tables into its
// schema snapshot. A database without COMMENT ON (SQLite), or whose owners
// never used it, often keeps what its tables and columns mean in a table
// of its own: data_dictionary (table_name, column_name, note), one row per
// rule. Read as any other table, its rules reach a planner only if it
// thinks to query it, and the server's own notes (describe_schema, the
// planners' schema context, the warnings that quote a column's note) never
// see them.
//
// Attach finds such tables by their shape, never by their name, and gives
// each documented table or column that has no comment of its own the text
// of its rows:
//
//   - a text column naming tables: at least four in five of the sampled
//     rows name a table of the snapshot, case-insensitively (or
//     "table.column", which names a column);
//   - optionally a text column naming columns of those tables (four in
//     five of its non-empty values; an empty one makes the row a table's
//     note);
//   - a text column of prose: the first named like a note (note,
//     description, comment, definition, meaning, remark, explanation,
//     documentation), else the one with the longest values, at least half
//     of whose values are two words or more. An audit log naming tables
//     beside an action ('INSERT') has none;
//   - at most three rows per documented object on average: a log names
//     the same table again and again.
//
// For example, the row ('accounts', 'is_test', 'an @example.com email is
// a test account whatever is_test says') makes that text the comment of
// accounts.is_test, with Column.CommentFrom naming the table it came from
// (describe_schema prints `note (from data_dictionary) "…"`). A real
// comment wins; several rows for one object join with a space, in the
// table's key order; each note is cut at schema.MaxCommentBytes. The
// documentation table itself stays a table like any other, and is listed
// in Snapshot.Dictionaries with the columns read, so a caller who may not
// read them gets none of its notes (scope.FilterSnapshot).
//
// Bounded: the first maxCandidates narrow tables with two text columns
// or more are sampled (sampleRows rows each, unordered), a dictionary is
// read in order up to MaxRows rows, and the whole read stops after
// source.DefaultTimeout besides each statement's own timeout. A read that
// fails is logged and leaves the snapshot as introspected: notes describe,
// they never decide whether a datasource opens. A read cut short by the
// time limit attaches nothing, so a snapshot never holds some of a
// dictionary's notes one time and all of them the next.
package dictionary
