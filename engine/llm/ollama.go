package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ollama/ollama/api"
)

// Ollama is a provider for a local Ollama server's chat API: POST
// {BaseURL}/api/chat with
//
//	{"model", "messages": [{"role", "content"}…], "stream": false,
//	 "format": <the request's JSON Schema>,
//	 "options": {"temperature"?, "seed"?, "num_ctx"?, "num_predict"?}}
//
// (Ollama API documentation, "Generate a chat completion" and "Structured
// outputs"). The answer is message.content, checked against the schema
// (CheckOutput); prompt_eval_count and eval_count give Usage. A
// "done_reason" of "length" is a cut answer (*InvalidOutputError). It uses
// github.com/ollama/ollama/api; the RetryPolicy in Options is the only retry
// loop. It is safe for concurrent use.
type Ollama struct {
	client *api.Client
	o      Options
	site   *callSite
}

// NewOllama builds an Ollama provider. It fails on a missing model or a
// base URL that is not http(s).
func NewOllama(o Options) (*Ollama, error) {
	u, site, err := o.site("ollama", "http://127.0.0.1:11434", "host")
	if err != nil {
		return nil, err
	}
	site.downHint = fmt.Sprintf("start Ollama (ollama serve) or check host in %s", site.label)
	site.notFoundHint = fmt.Sprintf("pull the model first: ollama pull %s", o.Model)
	client := api.NewClient(u, httpClient(o.HTTPClient, o.APIKey))
	return &Ollama{client: client, o: o, site: site}, nil
}

// chatRequest builds the request body for req.
func (p *Ollama) chatRequest(req Request) *api.ChatRequest {
	stream := false
	cr := &api.ChatRequest{Model: p.o.Model, Stream: &stream, Options: map[string]any{}}
	for _, m := range req.Messages {
		cr.Messages = append(cr.Messages, api.Message{Role: m.Role, Content: m.Content})
	}
	if len(req.Schema) > 0 {
		cr.Format = req.Schema
	} else {
		cr.Format = json.RawMessage(`"json"`)
	}
	if t := p.o.Temperature; t != nil || req.Temperature != nil {
		if req.Temperature != nil {
			t = req.Temperature
		}
		cr.Options["temperature"] = *t
	}
	if s := p.o.Seed; s != nil {
		cr.Options["seed"] = *s
	}
	if n := p.o.NumCtx; n > 0 {
		cr.Options["num_ctx"] = n
	}
	if n := EffectiveMaxOutput(req.MaxOutputTokens, p.o.MaxOutputTokens); n > 0 {
		cr.Options["num_predict"] = n
	}
	return cr
}

// Complete sends req, retrying per the policy. Errors: *InvalidOutputError
// (the answer), *ProviderError (the server), or the context's error.
func (p *Ollama) Complete(ctx context.Context, req Request) (*Response, error) {
	cr := p.chatRequest(req)
	return p.o.Retry.Complete(ctx, req, func(ctx context.Context) (*Response, error) { return p.once(ctx, req, cr) })
}

func (p *Ollama) once(ctx context.Context, req Request, cr *api.ChatRequest) (*Response, error) {
	x := &exchange{}
	actx, cancel := context.WithTimeout(withExchange(ctx, x), p.o.Timeout)
	defer cancel()
	var resp api.ChatResponse
	got := false
	err := p.client.Chat(actx, cr, func(r api.ChatResponse) error {
		resp, got = r, true
		return nil
	})
	if err != nil {
		if s := x.status(); s > 0 && s < 400 && ctx.Err() == nil && actx.Err() == nil {
			// A 2xx whose body is an {"error": …} line: the server failed
			// while answering (a crashed runner); else the body is garbled.
			if msg, _ := serverMessage(x.bodyBytes()); msg != "" && isErrorBody(x.bodyBytes()) {
				return nil, &ProviderError{Code: CodeUnavailable, Retryable: true, Status: s,
					Msg:  fmt.Sprintf("ollama at %s failed while answering: %s", p.site.host, redact(msg, p.o.APIKey)),
					Hint: p.site.downHint, Err: &safeError{msg: "error in the response stream"}}
			}
		}
		return nil, p.site.classify(ctx, actx, x, err)
	}
	if !got {
		return nil, &InvalidOutputError{Reason: "the server's response is empty"}
	}
	if !resp.Done {
		return nil, &InvalidOutputError{Content: cut(resp.Message.Content, 2048), Reason: "the server's response is incomplete (done is false)"}
	}
	if resp.DoneReason == "length" {
		return nil, &InvalidOutputError{Content: cut(resp.Message.Content, 2048),
			Reason: cutReason(p.o.MaxOutputTokens, p.site.label, "num_predict")}
	}
	content, err := CheckOutput(resp.Message.Content, req.Schema)
	if err != nil {
		return nil, err
	}
	model := resp.Model
	if model == "" {
		model = p.o.Model
	}
	return &Response{Content: content, Provider: "ollama", Model: model,
		Usage: Usage{InputTokens: resp.PromptEvalCount, OutputTokens: resp.EvalCount}}, nil
}

// isErrorBody reports whether body is a JSON object with an "error" key.
func isErrorBody(body []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(strings.TrimSpace(string(body))), &m) != nil {
		return false
	}
	_, ok := m["error"]
	return ok
}
