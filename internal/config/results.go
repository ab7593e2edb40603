package config

// Result budget defaults and bounds. Claude Code refuses a tool result
// above about 25,000 tokens; 20,000 leaves room for the host's own framing
// and for the estimate of other tokenizers than o200k_base.
const (
	DefaultResultTokens = 20000
	// MinResultTokens keeps a result large enough for its fixed part (the
	// SQL, the plan, a page's first table).
	MinResultTokens = 1000
)

// Results bounds what one MCP tool result or resource may hold (section
// results:).
type Results struct {
	// TokenBudget is the most o200k_base tokens one tool result (its
	// structured JSON and its text, as sent) or resource may count; rows
	// and schema pages past it are cut and say so.
	TokenBudget int
}

type fileResults struct {
	TokenBudget *int `koanf:"token_budget"`
}

// buildResults checks and copies the results section into c (the default
// when it is absent).
func buildResults(fr *fileResults, c *Config, bad func(key, format string, args ...any)) {
	c.Results = Results{TokenBudget: DefaultResultTokens}
	if fr == nil {
		return
	}
	c.Results.TokenBudget = intSetting(bad, "results.token_budget", fr.TokenBudget, DefaultResultTokens, MinResultTokens, "at least 1000")
}
