// Package app wires a loaded nl2sql.yaml into a running engine: datasource
// specs, the model provider per step, the run date. main and the tests use
// it so that the CLI, the MCP server and the end-to-end tests run the same
// wiring.
package app

import (
	"path/filepath"

	"context"
	"errors"
	"fmt"
	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/scope"
	"io/fs"
	"log/slog"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/store"
)

// App is an engine built from a config file.
type App struct {
	Config *config.Config
	Engine *engine.Engine
	Store  *store.Store // nil when storage.path cannot be used
	Policy *scope.Policy
	ext    *extensions // hooks and observers (extend.go)
}

// Options change how OpenWith builds the app.
type Options struct {
	// Record, when set, is a directory: the planner is wrapped in an
	// llm.Recorder that saves every answer there as a replay recording
	// (nl2sql ask --record DIR).
	Record string
	// Planner, when set, replaces the configured planner (nl2sql trace
	// replay answers from a trace's recorded model calls).
	Planner engine.Planner
	// Observers also watch the engine's events (besides the audit log and
	// OpenTelemetry), e.g. the HTTP server's Prometheus counters.
	Observers []events.Observer
	// NoCacheReads plans every question (plan-cache reads off, as with
	// Record and Planner): measurements such as `eval compare` must see
	// the configuration's own cost, not an earlier run's cached plans.
	NoCacheReads bool
	// OpenWait is engine.Options.OpenWait: how long a request waits for a
	// datasource still opening (the server: 1s); 0 waits as long as the
	// request may run.
	OpenWait time.Duration
	// Reprofile profiles every datasource again whatever its stored
	// profile's age (nl2sql index --reprofile): data written since the
	// last profile is otherwise read again only once the profile is a day
	// old, and its warnings speak of the values it had.
	Reprofile bool
}

// Open loads the config file at path and builds the engine. Datasources open
// on first use, so a missing database shows up as an error on the call that
// needs it, not at start.
func Open(path string, logger *slog.Logger) (*App, error) {
	return OpenWith(path, logger, Options{})
}

// OpenWith is Open with options. The planner is the provider of the llm
// entry for step "plan" (llm.plan, else llm.default; see Provider).
func OpenWith(path string, logger *slog.Logger, o Options) (*App, error) {
	cfg, err := LoadConfig(path)
	if err != nil {
		return nil, err
	}
	return OpenConfig(cfg, logger, o)
}

// OpenConfig is OpenWith for a loaded configuration (a file's, or
// ConfigFromDatabases'). A configuration without llm.plan and llm.default
// has no planner: the engine runs in host-planning mode (engine/host_plan.go),
// where ask returns the plan-it-yourself result. Unless o replaces the
// planner, records, or turns cache reads off (trace replay, ask --record,
// eval compare: runs that need every model answer), a replayed question
// without a recording is handed over to the host the same way.
func OpenConfig(cfg *config.Config, logger *slog.Logger, o Options) (*App, error) {
	var err error
	label, lc := llmEntry(cfg, "plan")
	var planner engine.Planner = o.Planner
	if planner == nil && HostPlanning(cfg) {
		if o.Record != "" {
			return nil, fmt.Errorf("%s: --record needs a model: configure llm.default (see README, Configuration)", cfg.File)
		}
	} else if planner == nil {
		p, err := providerFor(label, lc, logger)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.File, err)
		}
		planner = p
	}
	if o.Record != "" {
		if planner, err = llm.NewRecorder(planner, o.Record, ""); err != nil {
			return nil, err
		}
	}
	emb, err := embedder(cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.File, err)
	}
	var answerer engine.Planner
	if ac, ok := cfg.LLM["answer"]; ok && o.Planner == nil {
		p, err := providerFor("llm.answer", ac, logger)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.File, err)
		}
		answerer = p
	}
	pol, err := scope.New(cfg.Access())
	if err != nil {
		return nil, err
	}
	for _, w := range pol.Warnings() {
		logger.Warn("access policy", "warning", w)
	}
	set, refused, err := curated.Open(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: verified queries: %w", cfg.File, err)
	}
	for _, r := range refused {
		// a refused verified query is left out, not fatal: the generated
		// path still answers (nl2sql curated validate exits 1 on these)
		logger.Warn("verified query left out", "reason", r.String())
	}
	opts := engine.Options{Datasources: datasourceSpecs(cfg), ConfigFile: cfg.File, Open: OpenSource, Planner: planner, Logger: logger, PlannerID: plannerID(lc),
		Policy: pol, Curated: set, Answerer: answerer, Embedder: emb, TraceDir: filepath.Join(cfg.Storage.Path, "traces"),
		TraceRetention: engine.TraceRetention{MaxAge: time.Duration(cfg.Storage.TraceMaxAgeDays) * 24 * time.Hour,
			MaxBytes: int64(cfg.Storage.TraceMaxMB) << 20},
		IndexDir: filepath.Join(cfg.Storage.Path, "indexes"), OpenWait: o.OpenWait,
		HandOver:     o.Planner == nil && o.Record == "" && !o.NoCacheReads,
		ResultTokens: cfg.Results.TokenBudget}
	opts.Today = func() string { return time.Now().UTC().Format("2006-01-02") }
	if o.Reprofile {
		opts.ProfileMaxAge = time.Nanosecond // every stored profile is too old
	}
	if err := applyScaling(cfg, &opts, logger, o); err != nil { // test-time scaling (scaling.go)
		return nil, fmt.Errorf("%s: %w", cfg.File, err)
	}
	st, err := openStore(cfg, logger)
	if err != nil {
		return nil, err
	}
	switch {
	case st != nil && (o.Record != "" || o.Planner != nil || o.NoCacheReads):
		opts.Store = recordingStore{st}
	case st != nil:
		opts.Store = st
	}
	ext, err := extend(cfg, st, &opts, logger, o.Observers...)
	if err == nil {
		var eng *engine.Engine
		if eng, err = engine.New(opts); err == nil {
			return &App{Config: cfg, Engine: eng, Store: st, Policy: pol, ext: ext}, nil
		}
		ext.close()
	}
	if st != nil {
		st.Close()
	}
	return nil, err
}

// HostPlanning reports whether cfg configures no planner (neither
// llm.plan nor llm.default): the host plans through get_plan_schema and
// run_plan.
func HostPlanning(cfg *config.Config) bool {
	_, plan := cfg.LLM["plan"]
	_, def := cfg.LLM["default"]
	return !plan && !def
}

// PlanningMode names who plans: "host", or the planner's provider and
// model ("replay", "openai/gpt-4.1").
func PlanningMode(cfg *config.Config) string {
	if HostPlanning(cfg) {
		return "host"
	}
	_, lc := llmEntry(cfg, "plan")
	return plannerID(lc)
}

// recordingStore is the state store with plan-cache reads turned off: a
// recording run must reach the model for every question (a cached plan
// would leave no recording). Plans it makes are still cached.
type recordingStore struct{ *store.Store }

func (recordingStore) GetPlan(context.Context, store.PlanKey) ([]byte, bool, error) {
	return nil, false, nil
}

// datasourceSpecs turns the configured datasources into engine specs.
func datasourceSpecs(cfg *config.Config) []engine.DatasourceSpec {
	var specs []engine.DatasourceSpec
	for _, d := range cfg.Datasources {
		specs = append(specs, engine.DatasourceSpec{
			ID: d.ID, Engine: d.Engine, Path: d.Path, DSN: d.DSN, Flavor: d.Flavor, Description: d.Description,
			RowLimit: d.RowLimit, Timeout: d.Timeout(), Semantic: d.Semantic, SemanticName: d.SemanticAsWritten,
			AllowWritableRole: d.AllowWritableRole,
		})
	}
	return specs
}

// plannerID names the planner for the plan cache key.
func plannerID(c config.LLMConfig) string {
	if c.Model == "" {
		return c.Provider
	}
	return c.Provider + "/" + c.Model
}

// Close releases the engine's datasources and the state store.
func (a *App) Close() error {
	err := a.Engine.Close()
	if xerr := a.ext.close(); err == nil {
		err = xerr
	}
	if a.Store != nil {
		if serr := a.Store.Close(); err == nil {
			err = serr
		}
	}
	return err
}

// LoadConfig loads the config file, adding a hint when it does not exist.
func LoadConfig(path string) (*config.Config, error) {
	cfg, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w (hint: pass --config (or set NL2SQL_CONFIG) with the path of your nl2sql.yaml (the demo's is examples/chinook/nl2sql.yaml), or --db with a SQLite or DuckDB file or a postgres:// DSN)", err)
	}
	return cfg, err
}
