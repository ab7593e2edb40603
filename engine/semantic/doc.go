// Package semantic is the semantic layer a data owner writes for one
// datasource (semantic.yaml, named by the datasource's "semantic" key in
// nl2sql.yaml): table and column descriptions and synonyms, value labels
// (code → meaning), named metrics and filters written in the plan
// language, relationships the database does not declare, and the fiscal
// calendar.
//
// Parse reads the file with go.yaml.in/yaml/v3 nodes, so every problem
// keeps its line; Check validates it against the datasource's
// schema.Snapshot (tables, columns, and each metric's and filter's
// expression through validate.Plan over its table alone) and returns a
// Layer. Load does both. A Layer
//
//   - implements planast.Definitions, so planast.Expand replaces
//     {"kind":"metric","name":"revenue","table":"il"} in a plan with the
//     metric's expression before validation (scope and the validator see
//     the real tables and columns);
//   - enriches a snapshot copy for retrieval and describe_schema (Apply:
//     descriptions, synonyms, value labels and definition names go into
//     comments, relationships become foreign keys);
//   - renders the definitions concerning the retrieved tables for the
//     planner's schema context (Context);
//   - serves its file's bytes (Raw) as an MCP resource.
//
// Open is Load for a datasource as it opens (no file: no layer; a bad
// file: SEMANTIC_INVALID naming the datasource), and Expand, Used and
// SchemaContext take a nil *Layer, so a datasource without a layer walks
// the same calls and its prompts stay byte-identical.
//
// Suggest drafts a starting file from a profiled snapshot.
//
// # Worked example
//
// With examples/chinook/semantic/semantic.yaml loaded against Chinook,
//
//	metrics:
//	  - name: revenue
//	    table: InvoiceLine
//	    expr: {kind: func, name: SUM, args: [{kind: binary, op: "*",
//	           left: {kind: column, column: UnitPrice}, right: {kind: column, column: Quantity}}]}
//
// Layer.Metric("revenue") is the validated expression with its columns
// qualified by the table, and a plan selecting
// {"kind":"metric","name":"revenue","table":"il"} from InvoiceLine AS il
// expands (planast.Expand) to SUM(il.UnitPrice * il.Quantity), which the
// SQLite renderer writes SUM(("il"."UnitPrice" * "il"."Quantity")) in every
// plan that uses the alias il. A definition may read further tables
// (join_tables: [Invoice], each joined by a foreign key or a declared
// relationship; its columns name their table): revenue_per_customer's
// COUNT(DISTINCT Invoice.CustomerId) expands to COUNT(DISTINCT i.CustomerId)
// in a plan reading Invoice AS i. Had the metric named a column Discount, Load
// would have answered
//
//	semantic layer: semantic.yaml:8:34: metric "revenue": COLUMN_NOT_FOUND: no source in scope has a column "Discount"
package semantic
