// Package planast is the plan language: the typed JSON a model writes
// instead of SQL, its closed set of node types, its decoder and its walker.
//
// A plan is a Query (see ast.go and expr.go for every field). Decode parses
// one strictly: unknown fields, keys written twice, wrong JSON types, values outside the
// language, NUL characters and documents over Limits (bytes, nodes, nesting)
// are refused with a typed *Error before anything else happens; an unknown
// field names the field of that node it most likely meant (Nearest, the one
// did-you-mean rule the validator also uses for tables, columns and
// functions, plus a few synonyms edit distance cannot find: SQL words such
// as "union" for "set_ops", "desc": true for "direction": "desc"), or, when
// an enclosing node has a field of that name or near it, says where it
// belongs ("join" in a from item: "joins" is a field of the query). Inspect
// visits every node of a plan and MapQuery rewrites its expressions; Expand
// replaces the semantic layer's metric and filter references by their
// definitions. The stages over the language are packages of their own:
// planast/validate checks a plan against a catalog (the worked example of a
// plan, from decoding to its validated form, is there), planast/lift turns
// SQL into a plan, planast/planschema writes the language's JSON Schema
// from these types, and render turns a validated plan into SQL.
package planast
