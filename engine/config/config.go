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
)

// Engines a datasource may name.
var Engines = []string{"sqlite", "duckdb", "postgres"}

// Providers an llm entry may name. Only replay is implemented so far.
var Providers = []string{"replay", "openai", "ollama"}

// Config is a loaded nl2sql.yaml.
type Config struct {
	// File is the absolute path of the file the config came from.
	File        string
	Storage     Storage
	Datasources []Datasource
	// LLM maps a pipeline step ("default", "plan", "answer", …) to its model.
	LLM map[string]LLMConfig
}

// Storage is where nl2sql keeps its state.
type Storage struct {
	Path          string // absolute
	PathAsWritten string // as in the file (or the default); safe to show
}

// Datasource is one configured database.
type Datasource struct {
	ID     string // ^[a-z][a-z0-9_]*$, unique
	Engine string // one of Engines
	// Path is the absolute database file (sqlite, duckdb); PathAsWritten is
	// the form in the file, the one to show.
	Path          string
	PathAsWritten string
	DSN           string // connection string (postgres)
	Description   string
	RowLimit      int // rows a query returns at most, > 0
	// TimeoutSeconds bounds each query, > 0.
	TimeoutSeconds int
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
	Temperature         *float64
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
	Storage     fileStorage        `koanf:"storage"`
	Datasources []fileDatasource   `koanf:"datasources"`
	LLM         map[string]fileLLM `koanf:"llm"`
}

type fileStorage struct {
	Path string `koanf:"path"`
}

type fileDatasource struct {
	ID             string `koanf:"id"`
	Engine         string `koanf:"engine"`
	Path           string `koanf:"path"`
	DSN            string `koanf:"dsn"`
	Description    string `koanf:"description"`
	RowLimit       *int   `koanf:"row_limit"`
	TimeoutSeconds *int   `koanf:"timeout_seconds"`
}

type fileLLM struct {
	Provider    string   `koanf:"provider"`
	Recordings  string   `koanf:"recordings"`
	BaseURL     string   `koanf:"base_url"`
	APIKey      string   `koanf:"api_key"`
	Model       string   `koanf:"model"`
	Host        string   `koanf:"host"`
	Temperature *float64 `koanf:"temperature"`
}

// keyError is a problem with one key of the file.
func keyError(file, key, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", file, key, fmt.Sprintf(format, args...))
}
