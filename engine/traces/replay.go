package traces

import (
	"context"
	"encoding/json"

	"github.com/nl2sql/nl2sql/engine/llm"
)

// ModelCall is one structured model call of a trace.
type ModelCall struct {
	Step       string          `json:"step"`
	Datasource string          `json:"datasource"`
	Intent     string          `json:"intent"`
	Sample     int             `json:"sample"`
	PromptHash string          `json:"prompt_sha256"`
	Messages   []llm.Message   `json:"messages"`
	Answer     json.RawMessage `json:"answer,omitempty"`
	Error      string          `json:"error,omitempty"`
	Provider   string          `json:"provider,omitempty"`
	Model      string          `json:"model,omitempty"`
	Usage      llm.Usage       `json:"usage"`
	MS         float64         `json:"ms"`
}

// Planner replays the model answers a trace recorded, keyed like the
// replay provider, so `nl2sql trace replay ID` reruns the question with
// exactly the answers it had.
type Planner struct {
	calls map[string]ModelCall
}

// NewPlanner builds a planner from a trace's model calls.
func NewPlanner(calls []ModelCall) *Planner {
	p := &Planner{calls: map[string]ModelCall{}}
	for _, c := range calls {
		if c.Error == "" {
			p.calls[llm.Key(c.Step, c.Datasource, c.Intent, c.Sample)] = c
		}
	}
	return p
}

// Complete answers from the trace, or fails naming the missing call.
func (p *Planner) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	c, ok := p.calls[llm.Key(req.Step, req.Datasource, req.Intent, req.Sample)]
	if !ok {
		return nil, &llm.NoRecordingError{Step: req.Step, Datasource: req.Datasource, Intent: req.Intent, Sample: req.Sample}
	}
	return &llm.Response{Content: c.Answer, Usage: c.Usage, Provider: "trace", Model: c.Model}, nil
}
