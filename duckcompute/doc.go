// Package duckcompute combines the results of several datasources in an
// in-process DuckDB database: the last step of a question that needs more
// than one datasource (engine/multi.go).
//
// Each sub-query's rows are loaded with DuckDB's Appender into a table
// named by the sub-query's id, with the column types its expected schema
// declares (DB.Load). The combination itself is a plan in the plan language
// (planast): every combine group (join, compare, union; see Group) is
// compiled to a planast.Query and becomes a CTE, and the final plan — the
// filters, aggregates, computed columns, sort and limit after the combine —
// reads the tables and groups by name. Prepare checks all of it with
// validate.Plan before any data exists, and DB.Run validates it again
// against the loaded tables, renders it with render.DuckDB and runs it:
// one validator and one renderer serve the datasources and the combination.
//
// Columns are typed from the portable types: integer BIGINT, float DOUBLE,
// text VARCHAR, boolean, date, timestamp, blob, and decimal
// DECIMAL(38,S) with one scale S for the whole database
// (Options.DecimalScale; the engine passes the most fraction digits any
// loaded value needs, as far as the largest value's integer digits leave
// room, and says which values it rounded), because DuckDB rounds a UNION or COALESCE of two
// DECIMAL(38,s) of different scales to the smaller one.
//
// Two kinds of value have no DuckDB column of their type that holds them,
// and a column holding one is appended as VARCHAR with each value's exact
// text (textColumns): an infinite timestamp, which the Appender refuses
// (Load then casts the column back to TIMESTAMP, which holds "infinity"),
// and a decimal beyond DECIMAL(38,S), as a PostgreSQL numeric may be (that
// column stays VARCHAR: the same digits come back, it compares and sorts
// as text and has no arithmetic). Both keep their portable type in the
// catalog, so the combination's column types are the inputs' types.
//
// Join keys are cast to one type before the join (KeyType): the key
// columns of loaded tables are retyped in Combination.Tables and each value
// is converted as it is loaded. A value that does not convert (the text
// "seven" in an integer key) is loaded as NULL, joins nothing and is
// reported as a Warning; it never fails the load. Results are read with the
// DuckDB adapter's value encoding (duckdb.QueryDuckDBConn), so a combined
// row reads exactly like a datasource row.
//
// The database is in memory and never touches a file or the network:
// external access, extension loading and spilling are off from the start,
// and the first Run (or Seal) sets lock_configuration, after which no
// setting can change and nothing more can be loaded.
//
// # Worked example
//
// Revenue per genre comes from one datasource, targets from another whose
// genre ids came back as text. Two shapes:
//
//	sq_sales(genre_id integer, genre text, revenue decimal)
//	sq_targets(genre_id text, revenue decimal)
//
// one join group,
//
//	Group{Name: "cg_joined", Op: OpJoin,
//	      Inputs: []Input{{Table: "sq_sales", Label: "sales", Role: "left"},
//	                      {Table: "sq_targets", Label: "targets", Role: "right"}},
//	      Keys: []Key{{Left: "genre_id", Right: "genre_id"}}}
//
// and a final plan that keeps the genres that beat their target:
//
//	{"select": [{"expr": {"kind": "column", "table": "j", "column": "genre"}, "alias": "genre"},
//	            {"expr": {"kind": "column", "table": "j", "column": "revenue"}, "alias": "revenue"},
//	            {"expr": {"kind": "column", "table": "j", "column": "targets_revenue"}, "alias": "target"}],
//	 "from": [{"table": "cg_joined", "alias": "j"}],
//	 "where": {"kind": "binary", "op": ">", "left": {"kind": "column", "table": "j", "column": "revenue"},
//	           "right": {"kind": "column", "table": "j", "column": "targets_revenue"}}}
//
// Prepare retypes sq_targets.genre_id to integer (KeyType(integer, text)).
// The group keeps the left-hand columns and adds the right-hand ones but
// its key; "revenue" clashes, so the right-hand one is named after its
// input's label, targets_revenue. Loading the targets rows
// {"1", 150}, {"3", "70.00"}, {"seven", 60.5} warns
//
//	1 value(s) of sq_targets.genre_id did not convert to integer (first: "seven") and were loaded as NULL
//
// and DB.Run renders and runs
//
//	WITH "cg_joined" AS (SELECT "l"."genre_id" AS "genre_id", "l"."genre" AS "genre", "l"."revenue" AS "revenue", "r"."revenue" AS "targets_revenue"
//	FROM "main"."sq_sales" AS "l"
//	INNER JOIN "main"."sq_targets" AS "r" ON "l"."genre_id" = "r"."genre_id")
//	SELECT "j"."genre" AS "genre", "j"."revenue" AS "revenue", "j"."targets_revenue" AS "target"
//	FROM "cg_joined" AS "j"
//	WHERE ("j"."revenue" > "j"."targets_revenue")
//	ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
//	LIMIT 101
//
// returning one row, Rock 162.36 150.00 (columns genre text, revenue decimal,
// target decimal). Example runs exactly this.
//
// # Groups
//
// A join takes two inputs, one left-hand (role left, base or primary) and
// one right-hand (right, compare or secondary), at least one key pair and a
// join type (inner, left or full). Its output is every left-hand column,
// then every right-hand column but its keys, a clashing name becoming
// LABEL_name. In a full join a key is COALESCE(left, right). A compare is a
// full join: rows of both sides are kept, side by side where keys match,
// and the final plan computes differences. A union stacks two or more
// inputs with the same number of columns (UNION ALL, named by the first
// input in role order), and with LabelColumn set adds a first column that
// holds each row's input label.
package duckcompute
