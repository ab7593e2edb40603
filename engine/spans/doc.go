// Package spans makes one request one OpenTelemetry trace: the run's
// root span, one span per pipeline step under it, and inside the steps a
// client span per model call (Model) and per database query (Query).
//
// It owns the span names, kinds and attributes, and how an error becomes
// a span's error.type (the product's error code, PLAN_INVALID for a
// refused plan, the adapter's code for a database error). Attributes are
// names, counts and codes only: it never records SQL text, prompts, bound
// values, rows or secrets. It never decides when a step starts: the
// pipeline calls Step as it walks, and FinishRun with the result's shape.
//
// Worked example: an ask over Chinook arriving without a span gives
//
//	ask                       (root, started by StartRun; nl2sql.run_id, row_count 24)
//	├── resolve
//	├── retrieve
//	├── plan
//	│   └── chat gpt-…        (Model: gen_ai.usage.input_tokens, nl2sql.step "plan")
//	├── render
//	├── execute
//	│   └── SELECT chinook    (Query: db.system.name "sqlite", db.response.returned_rows 24)
//	└── answer
//
// Under an MCP tool call, the tool call's span is the root instead.
package spans
