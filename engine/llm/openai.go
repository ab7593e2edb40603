package llm

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAI is a provider for OpenAI's Chat Completions API and the servers
// that speak it (vLLM, llama.cpp's server, LM Studio, LiteLLM, Ollama's
// /v1). Each call is POST {BaseURL}/chat/completions with
//
//	{"model", "messages": [{"role", "content"}…],
//	 "response_format": {"type": "json_schema",
//	   "json_schema": {"name", "schema", "strict": true}},
//	 "temperature"?, "seed"?, "max_completion_tokens"?}
//
// (OpenAI API reference, "Create chat completion"; "Structured Outputs"
// guide). Optional fields are omitted when unset. The answer is
// choices[0].message.content, checked against the request's schema
// (CheckOutput); usage.prompt_tokens and usage.completion_tokens give Usage.
// A refusal (message.refusal) or a content-filter stop is a
// PROVIDER_REJECTED error; an empty or cut answer ("finish_reason":
// "length") an *InvalidOutputError.
//
// It uses github.com/openai/openai-go/v3 with the SDK's retries off; the
// RetryPolicy in Options is the only retry loop. It is safe for concurrent
// use.
type OpenAI struct {
	client openai.Client
	o      Options
	site   *callSite
}

// NewOpenAI builds an OpenAI-compatible provider. It fails on a missing
// model or a base URL that is not http(s).
func NewOpenAI(o Options) (*OpenAI, error) {
	u, site, err := o.site("openai", "https://api.openai.com/v1", "base_url")
	if err != nil {
		return nil, err
	}
	site.downHint = fmt.Sprintf("check that the server at %s is up, or base_url in %s", site.host, site.label)
	site.notFoundHint = fmt.Sprintf("check model and base_url in %s (the URL ends before /chat/completions, e.g. …/v1)", site.label)
	base := strings.TrimRight(u.String(), "/") + "/"
	client := openai.NewClient(
		option.WithBaseURL(base),
		option.WithAPIKey(o.APIKey),
		option.WithHTTPClient(httpClient(o.HTTPClient, "")),
		option.WithMaxRetries(0),
	)
	return &OpenAI{client: client, o: o, site: site}, nil
}

// schemaNameRe is what OpenAI accepts as a response format name.
var schemaNameRe = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// params builds the request body for req.
func (p *OpenAI) params(req Request) openai.ChatCompletionNewParams {
	var msgs []openai.ChatCompletionMessageParamUnion
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			msgs = append(msgs, openai.SystemMessage(m.Content))
		case "assistant":
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		default:
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(p.o.Model), Messages: msgs}
	if len(req.Schema) > 0 {
		name := req.SchemaName
		if !schemaNameRe.MatchString(name) {
			name = "answer"
		}
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: name, Schema: req.Schema, Strict: openai.Bool(true),
			}},
		}
	} else {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	}
	if t := p.o.Temperature; t != nil || req.Temperature != nil {
		if req.Temperature != nil {
			t = req.Temperature
		}
		params.Temperature = openai.Float(*t)
	}
	if s := p.o.Seed; s != nil {
		params.Seed = openai.Int(int64(*s))
	}
	if n := EffectiveMaxOutput(req.MaxOutputTokens, p.o.MaxOutputTokens); n > 0 {
		params.MaxCompletionTokens = openai.Int(int64(n))
	}
	return params
}

// Complete sends req, retrying per the policy. Errors: *InvalidOutputError
// (the answer), *ProviderError (the server), or the context's error.
func (p *OpenAI) Complete(ctx context.Context, req Request) (*Response, error) {
	params := p.params(req)
	return p.o.Retry.Complete(ctx, req, func(ctx context.Context) (*Response, error) { return p.once(ctx, req, params) })
}

func (p *OpenAI) once(ctx context.Context, req Request, params openai.ChatCompletionNewParams) (*Response, error) {
	x := &exchange{}
	actx, cancel := context.WithTimeout(withExchange(ctx, x), p.o.Timeout)
	defer cancel()
	comp, err := p.client.Chat.Completions.New(actx, params)
	if err != nil {
		return nil, p.site.classify(ctx, actx, x, err)
	}
	if len(comp.Choices) == 0 {
		return nil, &InvalidOutputError{Content: cut(x.bodyText(), 2048), Reason: "the response has no choices"}
	}
	ch := comp.Choices[0]
	if r := strings.TrimSpace(ch.Message.Refusal); r != "" {
		return nil, &ProviderError{Code: CodeRejected, Status: 200,
			Msg:  "the model refused to answer: " + redact(cut(r, 300), p.o.APIKey),
			Hint: "rephrase the question"}
	}
	switch ch.FinishReason {
	case "content_filter":
		return nil, &ProviderError{Code: CodeRejected, Status: 200,
			Msg: "the provider's content filter stopped the answer", Hint: "rephrase the question"}
	case "length":
		return nil, &InvalidOutputError{Content: cut(ch.Message.Content, 2048),
			Reason: cutReason(p.o.MaxOutputTokens, p.site.label, "max_completion_tokens")}
	}
	content, err := CheckOutput(ch.Message.Content, req.Schema)
	if err != nil {
		return nil, err
	}
	model := comp.Model
	if model == "" {
		model = p.o.Model
	}
	return &Response{Content: content, Provider: "openai", Model: model,
		Usage: Usage{InputTokens: int(comp.Usage.PromptTokens), OutputTokens: int(comp.Usage.CompletionTokens)}}, nil
}

// cutReason says that an answer stopped at the output-token limit.
func cutReason(limit int, label, param string) string {
	if limit > 0 {
		return fmt.Sprintf("the answer was cut off at the output limit of %d tokens (%s); answer more briefly, or raise max_output_tokens in %s", limit, param, label)
	}
	return "the answer was cut off at the model's output limit; answer more briefly"
}
