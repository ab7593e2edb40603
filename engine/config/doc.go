// Package config loads nl2sql.yaml:
//
//	storage: {path: .nl2sql}
//	datasources:
//	  - {id: chinook, engine: sqlite, path: chinook.sqlite, description: "...", row_limit: 1000, timeout_seconds: 30}
//	  - {id: shop, engine: postgres, dsn: "${env:SHOP_DSN}"}
//	llm:
//	  default: {provider: replay, recordings: recordings/}
//	  answer: {provider: ollama, host: "http://localhost:11434", model: llama3.1, temperature: 0}
//
// Load reads the file (koanf, YAML), applies environment overrides
// (NL2SQL_ + the key path with "__" between levels, e.g.
// NL2SQL_STORAGE__PATH=/x or NL2SQL_DATASOURCES__CHINOOK__ROW_LIMIT=50),
// expands ${env:VAR} in every string, then decodes strictly: an unknown key,
// a value of the wrong type and every invalid setting is an error that names
// the key and the file (or the environment variable). Relative paths are
// resolved against the file's directory; the form as written is kept for
// display, since results must never show absolute paths.
package config
