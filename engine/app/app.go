// Package app wires a loaded nl2sql.yaml into a running engine: datasource
// specs, the model provider per step, the run date. main and the tests use
// it so that the CLI, the MCP server and the end-to-end tests run the same
// wiring.
package app

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/config"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/store"
)

// App is an engine built from a config file.
type App struct {
	Config *config.Config
	Engine *engine.Engine
	Store  *store.Store // nil when storage.path cannot be used
}

// Open loads the config file at path and builds the engine. Datasources open
// on first use, so a missing database shows up as an error on the call that
// needs it, not at start.
func Open(path string, logger *slog.Logger) (*App, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	planner, err := provider(cfg.LLMFor("plan"))
	if err != nil {
		return nil, fmt.Errorf("%s: llm: %w", cfg.File, err)
	}
	var specs []engine.DatasourceSpec
	for _, d := range cfg.Datasources {
		specs = append(specs, engine.DatasourceSpec{
			ID: d.ID, Engine: d.Engine, Path: d.Path, DSN: d.DSN, Description: d.Description,
			RowLimit: d.RowLimit, Timeout: d.Timeout(),
		})
	}
	opts := engine.Options{Datasources: specs, Planner: planner, Logger: logger, PlannerID: plannerID(cfg.LLMFor("plan"))}
	opts.Today = func() string { return time.Now().UTC().Format("2006-01-02") }
	st := openStore(cfg, logger)
	if st != nil {
		opts.Store = st
	}
	eng, err := engine.New(opts)
	if err != nil {
		if st != nil {
			st.Close()
		}
		return nil, err
	}
	return &App{Config: cfg, Engine: eng, Store: st}, nil
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
	if a.Store != nil {
		if serr := a.Store.Close(); err == nil {
			err = serr
		}
	}
	return err
}

func provider(c config.LLMConfig) (engine.Planner, error) {
	switch c.Provider {
	case "replay":
		return llm.OpenReplay(c.Recordings)
	case "":
		return nil, fmt.Errorf("no provider configured: set llm.default.provider")
	}
	return nil, fmt.Errorf("provider %q is not available yet; use replay", c.Provider)
}
