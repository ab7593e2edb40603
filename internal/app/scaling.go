package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
)

// applyScaling sets the engine's test-time scaling from the config's
// scaling sections (global, then per datasource) and the selector model
// (llm.select, else the planner; always the planner when o.Planner
// replaces it, as trace replay does; recorded with the planner under
// o.Record). Each section is checked with engine.ScaleConfig.Check; an
// error names the section, e.g. "datasources[0].scaling.strategies[1].name: …".
// Scaling sections are part of the planner id, so plans cached under one
// configuration are not served under another.
func applyScaling(cfg *config.Config, opts *engine.Options, logger *slog.Logger, o Options) error {
	var sections []engine.ScaleConfig
	if cfg.Scaling != nil {
		sc, err := scaleConfig("scaling", cfg.Scaling)
		if err != nil {
			return err
		}
		opts.Scaling = sc
		sections = append(sections, sc)
	}
	for i, d := range cfg.Datasources {
		if d.Scaling == nil {
			continue
		}
		sc, err := scaleConfig(fmt.Sprintf("datasources[%d].scaling", i), d.Scaling)
		if err != nil {
			return err
		}
		sections = append(sections, sc)
		for j := range opts.Datasources {
			if opts.Datasources[j].ID == d.ID {
				opts.Datasources[j].Scaling = &sc
			}
		}
	}
	if len(sections) > 0 {
		b, _ := json.Marshal(sections)
		sum := sha256.Sum256(b)
		opts.PlannerID += "+scaling:" + hex.EncodeToString(sum[:6])
	}
	if sc, ok := cfg.LLM["select"]; ok && o.Planner == nil {
		p, err := providerFor("llm.select", sc, logger)
		if err != nil {
			return err
		}
		if o.Record != "" {
			if p, err = llm.NewRecorder(p, o.Record, ""); err != nil {
				return err
			}
		}
		opts.Selector = p
	}
	return nil
}

// scaleConfig converts one scaling section and checks it.
func scaleConfig(key string, s *config.Scaling) (engine.ScaleConfig, error) {
	sc := engine.ScaleConfig{MaxRefinements: s.MaxRefinements, Tournament: s.Tournament, TokenBudget: s.TokenBudget,
		TimeBudget: time.Duration(s.TimeBudgetSeconds) * time.Second, MaxOutputTokens: s.MaxOutputTokens,
		Concurrency: s.Concurrency, Router: s.Router}
	for _, st := range s.Strategies {
		sc.Strategies = append(sc.Strategies, engine.StrategySpec{Name: st.Name, Samples: st.Samples, Temperature: st.Temperature})
	}
	if err := sc.Check(); err != nil {
		return sc, fmt.Errorf("%s.%w", key, err)
	}
	return sc, nil
}
