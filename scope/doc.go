// Package scope decides what a caller may read. It is the only package
// that matches access patterns (an architecture test, arch_test.go, fails
// when another package does); everything else asks a *Scope.
//
// # Configuration (nl2sql.yaml, shapes checked by internal/config)
//
//	roles:
//	  analyst:
//	    allow: ["chinook"]                                   # a datasource: all its tables
//	    deny:  ["chinook.main.Employee", "chinook.main.Customer.Email"]
//	  rep:
//	    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
//	    row_filters:
//	      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
//	users:
//	  - {name: alice, roles: [analyst], tokens_sha256: ["<hex sha256 of the token>"]}
//	  - {name: jane, roles: [rep], attributes: {employee_id: 3}, tokens_sha256: ["..."]}
//	local_user: alice
//
// A pattern is "ds", "ds.schema.table" or "ds.schema.table.column"; each
// part may use * and ? and matches case-insensitively (glob.go, on
// github.com/gobwas/glob with every other character quoted: no regular
// expressions from configuration); "*" alone matches everything. Within a
// role deny beats allow; a table is readable when some role allows it and
// that role does not deny it; a column when, in addition, that role allows
// and does not deny the column. A column pattern in allow makes its table
// readable with only those columns. No role, or an unknown one, allows
// nothing. A name given without a schema is in the datasource engine's
// default schema (main; public on PostgreSQL).
//
// # Views
//
// A view reads its tables whatever a role may read of them, so a role
// reads a view only when it reads everything the view reads (views
// through views included) whole: allowed, no column denied or left out
// of its allow, no row filter (views.go). The engine records what each
// datasource's views read with SetViews from its snapshot
// (schema.Table.Reads). A role that means to show a view over what it
// hides names the view itself in allow, with no wildcard. HiddenViews
// lists the views a role's patterns allow but this rule hides, each with
// the first relation it needs whole (nl2sql doctor prints them).
//
// # Patterns that match nothing
//
// A user naming a role that is not defined is refused by the config
// loader (internal/config); New still accepts one, allowing nothing, and
// lists it in Warnings. A pattern or row-filter table that matches
// nothing in its datasource's snapshot hides or grants nothing, which for
// a deny with a typo means the data meant to be hidden stays readable.
// Unmatched (unmatched.go) lists them with the closest real name
// (planast.Nearest, the did-you-mean rule of the validator); nl2sql doctor
// fails on them and serve and ask warn on stderr at start. They are not
// refused at run time (the datasource is not closed to the role): the
// policy is compiled without snapshots and a decision must not change
// with the schema, and a deny of a table created later is legitimate.
//
// Without a roles section the server is single-user: Policy.Local and
// every authenticated HTTP caller read everything (SingleUser). HTTP still
// needs users with tokens unless told to serve a loopback address without
// authentication (Policy.CheckHTTP).
//
// # Worked example
//
// With the configuration above, New(cfg) compiles the policy and:
//
//	alice, _ := pol.ForUser("alice")
//	alice.Reaches("chinook")                                  // true
//	alice.AllowTable("chinook", "", "invoice")                // true: main is the default schema, any case
//	alice.AllowTable("chinook", "main", "Employee")           // false: denied
//	alice.AllowColumn("chinook", "main", "Customer", "Email") // false: hidden
//	jane, _ := pol.Authenticate(janeToken)                    // sha256(token), constant-time compare
//	jane.AllowTable("chinook", "main", "Track")               // false: rep allows two tables
//	jane.RowFilters("chinook", "main", "Customer")            // [{Where: "(SupportRepId = :employee_id)"}]
//
// Validation asks the same scope through planast.Access:
//
//	validate.Plan(plan, snap, validate.Options{Access: alice.Checker("chinook")})
//
// refuses a plan reading Employee anywhere (a subquery, a CTE, a set
// operation) with TABLE_NOT_FOUND, exactly as for a table that does not
// exist. Before validation, ApplyRowFilters rewrites a plan of jane's,
//
//	{"select": [{"expr": {"kind": "func", "name": "count", "args": []}, "alias": "n"}],
//	 "from": [{"table": "Customer", "alias": "c"}]}
//
// into
//
//	{"select": [...same...],
//	 "from": [{"subquery": {"select": [{"expr": {"kind": "column", "table": "Customer", "column": "CustomerId"}, "alias": "CustomerId"}, ...every visible column...],
//	                        "from": [{"schema": "main", "table": "Customer", "alias": "Customer"}],
//	                        "where": {"kind": "binary", "op": "=", "left": {"kind": "column", "table": "Customer", "column": "SupportRepId"},
//	                                  "right": {"kind": "literal", "type": "integer", "value": 3}}},
//	           "alias": "c"}]}
//
// so she counts only her customers, wherever the plan reads Customer.
//
// # Row filters
//
// A filter's where is parsed once, by New, with a small grammar of its
// own (filterparse.go: comparisons, AND/OR/NOT, IS [NOT] NULL, [NOT] IN,
// [NOT] BETWEEN, [NOT] LIKE over the table's columns, literals and :name
// parameters; planast/lift was not available when this was written). Each
// :name is bound per caller from users[].attributes as a typed literal. A
// filter that cannot be applied for a caller (a missing attribute, a
// filter column missing or hidden from the caller, no visible column)
// refuses the plan (ErrRowFilter); nothing runs unfiltered. The caller is
// told only that; the *FilterError's Problem names the role, the filter and
// the missing column or attribute for the operator (the engine's log, the
// run's trace), and FilterProblems (filtercheck.go) finds the same faults
// ahead of any query, against the snapshot and the static users, for
// nl2sql doctor (which fails on them) and the start-up warnings.
//
// # Where the engine asks
//
//   - datasource resolution, before any model call: Reaches (treat an
//     unreachable datasource as unknown) and Screen (a question about
//     hidden tables is refused with ErrNotReadable, naming nothing);
//   - retrieval, prompts, schema description and search, resources:
//     FilterSnapshot;
//   - every plan (generated, supplied by a client, from the plan cache):
//     ApplyRowFilters, then validate.Plan with Checker;
//   - verified queries: package curated, which uses this package;
//   - HTTP: Authenticate per request (static tokens), or ForToken with
//     the user, roles and attributes package oauth read from an identity
//     provider's access token; CheckHTTP at start.
package scope
