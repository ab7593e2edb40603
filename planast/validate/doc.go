// Package validate is the stage between a decoded plan and its SQL: it
// checks a planast.Query against a Catalog and an optional Access checker,
// and returns a Result whose plan spells every name as the catalog spells
// it. Everything a renderer could refuse, or would render with another
// meaning on SQLite, DuckDB or PostgreSQL, Plan refuses first; render's
// parity and fuzz tests hold it to that. It never decodes JSON nor writes
// SQL; its refusals are planast's typed *Error, one Issue per finding.
//
// # Worked example
//
// Artists with more than one album, most albums first. The model wrote
// lower-case names and selected ar.name without grouping it:
//
//	{
//	  "select": [{"expr": {"kind": "column", "table": "ar", "column": "name"}, "alias": "artist"},
//	             {"expr": {"kind": "func", "name": "count", "args": []}, "alias": "albums"}],
//	  "from": [{"table": "album", "alias": "al"}, {"table": "artist", "alias": "ar"}],
//	  "joins": [{"left": "al", "right": "ar", "on": [{"left_column": "artistid", "right_column": "ArtistId"}]}],
//	  "group_by": [{"kind": "column", "table": "ar", "column": "ArtistId"}],
//	  "having": {"kind": "binary", "op": ">", "left": {"kind": "func", "name": "COUNT", "args": []},
//	             "right": {"kind": "literal", "value": 1}},
//	  "order_by": [{"expr": {"kind": "column", "column": "albums"}, "direction": "desc"}],
//	  "limit": 10
//	}
//
// Against a catalog with Artist(ArtistId integer primary key, Name text) and
// Album(AlbumId, Title, ArtistId), Plan accepts it: ar.Name depends on
// the grouped primary key ar.ArtistId. The validated plan (Result.Plan,
// in canonical form) spells every name as the catalog does, fills in the
// join type, the literal's type and the sort direction, and adds ar.Name to
// group_by, which changes no group but which DuckDB requires:
//
//	{"select":[{"expr":{"kind":"column","table":"ar","column":"Name"},"alias":"artist"},
//	  {"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"albums"}],
//	 "from":[{"table":"Album","alias":"al"},{"table":"Artist","alias":"ar"}],
//	 "joins":[{"type":"inner","left":"al","right":"ar","on":[{"left_column":"ArtistId","right_column":"ArtistId"}]}],
//	 "group_by":[{"kind":"column","table":"ar","column":"ArtistId"},{"kind":"column","table":"ar","column":"Name"}],
//	 "having":{"kind":"binary","op":">","left":{"kind":"func","name":"COUNT","args":[]},
//	   "right":{"kind":"literal","type":"integer","value":1}},
//	 "order_by":[{"expr":{"kind":"column","column":"albums"},"direction":"desc"}],"limit":10}
//
// with Result.Columns [artist albums] and Result.Types [text integer].
// Had the plan named a column "nme", Plan would have answered
//
//	invalid plan: COLUMN_NOT_FOUND at select[0].expr.column: "ar" has no column "nme"; did you mean "Name"?
//
// ExamplePlan runs exactly this; package render shows the SQL it
// becomes on each engine.
//
// # Portability rules
//
// Beyond names, types and grouping, Plan makes a plan mean one thing on
// every engine. Among others: "/" is true division and "div" truncates; "%"
// takes integers only; a condition must be boolean (no integer flags); a
// date compared with a timestamp (=, !=, <, <=, >, >=, BETWEEN, IN lists)
// covers its whole day: ts BETWEEN DATE '2024-03-01' AND DATE '2024-03-31'
// is ts >= '2024-03-01 00:00:00' AND ts < '2024-04-01 00:00:00', ts = d is
// all of day d, ts <= d includes day d, ts > d starts the next day, ts < d
// and ts >= d start at d's midnight (a date-shaped string literal counts as
// a date; elsewhere a date meeting a timestamp is refused); a string
// literal compared with a date or timestamp becomes a date or timestamp
// literal; every comparison of dates or timestamps is marked "temporal" in
// the validated plan, and SQLite, which stores them as ISO text of several
// shapes, compares both sides in one shape there (see render); a cast of
// text to a number, date or timestamp is the value the text holds or NULL
// (as TRY_CAST: never 0, an error or a date of another shape; the cast is
// marked FromText and render/textcast.go writes it), and a string literal
// cast to one that holds none, such as {"kind":"cast","expr":{"kind":
// "literal","value":"2024-02-30"},"type":"date"}, is refused with
// INVALID_VALUE; SUBSTR counts a negative start
// from the end as SQLite does; constant ORDER BY and GROUP BY keys are
// refused (engines read ORDER BY 2 as a column position); having and
// aggregates in order_by need group_by or an aggregate in select; CAST is
// limited to conversions every engine performs alike; an untyped NULL may
// not stand where an engine must choose its type, nor a column of unknown
// type (a SQLite view's computed column: the refusal names it and the
// cast to write); recursive or forward CTE
// references, subqueries or outer columns in outer-join conditions and full
// joins without key pairs are refused.
//
// The names a plan gives (a select item's alias, a from item's alias, a
// CTE's name) are read by people, as headers and in the SQL shown: one
// that is blank or holds a character that is not shown but acts (a bidi
// override, a zero-width space: cellfmt.Hidden) is refused with
// INVALID_VALUE and a hint (names.go).
//
// # Warnings
//
// A valid plan can still answer another question than it seems to ask;
// Result.Warnings says so without refusing it: a join no foreign key
// declares (but for one on a key named as the other's, on a column named
// for the table the other's foreign key references: subscriptions.currency
// to fx_rates.ccy, a foreign key to currencies; or on a lookup table's
// whole declared key, by the on-pairs and the condition's equalities,
// beside a pair of one name or so related: fx_rates on currency with its
// month fixed), an aggregate a join repeats rows under (fanout.go: declared
// keys, or an undeclared key the profile saw repeat), COUNT over a CASE
// with an ELSE value, and a WHERE condition that turns an outer join into
// an inner one (traps.go).
//
// Hidden tables and columns (Access) are reported as not found, never as
// denied, so that a refusal does not reveal that they exist; validate never
// produces ACCESS_DENIED.
package validate
