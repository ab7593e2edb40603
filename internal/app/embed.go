package app

import (
	"context"
	"fmt"
	"time"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/embed"
	"github.com/nl2sql/nl2sql/internal/config"
)

// EmbedStep is the llm entry that configures the retrieval embedder:
//
//	llm:
//	  embed: {provider: ollama, host: http://127.0.0.1:11434, model: nomic-embed-text}
//	  embed: {provider: openai, base_url: https://api.openai.com/v1, api_key: ${env:OPENAI_API_KEY}, model: text-embedding-3-small}
//
// Without it (or with provider "builtin") retrieval uses index.NGram, which
// needs no model and no network.
const EmbedStep = "embed"

// embedder builds the retrieval embedder from the config.
func embedder(cfg *config.Config) (index.Embedder, error) {
	c, ok := cfg.LLM[EmbedStep]
	if !ok {
		return index.NGram{}, nil
	}
	switch c.Provider {
	case "builtin", "":
		return index.NGram{}, nil
	case "ollama":
		return embed.NewOllama(embed.RemoteOptions{BaseURL: c.Host, Model: c.Model, APIKey: c.APIKey})
	case "openai":
		return embed.NewOpenAI(embed.RemoteOptions{BaseURL: c.BaseURL, Model: c.Model, APIKey: c.APIKey})
	}
	return nil, fmt.Errorf("llm.embed: provider %q cannot embed; use ollama, openai or builtin", c.Provider)
}

// checkEmbedder embeds one text, for doctor.
func checkEmbedder(ctx context.Context, cfg *config.Config) (string, error) {
	e, err := embedder(cfg)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	v, err := e.Embed(ctx, []string{"invoice total per country"})
	if err != nil {
		return "", err
	}
	if len(v) != 1 || len(v[0]) == 0 {
		return "", fmt.Errorf("the embedder returned no vector")
	}
	return fmt.Sprintf("%s, %d dimensions", e.Name(), len(v[0])), nil
}
