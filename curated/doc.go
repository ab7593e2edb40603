// Package curated holds verified queries: SQL written and reviewed by a
// person, answered for a question that matches it with only the parameter
// values filled in by the model (plan_source "verified").
//
// # The file
//
// nl2sql.yaml names it (curated: curated.yaml, relative to the config):
//
//	min_similarity: 0.6            # optional, see Match
//	allow_recursive: false         # optional: WITH RECURSIVE refused unless true
//	plan_timeout_seconds: 5        # optional: bound on planning one query
//	verified_queries:
//	  - id: revenue_by_country
//	    datasource: chinook
//	    description: Revenue per billing country for one year
//	    questions: ["What was revenue by country in 2024?", "Sales per country last year"]
//	    sql: |
//	      SELECT BillingCountry, SUM(Total) AS revenue FROM Invoice
//	      WHERE strftime('%Y', InvoiceDate) = :year GROUP BY BillingCountry
//	    params:
//	      - {name: year, type: string, required: true, pattern: "^[0-9]{4}$", example: "2024"}
//
// Param types: string (pattern, choices, max_length), integer and number
// (min, max), boolean, date (YYYY-MM-DD); every type takes required,
// default, example and description (see Param).
//
// # Validation (`nl2sql curated validate`, and at startup)
//
// Open loads the file and File.Check refuses, with a code and a reason
// each, any query that is not exactly one SELECT (or WITH … SELECT):
//
//  1. lexical pass (lex.go) over the module's one SQL scanner
//     (internal/sqlscan: PostgreSQL's; for SQLite, its `…` and […]
//     identifiers and comments holding "/*" are refused with a hint, since
//     the two scanners would split them differently): :name placeholders
//     outside quotes and comments
//     become $1, $2, … (PostgreSQL's parser takes $k, not :name) and must
//     be exactly the declared params; comments are removed so that the
//     text that runs is the text that was parsed; NUL bytes, unterminated
//     quotes or comments, "$" and "?" outside quotes (dollar quoting,
//     positional parameters) and prefixed strings (E'…') are refused;
//  2. parse with pg_query (PostgreSQL's own parser, also for SQLite and
//     DuckDB SQL): exactly one statement, a SelectStmt, no INTO, no
//     FOR UPDATE, no data-modifying CTE at any depth, WITH RECURSIVE only
//     when allowed, every function on the dialect's allow-list (funcs.go),
//     no functions in FROM (read_csv, glob, generate_series, …). SQL the
//     parser does not take (PRAGMA, ATTACH) is refused: a verified query
//     must be plain SQL both sides read alike; and the text must pass the
//     statement gate every run meets (source.CheckStatement), so that what
//     validates is what runs (TABLE t parses as a SELECT, but no run
//     would take it);
//  3. every table it reads exists in the datasource and some role may
//     read it; CTE names are resolved by scope, as the databases do, so a
//     CTE cannot hide a table read;
//  4. the database compiles it with the example values bound, under
//     plan_timeout_seconds, without reading a row (an Explainer source, or
//     SELECT 1 FROM (<query>) AS q LIMIT 0).
//
// Validate prints "ok <id>" or "refused <id>: <CODE>: <reason>" per query
// and returns an error wrapping ErrRefused when anything was refused (exit
// 1). Test (`nl2sql curated test`) then runs each with its examples.
//
// # Running
//
// Values are typed and checked (Bind) and bound by the driver by position
// ($k on PostgreSQL and DuckDB, ?k on SQLite), never spliced into the
// text: for revenue_by_country the value "2024'; DROP TABLE Invoice; --"
// fails the pattern, and without one it is compared as a string and
// matches nothing. Run refuses a caller who may not read every table and
// column the query reads (hidden columns: by name, and no *, NATURAL join
// or whole-row reference on such a table), and applies row filters by
// wrapping each read of a filtered table, at its parse-tree position, in
// the filtered derived table of scope.ApplyRowFilters rendered in the
// dialect: for jane (rep, employee_id 3)
//
//	SELECT c.CustomerId FROM Customer AS c
//
// runs as
//
//	SELECT c.CustomerId FROM (SELECT "Customer"."CustomerId" AS "CustomerId", …
//	  FROM "main"."Customer" AS "Customer" WHERE ("Customer"."SupportRepId" = 3)) AS c
//
// Where that cannot be done safely (ONLY t, a name the text and tree
// disagree on, a filter that cannot be applied, a result that is no longer
// one SELECT) the query is refused with ROW_FILTER, never run unfiltered.
//
// # In ask
//
// Set.Answer matches the question against the queries the caller may run
// (Runnable) with a Matcher (TokenMatcher: normalised token overlap, swap
// in the retrieval index's scorer); at or above min_similarity the model
// gets a ParamRequest (question, description, params and their JSON
// Schema; never the SQL) and answers one JSON object, which Bind checks,
// and Run executes the verified SQL: no planner call. Below it the
// generated path runs. List and RunByID back list_verified_queries and
// run_verified_query, showing and running only what the caller may run.
package curated
