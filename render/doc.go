// Package render turns a validated plan into one SQL statement for SQLite,
// DuckDB or PostgreSQL. It is the only writer of generated SQL: identifiers
// are always quoted, string literals escaped, numbers and units checked
// before they reach the text, the top-level LIMIT capped by Options.MaxRows,
// and the row order made total (the plan's ORDER BY, then every output
// column by position; subqueries whose LIMIT or OFFSET picks rows too; a
// plan with no ORDER BY takes its first rows and sorts those, see "Row
// order and the row cap").
//
// What a rule would write many times is written once where the meaning
// allows: a cast of text that is a CASE casts each branch (the cast rule
// tests its operand several times, and a CASE reordering a column's dates
// inside each test made SQL of 50 KB), and a GROUP BY key longer than 200
// bytes that is a select item is written as its position, as ORDER BY
// writes its keys.
//
// Render only plans that passed validate.Plan: the validator refuses
// everything the renderer would refuse or render with a different meaning
// (the parity test enumerates this), and canonicalises names.
//
// # Worked example
//
// The plan
//
//	{
//	  "select": [{"expr": {"kind": "column", "table": "ar", "column": "Name"}, "alias": "artist"},
//	             {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "albums"}],
//	  "from": [{"table": "Album", "alias": "al"}, {"table": "Artist", "alias": "ar"}],
//	  "joins": [{"left": "al", "right": "ar", "on": [{"left_column": "ArtistId", "right_column": "ArtistId"}]}],
//	  "where": {"kind": "binary", "op": ">=", "left": {"kind": "func", "name": "LENGTH", "args": [{"kind": "column", "column": "Title"}]},
//	            "right": {"kind": "binary", "op": "/", "left": {"kind": "literal", "value": 7}, "right": {"kind": "literal", "value": 2}}},
//	  "group_by": [{"kind": "column", "table": "ar", "column": "ArtistId"}],
//	  "having": {"kind": "binary", "op": ">", "left": {"kind": "func", "name": "COUNT", "args": []}, "right": {"kind": "literal", "value": 1}},
//	  "order_by": [{"expr": {"kind": "column", "column": "albums"}, "direction": "desc"}],
//	  "limit": 10000
//	}
//
// validates against a Chinook catalog (Title is qualified, ar.Name is added
// to group_by because it depends on the grouped primary key) and renders,
// with Options{MaxRows: 100}, as follows. 7 / 2 is 3.5 everywhere; the limit
// is capped at 100; NULLs sort last on every engine.
//
//	-- sqlite
//	SELECT "ar"."Name" AS "artist", COUNT(*) AS "albums"
//	FROM "Album" AS "al"
//	INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
//	WHERE (CAST(LENGTH("al"."Title") AS REAL) >= (CAST(7 AS REAL) / NULLIF(2, 0)))
//	GROUP BY "ar"."ArtistId", "ar"."Name"
//	HAVING (COUNT(*) > 1)
//	ORDER BY "albums" DESC NULLS LAST, 1 ASC NULLS LAST
//	LIMIT 100
//	-- duckdb
//	SELECT "ar"."Name" AS "artist", COUNT(*) AS "albums"
//	FROM "Album" AS "al"
//	INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
//	WHERE (CAST(LENGTH("al"."Title") AS DOUBLE) >= (CAST(7 AS DOUBLE) / NULLIF(2, 0)))
//	GROUP BY "ar"."ArtistId", "ar"."Name"
//	HAVING (COUNT(*) > 1)
//	ORDER BY "albums" DESC NULLS LAST, 1 ASC NULLS LAST
//	LIMIT 100
//	-- postgres
//	SELECT "ar"."Name" AS "artist", COUNT(*) AS "albums"
//	FROM "Album" AS "al"
//	INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
//	WHERE (CAST(LENGTH("al"."Title") AS DOUBLE PRECISION) >= (CAST(7 AS DOUBLE PRECISION) / NULLIF(2, 0)))
//	GROUP BY "ar"."ArtistId", "ar"."Name"
//	HAVING (COUNT(*) > 1)
//	ORDER BY "albums" DESC NULLS LAST, 1 ASC NULLS LAST
//	LIMIT 100
//
// A plan with qualify or with_ties renders as three nested SELECTs (see
// wrapped): the query with its order_by keys as extra columns, a level
// that filters on qualify and ranks the rows by the order_by keys with
// RANK(), and the outer level that keeps the rows ranked within the limit,
// orders them totally and applies the row cap as its only LIMIT. So a cap
// that cuts a tie still returns more rows than the engine's cap allows,
// and the result says it was cut.
//
// ExampleSQL runs exactly this. The dialects differ only where the engines
// do: casts, date literals and date functions (SQLite has no date type),
// division, and the parentheses PostgreSQL and DuckDB need for chained set
// operations to run left to right as SQLite runs them.
//
// # Row order and the row cap
//
// A plan with an order_by is sorted by it, then by every output column
// (the tie-breakers), and limited: the same rows on every run and engine,
// whatever order the rows are stored in. A plan with no order_by that only
// scans, joins and filters (no grouping, aggregate, window, DISTINCT, set
// operation, offset, CTE or derived table; see firstRowsLimit) is limited
// first and sorted after:
//
//	SELECT * FROM (SELECT ... FROM ... WHERE ... LIMIT 1001 [OFFSET 0]) AS "first_rows"
//	ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, ...
//
// (OFFSET 0 on SQLite only, which would otherwise flatten the subquery and
// sort every row.) Sorting first would read the whole input to keep 1,001
// rows: over a 50M-row view with no index that ran into the timeout, while
// limiting first lets the engine stop after 1,001 rows. The trade-off:
//
//   - when the limit does not cut the result (it has at most the limit's
//     rows, the common case), every row is kept and sorted totally: the
//     result is exactly what sorting first gives, on every engine;
//   - when it cuts, the rows kept are the first in the engine's scan order,
//     not the smallest by the outputs, then sorted totally. On the same
//     database file and engine version that is the same rows on every run
//     (SQLite plans and scans deterministically; DuckDB keeps insertion
//     order through scans, filters, joins and LIMIT, preserve_insertion_order
//     being on; the PostgreSQL adapter turns synchronize_seqscans off, so a
//     sequential scan starts at the table's first page). It can differ
//     between engines holding the same rows (SQLite scans a rowid table in
//     rowid order, DuckDB and PostgreSQL in insertion order), after the
//     table is rewritten (VACUUM, an update moving rows), and on
//     PostgreSQL when it chooses a parallel plan for the scan. The result
//     says it was cut; a plan that needs particular rows orders by them.
//
// duckcompute's combination steps, whose inputs are small loaded results,
// set Options.SortAllRows and keep sorting first.
//
// On SQLite, a [NOT] EXISTS tied to its outer row by one equality is
// written as an IN of the inner keys (semijoin.go): SQLite runs a
// correlated subquery once per outer row, scanning an unindexed inner
// table each time (60,000 × 40,000 rows: past a minute; as an IN: 0.07 s).
// NULL keys keep EXISTS's meaning on both sides.
//
// # Dates and timestamps on SQLite
//
// SQLite stores dates and timestamps as ISO text of whatever shape the
// data was loaded with ('2017-01-01', '2017-01-01 00:00:00',
// '2017-01-01T00:00:00.5'), and text order is not time order across shapes
// ('2017-01-01' < '2017-01-01 00:00:00'). So every comparison Validate
// marked temporal (=, !=, <, <=, >, >=, BETWEEN, IN lists, the whole-day
// bounds) normalises both sides on SQLite: a date as date(x), a timestamp
// as strftime('%Y-%m-%d %H:%M:%f', x), literals written in that shape:
//
//	OrderDate BETWEEN DATE '2017-01-01' AND DATE '2017-12-31'   (OrderDate a timestamp)
//	-- sqlite
//	((strftime('%Y-%m-%d %H:%M:%f', "o"."OrderDate") >= '2017-01-01 00:00:00.000')
//	 AND (strftime('%Y-%m-%d %H:%M:%f', "o"."OrderDate") < '2018-01-01 00:00:00.000'))
//	-- duckdb, postgres: typed columns, unchanged
//	(("o"."OrderDate" >= TIMESTAMP '2017-01-01 00:00:00') AND ("o"."OrderDate" < TIMESTAMP '2018-01-01 00:00:00'))
//
// SQLite compares to the millisecond (it keeps time so); NULL stays NULL;
// a stored value its date functions cannot read (text that is no ISO date)
// is NULL there, so it matches neither = nor !=, and a number is read as a
// Julian day number. An IN subquery, a CASE operand and join keys on dates
// compare the stored text as it is; so do ORDER BY, MIN and MAX (they order
// correctly whenever the column holds one shape).
//
// # Numbers across engines
//
// A float compared with an integer or a decimal (=, !=, <, <=, >, >=, an
// IN list, BETWEEN) is a comparison of doubles on every engine: Validate
// casts the integer and decimal operands to float in the plan (an IN list
// or a BETWEEN with one float operand casts all of them), because SQLite
// compares such pairs exactly and PostgreSQL and DuckDB as doubles
// (9007199254740993 IN (9007199254740992.0) held on two engines only).
//
// A PostgreSQL money column (ColumnInfo.Money, set from the catalog) is a
// decimal, and is rendered there as "CAST(x AS NUMERIC)" wherever the plan
// names it: money has no ABS, no cast to double (so no AVG, no comparison
// with a float) and no comparison or arithmetic with numbers, while the
// numeric it holds has all of them, as a decimal column on DuckDB and
// SQLite. Its values come back as numeric's, the same decimal text; a join
// key (on) compares the stored money as it is, unless the other key is
// read otherwise (a CTE's output of it, which is numeric): OnPair.Left
// and Right then compare both keys as read.
//
// A column the portable types call text whose engine type is not text
// (PostgreSQL uuid, macaddr, enums, inet, cidr, bit strings, xml; DuckDB
// UUID: ColumnInfo.AsText) is rendered there as "CAST(x AS TEXT)" (inet:
// abbrev(x), its text without /32, as results show it) wherever the plan
// names it: LIKE,
// UPPER and a comparison with a literal that does not parse as the type
// (or that an enum does not list) fail on the type itself, and its cast is
// the same text its values come back as; an enum then sorts by its text,
// as a text column does, not in its declared order. An
// equality of a uuid column with a literal written as a UUID stays as it
// is: the database compares uuids (in any letter case) by the key's index.
// A join's key pair compares two such keys as stored (uuid = uuid, by the
// index), and such a key met with one read otherwise (a CTE's output of
// the uuid, its text) as read on both sides: PostgreSQL has no uuid = text.
//
// An array or a JSON value cast to text (Cast.FromNested) is the JSON text
// results show it as, on every engine: PostgreSQL's array_to_json of an
// array (its own text is {cold,bulk}), DuckDB's to_json (a struct's own
// is {'a': 1}); a filter written from a value a result showed matches.
//
// # Arithmetic overflow
//
// Integer, decimal and float arithmetic has one range on every engine, and a
// result beyond it is the error ARITHMETIC_OVERFLOW everywhere (the
// adapters map PostgreSQL's 22003, DuckDB's "Out of Range" and "out of
// range" conversions, and SQLite's "integer overflow" onto it), never a
// value on one engine and an error or a rounded double on another
// (overflow.go):
//
//   - integer +, - and * (and unary minus) are int64: on PostgreSQL and
//     DuckDB, whose literals and INTEGER columns are 32-bit, the first
//     operand of each innermost operation is cast to BIGINT, so 100000 *
//     100000 is 10000000000 everywhere; SQLite would turn an int64
//     overflow into a double, so the top of each chain of integer
//     arithmetic is checked once per chain, not per operator (below); an
//     integer column holding a real on SQLite computes a real, no error;
//   - SUM of integers is a BIGINT: PostgreSQL's numeric and DuckDB's
//     HUGEINT sums are cast, so a sum beyond int64 fails as SQLite's does;
//   - decimals are DECIMAL(38,10), |x| < 10^28: PostgreSQL's unbounded
//     numeric is cast to NUMERIC(38,10) when a chain's result reaches it;
//     SQLite (whose decimals are doubles) and DuckDB (whose DECIMAL(20,2)
//     times an integer is a DECIMAL(38,2), good to 10^36) check
//     abs(chain) >= 1e28 and raise DecimalOverflowMessage, not "integer
//     overflow". A product of two decimals is computed at scale 20 as
//     DuckDB does (|x| < 10^18) and rounded to scale 10, on PostgreSQL and
//     DuckDB alike, so products of products keep a scale DuckDB can hold;
//     SQLite checks abs(product) >= 1e18.
//   - floats are doubles, finite unless an operand is: PostgreSQL fails on
//     a +, -, * or / of finite doubles beyond 1.8e308 by itself, where
//     SQLite and DuckDB give an infinity; there the top of a float chain
//     (and a / whose divisor is not a literal of at least 1) is checked
//     for an infinite value while none of its operands (of a quotient: its
//     dividend) is infinite, which fails (SQLite through the error below,
//     DuckDB as a cast of the infinity to BIGINT). An infinity stored in a
//     column stays one in the arithmetic, as on PostgreSQL.
//
// The SQLite check of an integer chain:
//
//	CASE WHEN typeof(chain) = 'real' AND typeof(<each column or call in it>) = 'integer'
//	THEN abs(-9223372036854775807 - 1) ELSE chain END
//
// The hint says to cast an operand to float, whose doubles reach 1.8e308
// with 15-17 significant digits. Not covered: whether an overflow in one
// side of an and/or fails the query depends on whether the engine
// evaluates that side (PostgreSQL orders a filter's conditions by cost and
// stops when the result is decided), so a filter "a AND b" whose b
// overflows on a row where a is false may fail on one engine and not on
// another. SQLite's sum() fails when a running total passes int64 even if
// the final sum would not.
//
// Integer div of two integers is int64 division truncating toward zero on
// every engine (SQLite's and PostgreSQL's / on integers, DuckDB's //, whose
// / divides as doubles), NULL for a zero divisor: not through a double,
// which has 53 bits and showed 9223372036854775807 div 3 as
// 3074457345618258432 everywhere, an integer that looked exact. The one
// quotient beyond int64, the smallest int64 div -1, is ARITHMETIC_OVERFLOW:
// PostgreSQL and DuckDB fail by themselves, SQLite (which returns a
// double) through the integer chain's check above. A div with a float or
// decimal operand divides as doubles and truncates toward zero; a
// quotient outside [-2^63, 2^63), an infinite one included, is
// ARITHMETIC_OVERFLOW on every engine (PostgreSQL and DuckDB fail the cast
// to BIGINT, SQLite, whose cast clamps to 9223372036854775807, raises
// through overflowError: "CAST(CASE WHEN q >= 9223372036854775808.0 OR q <
// -9223372036854775808.0 THEN abs(-9223372036854775807 - 1) ELSE q END AS
// INTEGER)"), and a NaN quotient (infinity div infinity, a NaN operand)
// is NULL, as on SQLite, which has no NaN.
//
// A float cast to integer is NULL for NaN, ±Infinity and |x| >= 2^63, as
// TRY_CAST and the cast of such text (textcast.go) are: PostgreSQL and
// DuckDB failed the query and SQLite clamped to 9223372036854775807.
//
// A rendering that names a long operand (over 80 characters: a date
// reordered with SUBSTR and CONCAT) more than once names it once, through
// a scalar subquery over a one-row derived table whose empty FROM lets it
// read the outer row (once.go): the cast of text, which tests its operand
// many times over, "(SELECT (CASE WHEN typeof("arg1") = 'text' AND … END)
// FROM (SELECT (SUBSTR("b"."end_at", 7, 4) || …) AS "arg1") AS "once")",
// and a function (SQRT's domain test, FROM_EPOCH_SECONDS's range, a
// quarter label), as "arg1", "arg2", …, but in a grouped query's output,
// where the engines match an expression of the grouping keys by its text
// (a grouping key that is a select item excepted), and for an operand
// holding a window: five nested SQRT over a text cast were 2^5 copies of
// the cast.
//
// AVG(x) renders as the division rule's SUM(x) / COUNT(x),
// "(CAST(SUM(x) AS DOUBLE PRECISION) / NULLIF(COUNT(x), 0))" (REAL, DOUBLE
// on the others; OVER the same window when it is one), not as the engines'
// AVG: those sum in floating point, in scan order on some, so the mean of
// ids past 2^53 or of many-digit decimals differed by engine and from the
// true mean. SUM of integers (and of decimals outside SQLite) is exact, so
// the rounding left is the sum's to a double and the one division: the
// same double on every engine, within one rounding of the true mean; NULL
// when no value is counted. A ratio the plan writes (SUM(x) / COUNT(*))
// follows the same rule. On SQLite, whose SUM of integers raises "integer
// overflow" once the running sum passes int64 (PostgreSQL and DuckDB sum
// in wider types), an AVG of integers (not DISTINCT) sums the high and
// low 32 bits apart and joins them in one rounding: "((CAST(SUM((x) >> 32)
// AS REAL) * 4294967296.0 + SUM((x) & 4294967295)) / NULLIF(COUNT(x), 0))",
// the same correctly rounded sum, so the same double.
//
// ROUND(x, n) rounds half away from zero the decimal x shows: a float (or
// a SQLite decimal, a double) written with up to 15 significant digits
// rounds as written, 2.675 to 2.68, 1.005 to 1.01, 0.285 to 0.29 on every
// engine, not as the binary double just below the half it shows
// (2.67499999999999982...), which SQLite's and DuckDB's ROUND rounded down
// while PostgreSQL rounded the numeric. SQLite and DuckDB round x moved
// one or two units in the last place away from zero, "(CASE WHEN abs(x) <
// 4503599627370496.0 THEN x * 1.0000000000000002 ELSE x END)" (a value
// that is no half is at least 10^-15 of itself away from one; beyond 2^52
// a double has no fraction); PostgreSQL rounds
// CAST(CAST(x AS TEXT) AS NUMERIC), a double's shortest round-trip text,
// where its cast to numeric keeps 15 digits (4503599627370497 rounded to
// 4503599627370500). Past the 15th significant digit a double may round
// either way (0.49999999999999994 rounds to 1 on SQLite and DuckDB), and a
// PostgreSQL or DuckDB decimal rounds the exact decimal it holds
// (1.0049999999999999 to 1.00) where SQLite holds the double 1.005 and
// rounds it to 1.01. DuckDB rounds a decimal as a double (its ROUND of a
// DECIMAL(38,10) is typed DECIMAL(38,0)), so a decimal of more than 15
// significant digits keeps only the double's there (12345678901234567.25
// rounds to 12345678901234568; PostgreSQL keeps every digit). A negative n
// rounds to tens, hundreds on PostgreSQL and DuckDB; SQLite takes it as 0.
//
// SQRT(x) and LN(x) take x as a double and are NULL outside their domain
// (x < 0, x <= 0): "SQRT(CASE WHEN CAST(x AS ...) >= 0 THEN CAST(x AS ...)
// END)", where PostgreSQL would fail the query and DuckDB return NaN or
// -inf.
//
// STDDEV_SAMP, STDDEV_POP, VAR_SAMP and VAR_POP (STDDEV and VARIANCE are
// the sample forms) take x as a double and agree to about 1e-15 relative
// with the exact value, also over values like 1e9+1, 1e9+2, ... where the
// textbook formula and DuckDB's own var_samp lose digits: PostgreSQL runs
// its own (exact sums for such values), SQLite aggregates the adapter
// registers (internal/source/sqlitestats: exact sums, one rounding; the
// engine notes that a plain sqlite3 lacks them), DuckDB a corrected
// two-pass form over list(x): the sum of squared deviations from avg(x),
// less (sum of deviations)² / n. That list holds the group's values, so
// its memory grows with the group. NULL over fewer than two values (sample)
// or none (population), as PostgreSQL; not over windows.
//
// # Date units
//
// DATE_PART's dow is 0 (Sunday) to 6 everywhere (PostgreSQL and DuckDB
// EXTRACT(DOW), SQLite strftime('%w')), week the ISO week 1-53 (EXTRACT(WEEK)
// and SQLite's %V, not %W, which numbers 2021-01-03 as week 0), doy 1-366.
// DATE_TRUNC to the week goes back to Monday; to the hour or minute it
// gives a timestamp (SQLite text 'YYYY-MM-DD HH:MM:00') and keeps an
// infinite one as it is, as PERIOD_LABEL keeps its label. Every part of an
// infinite date or timestamp is NULL on every engine; DATE_TRUNC and
// DATE_ADD keep it infinite (SQLite's date functions would give NULL), and
// its PERIOD_LABEL is 'infinity' or '-infinity' in every unit (DuckDB's
// quarter of it is NULL).
//
// DATE_ADD of a timestamp is a timestamp: its time of day is kept, to the
// fraction of a second. By months, quarters or years from a day the
// target month lacks it lands on that month's last day, as PostgreSQL's
// interval arithmetic does (SQLite's 'floor' modifier): 2024-01-31 10:00
// plus a month is 2024-02-29 10:00. A result outside years 1 to 9999 is
// NULL on every engine, of a date as of a timestamp, as FROM_EPOCH_SECONDS
// is (SQLite's date() is NULL past 9999 and writes year 0); PostgreSQL
// and DuckDB decide it in whole days or months before computing it, since
// a result below 4713 BC, or a date moved past the timestamp's range, or
// an amount past 32 bits fails the query there (pgAddInYears).
//
// PostgreSQL's and DuckDB's dates reach millions of years, their
// timestamps only 294276 AD (DuckDB 294247 AD), and their DATE_PART and
// DATE_TRUNC go through a timestamp. Of a date (Func.Temporal, set by the
// validator) they are therefore computed on the date itself: EXTRACT of
// the date, date minus whole days, make_date for the quarter; so is
// DuckDB's PERIOD_LABEL (strftime takes a date), and DATE_ADD decides on
// the date whether its result lies in years 1 to 9999 (NULL if not). A
// date in the year 200000 gives its year, its month's first day and so
// on, where the timestamp form failed the whole query. For example, on
// PostgreSQL and DuckDB
//
//	DATE_TRUNC('month', d)  ->  (CASE WHEN isfinite(d) THEN d - CAST(EXTRACT(DAY FROM d) AS INTEGER) + 1 ELSE d END)
//	DATE_PART('year', d)    ->  (CASE WHEN isfinite(d) THEN CAST(EXTRACT(YEAR FROM d) AS BIGINT) END)
//
// A timestamp keeps the timestamp form; CockroachDB keeps it for dates too.
//
// FROM_EPOCH_SECONDS(x) is the epoch plus x seconds to the nearest
// millisecond, as SQLite keeps time: a column of milliseconds read as
// x / 1000 keeps them, so durations from it (ELAPSED_SECONDS) and their
// averages mean what they do from a timestamp stored as text. The
// milliseconds are FLOOR(x * 1000 + 0.5), one double computed alike on
// every engine, where PostgreSQL's to_timestamp gives an instant in the
// session's time zone and rounds in a double to microseconds that are off
// past 2255, and SQLite's unixepoch rounds its own way. Outside years 1 to
// 9999 it is NULL, where SQLite's dates stop and PostgreSQL would fail the
// query; a whole second is written as before, a fraction as PostgreSQL
// writes it ('1970-01-01 00:00:01.5'):
//
//	FROM_EPOCH_SECONDS(s)  ->  (CASE WHEN v >= -62135596800000 AND v < 253402300800000 THEN <the epoch plus FLOOR(v) milliseconds> END), v = CAST(s AS DOUBLE) * 1000 + 0.5
//	  SQLite:     rtrim(rtrim(strftime('%Y-%m-%d %H:%M:%f', floor(v) / 1000, 'unixepoch'), '0'), '.')
//	  PostgreSQL: (TIMESTAMP '1970-01-01 00:00:00' + CAST(FLOOR(v) AS BIGINT) / 1000 * INTERVAL '1 second' + CAST(FLOOR(v) AS BIGINT) % 1000 * INTERVAL '1 millisecond')
//	  DuckDB:     make_timestamp(CAST(FLOOR(v) AS BIGINT) * 1000)
//
// # LIKE and case
//
// A like matches case-sensitively on every engine: PostgreSQL's and
// DuckDB's LIKE are, and the SQLite adapter sets PRAGMA case_sensitive_like
// = ON. The SQL is therefore rendered the same on the three, as
// "(x LIKE p ESCAPE '\')", and on SQLite it reproduces the run only under
// that pragma (a plain sqlite3 shell folds ASCII case in LIKE); the engine
// says so in any SQLite result whose plan has a case-sensitive like, and an
// empty result whose like or = compares a text column with a literal
// containing letters names "case_insensitive": true, which renders
// "(LOWER(x) LIKE LOWER(p) ESCAPE '\')" everywhere.
//
// # UPPER, LOWER and letters beyond ASCII
//
// UPPER, LOWER and a case_insensitive like (LOWER on both sides) fold
// every letter by Unicode's one-to-one case mapping on every engine, and
// ß upper-cases to ẞ: "Zürich straße" upper-cases to "ZÜRICH STRAẞE",
// "ÉCOLE" lower-cases to "école", and '%ångström%' matches "Zoë Ångström"
// case-insensitively. No engine expands a letter into two (ß is not "ss").
// DuckDB folds so itself. SQLite's own upper and lower fold A-Z only, so
// the SQLite adapter registers unicode_upper and unicode_lower, which fold
// every letter, and the renderer writes those (internal/source/sqlitefold;
// a plain sqlite3 shell lacks them, and the engine says so beside SQL that
// calls them).
// PostgreSQL folds by its database's LC_CTYPE: under C, A-Z only, and the
// adapter then names a collation that folds one to one (pg_c_utf8, or a
// libc UTF-8 locale such as C.utf8), which the renderer applies
// (Postgres.Fold):
//
//	REPLACE((UPPER(x COLLATE "C.utf8") COLLATE "default"), 'ß', 'ẞ')
//
// The result keeps the database's collation. A server with no such
// collation folds A-Z only, and the adapter logs so when it opens
// (TestCaseFoldingBeyondASCII runs each engine).
//
// # Decimal scale
//
// A decimal is shown at the scale the database returns, in the structured
// rows (a JSON number written 349.00) and every human rendering alike
// (internal/source's encoding, internal/cellfmt): a NUMERIC(10,2) or
// DECIMAL(10,2) 349.00 is 349.00, and so is SUM or MIN of it on
// PostgreSQL and DuckDB. SQLite has no decimal type: a column declared
// with a scale is shown at it (its 349 is 349.00), and so are SUM, MIN and
// MAX of it, which SQLite computes as doubles (361.50, not 361.5); any
// other computed value is a double shown as the shortest text. The scale 10 the rendering itself gives a cast to decimal or a
// product of decimals (DECIMAL(38,10)) is not the data's and drops its
// trailing zeros (3, 174.5), and ROUND(x, n) with a literal n shows n
// decimals on every engine (349.0), where DuckDB and SQLite round doubles
// (engine/result's ShowDecimalScales).
//
// Two or more decimals met in one result (a union's column, a CASE, a
// COALESCE, LAG or LEAD with a default: planast.Case.Decimals) DuckDB
// types with the larger integer part, rounding the other's decimals (a SUM,
// DECIMAL(38,4), beside 0.12345 gave 0.1235). Each branch is cast to
// DECIMAL(38,10) there, the type of decimal arithmetic, or to DECIMAL(38,s)
// when a decimal column (its declared scale, planast.Column.Scale) or
// literal the plan reads has s > 10 digits after the point (an amount of
// DECIMAL(38,18) keeps its 18), and such a result drops trailing zeros.
//
// # Values not of the column's type
//
// SQLite stores any value in any column: 'abc' in an INTEGER column,
// 2024-02-30 or 45000 in a DATE one, a venue's name in a BOOLEAN one. PostgreSQL and DuckDB cannot, so one
// meaning on every engine is to read such a value as NULL, as the cast rule
// reads text that holds no number or date. Profiling counts them
// (schema.ColumnProfile.Invalid, with Valid); a column with any is marked
// Mixed in the catalog, Validate sets Column.ReadAs, and the SQLite
// renderer reads it through ReadAs:
//
//	(CASE WHEN typeof("o"."qty") IN ('integer', 'real') THEN "o"."qty" ELSE <the cast rule of text to integer> END)
//
// A date reads as its first ten characters, a timestamp as stored, a
// boolean as 1 or 0 from those numbers or the text PostgreSQL reads as a
// boolean ('yes', 'FALSE'; 2 and 'St. Mirren Park' are none). Columns
// without such values render as before, so their indexes still serve;
// the result names each column read this way, how many values were NULL
// for it and the least of them (engine/warnings). Such a column cast to
// text is COALESCE(CAST(<its reading> AS TEXT), CAST(<column> AS TEXT)):
// the values its type reads, as read, and the others as the text stored,
// the one way a plan lists them to mend them; a boolean column's is
// CAST(<column> AS TEXT), every value as stored, as its reading as text
// ('1' for 'y') shows nothing the column does not, where the stored text
// counts 'y' apart from 1 (only SQLite casts a boolean to text: the
// validator refuses the cast of a column holding booleans alone).
//
// A text column cast to a date, a timestamp or a number reads the values
// that hold none as NULL by the cast rule (textcast.go); so does a date
// function of text (PERIOD_LABEL, DATE_PART, DATE_TRUNC, DATE_ADD,
// DATE_DIFF_DAYS, ELAPSED_SECONDS), whose text argument Validate casts
// to date (to timestamp for the hour or minute, and for ELAPSED_SECONDS,
// which on SQLite keeps the fraction the text writes, to the microsecond,
// as the other engines do), where PostgreSQL and DuckDB failed
// on the first 'n/a' and SQLite read 2024-02-30 as a day of March.
// Profiling counts such values, with CastValid, for a text column whose
// samples mostly hold dates or numbers (schema.ColumnProfile.CastNulls),
// and the result names the column, the count and the least of them.
//
// Either reading is a CASE of up to two kilobytes, and a plan names its
// columns many times, so each table reads each such column once, in a
// derived table beside its stored columns (readonce.go), and every
// reference names the reading:
//
//	FROM (SELECT *, <the cast of "s" to timestamp> AS "s::timestamp" FROM "e") AS "e"
//	… ELAPSED_SECONDS: julianday("e"."s::timestamp") - …
//
// Every engine flattens such a subquery into its query.
//
// # Scalar subqueries, SUBSTR lengths and numbers as text
//
// A subquery used as a value (kind "subquery") that returns more than one
// row fails the query on every engine, with one error: QUERY_FAILED "more
// than one row returned by a subquery used as an expression" and a hint
// (internal/source.SeveralRowsHint; the adapters map PostgreSQL's 21000,
// DuckDB's message and SQLite's below onto it). No row is NULL, one row its
// value. PostgreSQL and DuckDB fail by themselves; SQLite took the first
// row in scan order, so it renders (oneRowSQLite)
//
//	(SELECT * FROM (<subquery>) GROUP BY NULL HAVING CASE WHEN COUNT(*) > 1
//	 THEN json_extract('{}', 'more than one row returned by a subquery used as an expression') ELSE 1 END)
//
// which runs the subquery once and raises "JSON path error near 'more
// than one row ...'", in a plain sqlite3 too. A subquery that cannot
// return two rows (a limit of 1, an aggregate without group_by or set
// operations) renders as it is. The cost is the engines' own: to know
// there is no second row every matching row is read, where SQLite stopped
// at the first (a subquery finding its row 5th in a 200,000-row scan took
// 0.1 ms plain and 8 ms checked; a correlated lookup by primary key, 0.38
// µs against 0.55 µs of CPU per outer row).
//
// SUBSTR has SQLite's meaning everywhere: a negative start counts from the
// end, a negative length takes the characters before the start
// (SUBSTR('abcdef', 4, -2) is 'bc'). Validate refuses a negative literal
// length as a mistake; a length computed at run time may be negative, and
// PostgreSQL (which fails on it) and DuckDB (which first moves a start
// beyond the end back to the end) render "CASE WHEN n < 0 THEN start + n
// ELSE start END" as the start and ABS(n) as the length (substrSQLite).
// PostgreSQL's substr takes 32-bit positions: a start or length beyond
// ±2^31 fails the cast there.
//
// A float or decimal is never cast to text, explicitly or as the text
// CONCAT or like needs: Validate refuses it (TYPE_MISMATCH) with a hint that pastes
// in, the number as its own column or {"kind":"cast","expr":{"kind":
// "cast","expr":{"kind":"func","name":"ROUND","args":[x]},"type":
// "integer"},"type":"text"}. Each engine prints such numbers its own way
// (2.0 is '2.0' on SQLite and DuckDB, '2' on PostgreSQL; 0.1 + 0.2 is '0.3'
// on SQLite's 15 digits and '0.30000000000000004' elsewhere; 1e20, NaN and
// a NUMERIC(10,2)'s trailing zeros differ too), and no rendering prints
// every double alike on the three (SQLite has no shortest round-trip
// printing), so a label or a text comparison would have changed with the
// engine. Integers print the same everywhere and are cast as before; a
// number a user reads comes back as a number, formatted alike (see
// "Decimal scale").
//
// # Known gaps
//
// Some differences depend on the data, not on the plan, and are not
// caught: SQLite decimals are floating point; SQLite date functions return NULL
// beyond year 9999; PostgreSQL's PERIOD_LABEL of a date past the
// timestamp range (above) fails (to_char takes a timestamp); a SQLite column whose profile is out of date (values not of
// its type stored after the last profile) computes with them until the
// next profile marks it (see "Values not of the column's type"). A float result beyond ±1.8e308 from
// finite operands (1e300 * 1e300, 1e300 / 1e-300) is ARITHMETIC_OVERFLOW
// on PostgreSQL and ±Infinity on SQLite and DuckDB.
package render
