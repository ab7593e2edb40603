// Package config loads nl2sql.yaml:
//
//	storage: {path: .nl2sql}
//	datasources:
//	  - {id: chinook, engine: sqlite, path: chinook.sqlite, description: "...", row_limit: 1000, timeout_seconds: 30}
//	  - {id: shop, engine: postgres, dsn: "${env:SHOP_DSN}"}
//	  - {id: dev, engine: postgres, dsn: "postgres://postgres@localhost/dev", allow_writable_role: true}
//	  - {id: ledger, engine: postgres, dsn: "${env:LEDGER_DSN}", flavor: cockroachdb}
//	llm:
//	  default: {provider: replay, recordings: recordings/}
//	  answer: {provider: ollama, host: "http://localhost:11434", model: llama3.1, temperature: 0}
//	  plan: {provider: openai, base_url: "https://api.openai.com/v1", api_key: "${env:OPENAI_API_KEY}", model: gpt-4.1-mini,
//	         seed: 7, max_output_tokens: 4096, timeout_seconds: 60, max_retries: 4, retry_max_seconds: 30}
//
// A datasource's keys must apply to its engine: path (sqlite, duckdb) or
// dsn, flavor and allow_writable_role (postgres); another engine's key is
// refused, never ignored. A dsn is a postgres:// URL or libpq's
// keyword/value form ("host=db port=5432 dbname=shop user=reader"), read
// by pgx when the datasource opens; one naming no database connects, as
// libpq does, to the database named after its user. A datasource's row_limit (default 1000) is at most MaxRowLimit
// (1,000,000) and its timeout_seconds (default 30) at most MaxSeconds (86400,
// a day), as is every other *_seconds key (llm, scaling, telemetry, oauth;
// a hook's timeout_ms at most 86400000): past about 9.2e9 seconds a
// time.Duration wraps, to a timeout that fires at once or never. A number
// past its bound is refused with the bound.
//
// An llm entry's call settings: temperature and seed are sent only when
// set; max_output_tokens (0: the server's default) and num_ctx (Ollama, 0:
// the model's default) are token counts; timeout_seconds bounds one call
// (default 120); a failed call is retried at most max_retries times
// (default 4) within retry_max_seconds (default 30).
//
// Replicas sharing state set storage.postgres to a PostgreSQL DSN
// (storage: {path: .nl2sql, postgres: "${env:NL2SQL_STORE_DSN}"}): snapshots,
// the plan cache and the traces index live there, trace files stay under
// path. A postgres datasource's flavor (citus, cockroachdb, yugabytedb)
// names the distributed engine behind the DSN, for the renderer.
// A postgres datasource whose role can write (a superuser, a table owner,
// CREATE rights) is refused at startup unless allow_writable_role: true
// (postgres only; --db's form is --allow-writable-role): it then opens
// with a warning on stderr, and every query still runs in a READ ONLY
// transaction.
//
// The oauth section (oauth.go; docs/oauth.md) accepts access tokens of
// identity providers on HTTP: oauth: {resource: https://host/mcp, issuers:
// [{issuer: https://idp}], roles_claim: groups, roles: [{value: reps,
// roles: [rep]}], attributes: {employee_id: emp_no}, scopes: {required:
// [nl2sql:read], tools: {approve_run: [nl2sql:approve]}}}.
//
// Load reads the file (koanf, YAML), applies environment overrides
// (NL2SQL_ + the key path with "__" between levels, e.g.
// NL2SQL_STORAGE__PATH=/x or NL2SQL_DATASOURCES__CHINOOK__ROW_LIMIT=50),
// expands ${env:VAR} in every string, then decodes strictly: an unknown key,
// a value of the wrong type and every invalid setting is an error that names
// the key and the file (or the environment variable). Relative paths are
// resolved against the file's directory; the form as written is kept for
// display, since results must never show absolute paths.
//
// Access control (optional; matching and meaning live in package scope):
//
//	roles:
//	  analyst: {allow: ["chinook"], deny: ["chinook.main.Employee", "chinook.main.Customer.Email"]}
//	  rep:
//	    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
//	    row_filters: [{table: chinook.main.Customer, where: "SupportRepId = :employee_id"}]
//	users:
//	  - {name: jane, roles: [rep], attributes: {employee_id: 3}, tokens_sha256: ["<64 hex>"]}
//	local_user: jane        # who stdio and the CLI act as when roles are configured
//	curated: curated.yaml   # verified queries (package curated), relative to this file
//
// Load checks shapes only: patterns have 1, 3 or 4 dot-separated parts (or
// are "*") and a literal first part names a datasource; row filter tables
// are datasource.schema.table without wildcards; user names are unique,
// token digests are 64 hex characters used once, attributes are scalars;
// local_user names a user. Config.Roles is nil without a roles section
// (single-user mode).
package config
