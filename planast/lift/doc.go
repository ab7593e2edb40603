// Package lift turns an SQL query into the plan that means the same: the
// inverse of render. It serves the oracle evaluation (benchmark gold SQL
// lifted into plans, see internal/eval) and `nl2sql plan from-sql`.
//
// # Worked example
//
// On a schema with singer(Singer_ID integer, Name text, Country text, Age
// integer), the SQLite query
//
//	SELECT name, count(*) FROM singer WHERE country = "France" AND age > '20'
//	GROUP BY name ORDER BY 2 DESC LIMIT 3
//
// lifts to
//
//	{"select": [{"expr": {"kind": "column", "table": "t1", "column": "Name"}, "alias": "Name"},
//	            {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "count"}],
//	 "from": [{"table": "singer", "alias": "t1"}],
//	 "where": {"kind": "binary", "op": "and",
//	   "left": {"kind": "binary", "op": "=", "left": {"kind": "column", "table": "t1", "column": "Country"},
//	            "right": {"kind": "literal", "type": "string", "value": "France"}},
//	   "right": {"kind": "binary", "op": ">", "left": {"kind": "column", "table": "t1", "column": "Age"},
//	            "right": {"kind": "literal", "type": "integer", "value": 20}}},
//	 "group_by": [{"kind": "column", "table": "t1", "column": "Name"}],
//	 "order_by": [{"expr": {"kind": "column", "column": "count"}, "direction": "desc"}],
//	 "limit": 3}
//
// The table got the alias t1 (the SQL gave none) and every column is
// qualified with the catalog's spelling; "France" names no column, so it is
// SQLite's string literal; '20' compared with an integer column is the
// number 20, as SQLite's column affinity makes it; ORDER BY 2 names the
// second output column.
//
// # How
//
// The SQL is first normalised lexically by package normalize, over the
// module's one SQL scanner (internal/sqlscan, SQLite's spellings read)
// (backticks and brackets become double quotes, LIMIT a, b becomes LIMIT b OFFSET a, == becomes =,
// SQLite's JOIN without ON gets ON TRUE, x IS y becomes IS NOT DISTINCT
// FROM), then parsed by PostgreSQL's own parser (pg_query_go, cgo), and the
// tree is walked into plan nodes with a scope per SELECT, resolving every
// name against the catalog, the CTEs and the derived tables in view.
//
// DuckDB's SQL is read as PostgreSQL's (its parser reads both) but for what
// DuckDB means otherwise: its / divides as floats (7 / 2 is 3.5; its // is
// the plan's div) and NULLs sort last in either direction.
//
// The lift keeps the dialect's meaning, not its spelling. For SQLite that
// means its dynamic typing: double-quoted tokens that resolve to nothing
// are strings; a literal compared with a column takes the column's
// affinity; integer / integer is the plan's div; strftime('%Y', x) is
// DATE_PART compared as a number but returned as text; strftime('%Y-%m' or
// '%Y-%m-%d', x), DuckDB's strftime(x, format) and PostgreSQL's to_char(x,
// 'YYYY' | 'YYYY-MM' | 'YYYY-MM-DD') are PERIOD_LABEL (other formats are
// refused naming the format); strftime(format, x, 'unixepoch') is
// strftime(format, datetime(x, 'unixepoch')); substr(x, -n) counts from the end as the
// plan's SUBSTR does (PostgreSQL's substr with a start below 1 is refused);
// left and right are LEFT and RIGHT; PostgreSQL's FETCH FIRST n ROWS WITH
// TIES is the plan's with_ties, and DuckDB's QUALIFY on output aliases
// lifts as the filter over a derived table it means; LIKE ignores case;
// NULLs sort first; PostgreSQL's and DuckDB's x AT TIME ZONE z (and
// timezone(z, x)) of an instant (a timestamptz column, now()) is
// AT_TIME_ZONE(x, z), and of a timestamp without zone is refused unless
// read in UTC first, (x AT TIME ZONE 'UTC') AT TIME ZONE z (SQLite has no
// time-zone conversion: there it is refused as unavailable); x ± interval
// 'n unit' of year, month, week or day is DATE_ADD (see shift), and so is
// date ± an integer, days (CURRENT_DATE - 7; see dayShift); agg(x)
// FILTER (WHERE c) is agg(CASE WHEN c THEN x END); text with a UTC offset
// compared with a timestamp is the plan's timestamp literal PostgreSQL
// compares (see offsetLiteral); a bare column of an aggregate query is accepted only
// where its value is determined (its table's primary key grouped, directly
// or through a join equality). What cannot be said in the plan language is
// refused with *Unsupported naming the construct — the lift never
// approximates. The one documented exception: a text column compared with
// a number column is read as CAST(text AS decimal), as SQLite's numeric
// affinity does, except that text which is no number reads as 0 there.
//
// The plans are not validated here: run validate.Plan. A lifted plan the
// validator refuses is a gap worth reporting.
package lift
