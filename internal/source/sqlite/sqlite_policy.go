package sqlite

import (
	"strings"

	"modernc.org/sqlite"
)

// sqlitePolicy is the authorizer installed on every connection an SQLite
// adapter opens. SQLite asks it about each action while it compiles a
// statement (see https://www.sqlite.org/c3ref/set_authorizer.html); whatever
// it does not allow is denied, so the statement fails to prepare with
// SQLITE_AUTH and nothing runs.
//
// Allowed: SELECT, RECURSIVE (bounded by the query timeout), READ of any
// table or view column except sqlite_dbpage, and FUNCTION for the names in
// sqliteFunctions. Denied: every write (INSERT, UPDATE, DELETE, and REPLACE
// which is an INSERT), CREATE/DROP/ALTER of anything, ATTACH and DETACH
// (VACUUM INTO asks for ATTACH), PRAGMA, TRANSACTION, SAVEPOINT, ANALYZE,
// REINDEX, virtual-table creation, and any action a later SQLite adds.
//
// With introspection set, PRAGMA is allowed for the read-only schema pragmas
// in introspectionPragmas, which is how the pragma_table_xinfo(…) family of
// table-valued functions is authorized (as SQLITE_PRAGMA, with the pragma
// name and its argument).
type sqlitePolicy struct {
	introspection bool
}

// introspectionPragmas are the pragmas Snapshot reads through table-valued
// functions. None of them changes anything.
var introspectionPragmas = map[string]bool{
	"table_list":       true,
	"table_xinfo":      true,
	"table_info":       true,
	"foreign_key_list": true,
	"index_list":       true,
	"index_info":       true,
}

// authorize is the sqlite.AuthorizerFn. SQLite passes NULL arguments as "".
func (p sqlitePolicy) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthRead:
		// arg1 is the table, arg2 the column. sqlite_dbpage reads raw pages,
		// around any table- or column-level view of the data.
		if strings.EqualFold(arg1, "sqlite_dbpage") {
			return sqlite.AuthorizerDeny
		}
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		// arg2 is the function name as written.
		if sqliteFunctions[strings.ToLower(arg2)] == allow {
			return sqlite.AuthorizerOK
		}
		return sqlite.AuthorizerDeny
	case sqlite.AuthPragma:
		// arg1 is the pragma name, arg2 its argument.
		if p.introspection && introspectionPragmas[strings.ToLower(arg1)] {
			return sqlite.AuthorizerOK
		}
		// the schema cookie is read (SchemaVersion), never set: with an
		// argument the pragma would write it
		if p.introspection && strings.EqualFold(arg1, "schema_version") && arg2 == "" {
			return sqlite.AuthorizerOK
		}
		// the quick check (CheckIntegrity) only reads; its argument is
		// how many problems to list
		if p.introspection && strings.EqualFold(arg1, "quick_check") {
			return sqlite.AuthorizerOK
		}
		return sqlite.AuthorizerDeny
	}
	return sqlite.AuthorizerDeny
}

// functionRule classifies an SQL function for the authorizer.
type functionRule int

const (
	deny  functionRule = iota // the zero value: unknown functions are denied
	allow                     // pure scalar, aggregate or window function
)

// sqliteFunctions classifies every function the linked SQLite (3.54 in
// modernc.org/sqlite v1.62) defines, by lower-case name. A name missing here
// is denied; TestSQLiteFunctionsClassified fails when SQLite adds one, so
// each new function is a decision.
//
// Denied on purpose: functions that reach files, extensions or pointers
// (load_extension, readfile, writefile, edit, fts3_tokenizer, fts5), that
// write the log (sqlite_log), that allocate large blobs on demand (zeroblob,
// randomblob), that expose connection state (changes, last_insert_rowid,
// total_changes, sqlite_offset, sqlite_compileoption_*, sqlite_source_id),
// and the FTS/R-Tree/Geopoly helpers that plans never need.
var sqliteFunctions = map[string]functionRule{
	// core scalar
	"abs": allow, "char": allow, "coalesce": allow, "concat": allow, "concat_ws": allow,
	"format": allow, "glob": allow, "hex": allow, "if": allow, "ifnull": allow, "iif": allow,
	"instr": allow, "length": allow, "like": allow, "likelihood": allow, "likely": allow,
	"lower": allow, "ltrim": allow, "max": allow, "min": allow, "nullif": allow,
	"octet_length": allow, "printf": allow, "quote": allow, "random": allow, "replace": allow,
	"round": allow, "rtrim": allow, "sign": allow, "soundex": allow, "sqlite_version": allow,
	"substr": allow, "substring": allow, "trim": allow, "typeof": allow, "unhex": allow,
	"unicode": allow, "unistr": allow, "unistr_quote": allow, "unlikely": allow, "upper": allow,
	"subtype": allow,
	// aggregate and window
	"avg": allow, "count": allow, "group_concat": allow, "string_agg": allow, "sum": allow,
	"total": allow, "cume_dist": allow, "dense_rank": allow, "first_value": allow, "lag": allow,
	"last_value": allow, "lead": allow, "nth_value": allow, "ntile": allow, "percent_rank": allow,
	"rank": allow, "row_number": allow,
	// registered by sqlitestats on every connection
	"stddev_samp": allow, "stddev_pop": allow, "var_samp": allow, "var_pop": allow,
	// registered by sqlitefold on every connection
	"unicode_lower": allow, "unicode_upper": allow,
	// registered by sqlitezone on every connection
	"tz_local_time": allow,
	// date and time
	"current_date": allow, "current_time": allow, "current_timestamp": allow, "date": allow,
	"datetime": allow, "julianday": allow, "strftime": allow, "time": allow, "timediff": allow,
	"unixepoch": allow,
	// math
	"acos": allow, "acosh": allow, "asin": allow, "asinh": allow, "atan": allow, "atan2": allow,
	"atanh": allow, "ceil": allow, "ceiling": allow, "cos": allow, "cosh": allow, "degrees": allow,
	"exp": allow, "floor": allow, "ln": allow, "log": allow, "log10": allow, "log2": allow,
	"mod": allow, "pi": allow, "pow": allow, "power": allow, "radians": allow, "sin": allow,
	"sinh": allow, "sqrt": allow, "tan": allow, "tanh": allow, "trunc": allow,
	// JSON
	"->": allow, "->>": allow, "json": allow, "json_array": allow, "json_array_insert": allow,
	"json_array_length": allow, "json_error_position": allow, "json_extract": allow,
	"json_group_array": allow, "json_group_object": allow, "json_insert": allow,
	"json_object": allow, "json_patch": allow, "json_pretty": allow, "json_quote": allow,
	"json_remove": allow, "json_replace": allow, "json_set": allow, "json_type": allow,
	"json_valid": allow, "jsonb": allow, "jsonb_array": allow, "jsonb_array_insert": allow,
	"jsonb_extract": allow, "jsonb_group_array": allow, "jsonb_group_object": allow,
	"jsonb_insert": allow, "jsonb_object": allow, "jsonb_patch": allow, "jsonb_remove": allow,
	"jsonb_replace": allow, "jsonb_set": allow,
	// denied (see above)
	"load_extension": deny, "readfile": deny, "writefile": deny, "edit": deny,
	"fts3_tokenizer": deny, "fts5": deny, "fts5_get_locale": deny, "fts5_insttoken": deny,
	"fts5_locale": deny, "fts5_source_id": deny, "bm25": deny, "highlight": deny, "snippet": deny,
	"match": deny, "sqlite_log": deny, "zeroblob": deny, "randomblob": deny, "changes": deny,
	"last_insert_rowid": deny, "total_changes": deny, "sqlite_offset": deny,
	"sqlite_compileoption_get": deny, "sqlite_compileoption_used": deny, "sqlite_source_id": deny,
	"rtreecheck": deny, "rtreedepth": deny, "rtreenode": deny,
	"geopoly_area": deny, "geopoly_bbox": deny, "geopoly_blob": deny, "geopoly_ccw": deny,
	"geopoly_contains_point": deny, "geopoly_debug": deny, "geopoly_group_bbox": deny,
	"geopoly_json": deny, "geopoly_overlap": deny, "geopoly_regular": deny, "geopoly_svg": deny,
	"geopoly_within": deny, "geopoly_xform": deny,
}
