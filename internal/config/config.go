package config

import (
	"fmt"
	"time"
)

// Defaults for omitted settings.
const (
	DefaultStoragePath    = ".nl2sql"
	DefaultRowLimit       = 1000
	DefaultTimeoutSeconds = 30
	// DefaultLLMTimeoutSeconds bounds one model call (one HTTP exchange).
	// Generous: a local model loads on its first call.
	DefaultLLMTimeoutSeconds = 120
	// DefaultLLMMaxRetries is how often a failed model call is retried
	// (429, 5xx, timeouts, connection errors).
	DefaultLLMMaxRetries = 4
	// DefaultLLMRetryMaxSeconds bounds the time one model call may spend
	// across its retries, waits included.
	DefaultLLMRetryMaxSeconds = 30
)

// MaxRowLimit bounds row_limit: a result is held in memory before it is
// answered (DuckDB's driver holds it whole), and a million rows is ten
// times what a combined plan's source brings (100,000), far past what any
// reader of an answer looks at.
const MaxRowLimit = 1_000_000

// MaxSeconds bounds every *_seconds key (and timeout_ms, in milliseconds):
// no query, model call or refresh interval is meant to take longer than a
// day, and a number of seconds past about 9.2e9 wraps when it is made a
// time.Duration, to a timeout that fires at once or never.
const MaxSeconds = 24 * 60 * 60

// Engines a datasource may name.
var Engines = []string{"sqlite", "duckdb", "postgres"}

// Flavors are the distributed engines a postgres datasource may name
// (datasource flavor:); render.Flavors renders them.
var Flavors = []string{"citus", "cockroachdb", "yugabytedb"}

// Providers an llm entry may name.
var Providers = []string{"replay", "openai", "ollama"}

// LLMSteps are the llm entries the pipeline reads: a typo such as llm.plann
// would otherwise configure nothing and fall back to llm.default unnoticed.
var LLMSteps = []string{"default", "plan", "answer", "select", "embed"}

// Config is a loaded nl2sql.yaml.
type Config struct {
	// File is the absolute path of the file the config came from.
	File        string
	Storage     Storage
	Datasources []Datasource
	// LLM maps a pipeline step ("default", "plan", "answer", …) to its model.
	LLM map[string]LLMConfig
	// Roles maps a role name to its patterns (see access.go); nil when the
	// file has no roles section (single-user), non-nil (maybe empty) when
	// it has one.
	Roles map[string]Role
	// Users are the configured callers, in file order.
	Users []User
	// LocalUser is the user stdio and the CLI act as when roles are
	// configured ("" for none: they then read nothing).
	LocalUser string
	// Curated is the absolute path of the verified-queries file ("" when
	// not configured); CuratedAsWritten the form in the file.
	Curated          string
	CuratedAsWritten string
	// Scaling is the global test-time scaling section (scaling.go); nil
	// when absent.
	Scaling *Scaling
	// Hooks are the operator's rules and external hooks, in file order
	// (hooks.go); Approvals says who may approve stopped runs.
	Hooks     []Hook
	Approvals Approvals
	// Telemetry is where the OpenTelemetry observer exports (telemetry.go).
	Telemetry Telemetry
	// Results bounds what one MCP tool result or resource may hold
	// (results.go).
	Results Results
	// OAuth accepts access tokens of identity providers on HTTP (oauth.go).
	OAuth OAuth
}

// Storage is where nl2sql keeps its state.
type Storage struct {
	Path          string // absolute
	PathAsWritten string // as in the file (or the default); safe to show
	// Postgres, when set, is the DSN of a PostgreSQL database that holds
	// the shared state (snapshots, plan cache, traces index) instead of
	// <Path>/state.db, for replicas behind a load balancer; Path still
	// holds the trace files. Typically ${env:NL2SQL_STORE_DSN}.
	Postgres string
	// TraceMaxAgeDays and TraceMaxMB bound the trace files under
	// Path/traces (storage.traces.max_age_days, max_mb; 0 is no bound).
	TraceMaxAgeDays int
	TraceMaxMB      int
}

// Trace retention defaults: two weeks, 512 MB.
const (
	DefaultTraceMaxAgeDays = 14
	DefaultTraceMaxMB      = 512
)

// Datasource is one configured database.
type Datasource struct {
	ID     string // ^[a-z][a-z0-9_]*$, unique
	Engine string // one of Engines
	// Path is the absolute database file (sqlite, duckdb); PathAsWritten is
	// the form in the file, the one to show.
	Path          string
	PathAsWritten string
	DSN           string // connection string (postgres)
	// Flavor names the distributed engine behind a postgres DSN (one of
	// Flavors: citus, cockroachdb, yugabytedb); "" is PostgreSQL itself.
	Flavor      string
	Description string
	RowLimit    int // rows a query returns at most, 1…MaxRowLimit
	// TimeoutSeconds bounds each query, > 0.
	TimeoutSeconds int
	// Scaling replaces the global scaling section for this datasource.
	Scaling *Scaling
	// Semantic is the absolute path of the datasource's semantic layer
	// (engine/semantic; key "semantic", relative to the config file), ""
	// for none; SemanticAsWritten is the form in the file.
	Semantic          string
	SemanticAsWritten string
	// AllowWritableRole (key allow_writable_role, postgres only) opens a
	// datasource whose role can write (a superuser on a dev database) with
	// a warning on stderr instead of refusing it; every query still runs in
	// a READ ONLY transaction, so writes stay refused.
	AllowWritableRole bool
}

// Timeout is TimeoutSeconds as a duration.
func (d Datasource) Timeout() time.Duration {
	return time.Duration(d.TimeoutSeconds) * time.Second
}

// LLMConfig configures the model of one pipeline step.
type LLMConfig struct {
	Provider string // one of Providers
	// Recordings is the absolute directory of replay recordings;
	// RecordingsAsWritten the form in the file.
	Recordings          string
	RecordingsAsWritten string
	BaseURL             string // openai-compatible endpoint
	APIKey              string
	Model               string
	Host                string // ollama
	// Temperature is sent when set; nil omits it from the request (some
	// models accept only their default).
	Temperature *float64
	// Seed asks for reproducible sampling where the server supports it
	// (OpenAI "seed", Ollama options.seed); nil omits it.
	Seed *int
	// MaxOutputTokens caps the answer's tokens (OpenAI
	// "max_completion_tokens", Ollama options.num_predict); 0 leaves the
	// server's default.
	MaxOutputTokens int
	// TimeoutSeconds bounds one model call (DefaultLLMTimeoutSeconds).
	TimeoutSeconds int
	// NumCtx is Ollama's context window in tokens (options.num_ctx); 0
	// leaves the model's default.
	NumCtx int
	// MaxRetries is how often a failed call is retried, 0 for never
	// (DefaultLLMMaxRetries); RetryMaxSeconds bounds the whole call, retries
	// and waits included (DefaultLLMRetryMaxSeconds).
	MaxRetries      int
	RetryMaxSeconds int
}

// Timeout is TimeoutSeconds as a duration (the default when unset).
func (l LLMConfig) Timeout() time.Duration {
	if l.TimeoutSeconds <= 0 {
		return DefaultLLMTimeoutSeconds * time.Second
	}
	return time.Duration(l.TimeoutSeconds) * time.Second
}

// RetryMax is RetryMaxSeconds as a duration.
func (l LLMConfig) RetryMax() time.Duration {
	return time.Duration(l.RetryMaxSeconds) * time.Second
}

// LLMFor returns the model configuration of step, or of "default" when the
// step has none (the zero LLMConfig when neither exists).
func (c *Config) LLMFor(step string) LLMConfig {
	if l, ok := c.LLM[step]; ok {
		return l
	}
	return c.LLM["default"]
}

// Datasource returns the datasource with id.
func (c *Config) Datasource(id string) (Datasource, bool) {
	for _, d := range c.Datasources {
		if d.ID == id {
			return d, true
		}
	}
	return Datasource{}, false
}

// fileConfig is the file's shape, decoded strictly; pointers tell an
// omitted number from an explicit zero.
type fileConfig struct {
	Storage     fileStorage         `koanf:"storage"`
	Datasources []fileDatasource    `koanf:"datasources"`
	LLM         map[string]fileLLM  `koanf:"llm"`
	Roles       map[string]fileRole `koanf:"roles"`
	Users       []fileUser          `koanf:"users"`
	LocalUser   string              `koanf:"local_user"`
	Curated     string              `koanf:"curated"`
	Scaling     *Scaling            `koanf:"scaling"`
	Hooks       []fileHook          `koanf:"hooks"`
	Approvals   *fileApprovals      `koanf:"approvals"`
	Telemetry   *fileTelemetry      `koanf:"telemetry"`
	Results     *fileResults        `koanf:"results"`
	OAuth       *fileOAuth          `koanf:"oauth"`
}

type fileStorage struct {
	Path     string      `koanf:"path"`
	Postgres string      `koanf:"postgres"`
	Traces   *fileTraces `koanf:"traces"`
}

type fileTraces struct {
	MaxAgeDays *int `koanf:"max_age_days"`
	MaxMB      *int `koanf:"max_mb"`
}

type fileDatasource struct {
	ID             string   `koanf:"id"`
	Engine         string   `koanf:"engine"`
	Path           string   `koanf:"path"`
	DSN            string   `koanf:"dsn"`
	Flavor         string   `koanf:"flavor"`
	Description    string   `koanf:"description"`
	RowLimit       *int     `koanf:"row_limit"`
	TimeoutSeconds *int     `koanf:"timeout_seconds"`
	Scaling        *Scaling `koanf:"scaling"`
	Semantic       string   `koanf:"semantic"`
	// AllowWritableRole is a plain bool: omitted and false mean the same.
	AllowWritableRole bool `koanf:"allow_writable_role"`
}

type fileLLM struct {
	Provider        string   `koanf:"provider"`
	Recordings      string   `koanf:"recordings"`
	BaseURL         string   `koanf:"base_url"`
	APIKey          string   `koanf:"api_key"`
	Model           string   `koanf:"model"`
	Host            string   `koanf:"host"`
	Temperature     *float64 `koanf:"temperature"`
	Seed            *int     `koanf:"seed"`
	MaxOutputTokens *int     `koanf:"max_output_tokens"`
	TimeoutSeconds  *int     `koanf:"timeout_seconds"`
	NumCtx          *int     `koanf:"num_ctx"`
	MaxRetries      *int     `koanf:"max_retries"`
	RetryMaxSeconds *int     `koanf:"retry_max_seconds"`
}

// keyError is a problem with one key of the file.
func keyError(file, key, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", file, key, fmt.Sprintf(format, args...))
}
