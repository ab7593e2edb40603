package app

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
)

// Provider builds the model provider one llm entry configures:
//
//   - replay: llm.OpenReplay(recordings), no network;
//   - openai: llm.NewOpenAI (base_url, api_key, model, temperature, seed,
//     max_output_tokens), any OpenAI-compatible chat-completions server;
//   - ollama: llm.NewOllama (host, or base_url; model, temperature, seed,
//     num_ctx, max_output_tokens).
//
// Live providers get the per-call timeout (timeout_seconds) and the retry
// policy (max_retries within retry_max_seconds) of the entry. The result
// satisfies engine.Planner. Errors name the setting at fault but never the
// API key.
func Provider(c config.LLMConfig, logger *slog.Logger) (llm.Provider, error) {
	return providerFor("the llm entry", c, logger)
}

// providerFor is Provider with the entry's config key ("llm.plan") for
// messages and hints.
func providerFor(label string, c config.LLMConfig, logger *slog.Logger) (llm.Provider, error) {
	if logger == nil {
		logger = slog.Default()
	}
	o := llm.Options{
		Label: label, BaseURL: c.BaseURL, APIKey: c.APIKey, Model: c.Model,
		Temperature: c.Temperature, Seed: c.Seed, MaxOutputTokens: c.MaxOutputTokens, NumCtx: c.NumCtx,
		Timeout: c.Timeout(),
		Retry:   llm.RetryPolicy{MaxRetries: c.MaxRetries, MaxElapsed: c.RetryMax(), Logger: logger},
		Logger:  logger,
	}
	var p llm.Provider
	var err error
	switch c.Provider {
	case "replay":
		return llm.OpenReplay(c.Recordings)
	case "openai":
		p, err = llm.NewOpenAI(o)
	case "ollama":
		if c.Host != "" {
			o.BaseURL = c.Host
		}
		p, err = llm.NewOllama(o)
	case "":
		return nil, fmt.Errorf("no provider configured: set %s.provider (one of replay, openai, ollama)", label)
	default:
		return nil, fmt.Errorf("%s.provider: unknown provider %q", label, c.Provider)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return p, nil
}

// llmEntry returns the config key and settings that serve step: "llm.STEP"
// when the file has that entry, else "llm.default".
func llmEntry(cfg *config.Config, step string) (string, config.LLMConfig) {
	if c, ok := cfg.LLM[step]; ok {
		return "llm." + step, c
	}
	return "llm.default", cfg.LLM["default"]
}

// llmSteps lists the configured llm entries in order.
func llmSteps(cfg *config.Config) []string { return slices.Sorted(maps.Keys(cfg.LLM)) }
