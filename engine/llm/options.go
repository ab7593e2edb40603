package llm

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds one live model call when Options.Timeout is 0.
const DefaultTimeout = 120 * time.Second

// Options configure a live provider (NewOpenAI, NewOllama).
type Options struct {
	// Label is the config key of the entry ("llm.plan"), used in hints.
	Label string
	// BaseURL is the API root: for OpenAI-compatible servers the URL before
	// "/chat/completions" (default "https://api.openai.com/v1"); for Ollama
	// the server root (default "http://127.0.0.1:11434").
	BaseURL string
	// APIKey is sent as a bearer token. It never appears in an error, a log
	// line or a recording.
	APIKey string
	Model  string
	// Temperature is sent when set; nil omits the field from the request.
	Temperature *float64
	// Seed is sent when set (OpenAI "seed", Ollama options.seed).
	Seed *int
	// MaxOutputTokens caps the answer (OpenAI "max_completion_tokens",
	// Ollama options.num_predict); 0 omits it.
	MaxOutputTokens int
	// NumCtx is Ollama's options.num_ctx (context window, tokens); 0 omits it.
	NumCtx int
	// Timeout bounds one HTTP call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Retry is the retry policy; its zero value retries never and waits
	// at most DefaultRetryMax (see DefaultRetryPolicy).
	Retry RetryPolicy
	// HTTPClient is the base client (nil: a new one over
	// http.DefaultTransport). Its transport is wrapped, never replaced.
	HTTPClient *http.Client
	Logger     *slog.Logger
}

// site checks the options common to both providers and returns the parsed
// base URL and the call site for error messages.
func (o *Options) site(name, defaultBase, urlKey string) (*url.URL, *callSite, error) {
	if strings.TrimSpace(o.Model) == "" {
		return nil, nil, fmt.Errorf("model: missing (%s needs a model name)", name)
	}
	base := strings.TrimSpace(o.BaseURL)
	if base == "" {
		base = defaultBase
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, fmt.Errorf("%s: %q is not an http(s) URL", urlKey, redact(base, o.APIKey))
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Retry.Logger == nil {
		o.Retry.Logger = o.Logger
	}
	label := o.Label
	if label == "" {
		label = "the llm entry"
	}
	cs := &callSite{name: name, host: hostOf(u), label: label, key: o.APIKey, timeout: o.Timeout}
	return u, cs, nil
}
