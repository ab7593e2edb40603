package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// RemoteOptions configure the Ollama and OpenAI embedders.
type RemoteOptions struct {
	// BaseURL is the server: "http://127.0.0.1:11434" for Ollama by
	// default; "https://api.openai.com/v1" for OpenAI by default (an
	// OpenAI-compatible server's base URL includes its /v1).
	BaseURL string
	// Model is the embedding model, e.g. "nomic-embed-text" or
	// "text-embedding-3-small". Required.
	Model string
	// APIKey is sent as "Authorization: Bearer <key>" when set.
	APIKey string
	// Dimensions asks the model to shorten its vectors (models that
	// support it); 0 leaves the model's own length.
	Dimensions int
	// HTTPClient is used for the calls; nil means http.DefaultClient.
	// Bound each call with the context or the client's Timeout.
	HTTPClient *http.Client
}

func (o RemoteOptions) client() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return http.DefaultClient
}

func (o RemoteOptions) name(kind string) string {
	n := kind + ":" + o.Model
	if o.Dimensions > 0 {
		n += fmt.Sprintf(":%d", o.Dimensions)
	}
	return n
}

// Ollama embeds with an Ollama server: POST {BaseURL}/api/embed with
//
//	{"model": Model, "input": [texts…], "dimensions"?: Dimensions}
//
// answered by {"model", "embeddings": [[float…]…]} (Ollama API
// documentation, "Generate embeddings"), through
// github.com/ollama/ollama/api. Safe for concurrent use.
type Ollama struct {
	o      RemoteOptions
	client *api.Client
}

// NewOllama checks the options: a model and an http(s) base URL.
func NewOllama(o RemoteOptions) (*Ollama, error) {
	if o.BaseURL == "" {
		o.BaseURL = "http://127.0.0.1:11434"
	}
	u, err := checkRemote(o, "ollama")
	if err != nil {
		return nil, err
	}
	hc := o.client()
	if o.APIKey != "" {
		hc = &http.Client{Transport: bearer{key: o.APIKey, next: hc.Transport}, Timeout: hc.Timeout}
	}
	return &Ollama{o: o, client: api.NewClient(u, hc)}, nil
}

// Name is "ollama:<model>[:<dims>]".
func (e *Ollama) Name() string { return e.o.name("ollama") }

// Embed sends one request for all texts. Errors carry the server's status
// and message.
func (e *Ollama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	truncate := true
	resp, err := e.client.Embed(ctx, &api.EmbedRequest{Model: e.o.Model, Input: texts, Dimensions: e.o.Dimensions, Truncate: &truncate})
	if err != nil {
		return nil, fmt.Errorf("ollama embed: %w", err)
	}
	if len(resp.Embeddings) != len(texts) {
		return nil, fmt.Errorf("ollama embed: got %d embeddings for %d texts", len(resp.Embeddings), len(texts))
	}
	return resp.Embeddings, nil
}

// OpenAI embeds with an OpenAI-compatible server: POST
// {BaseURL}/embeddings with
//
//	{"model": Model, "input": [texts…], "encoding_format": "float", "dimensions"?: Dimensions}
//
// answered by {"data": [{"index", "embedding": [float…]}…], "model", "usage"}
// (OpenAI API reference, "Create embeddings"), through
// github.com/openai/openai-go/v3 with its retries off. Vectors are put back
// in input order by their index. Safe for concurrent use.
type OpenAI struct {
	o      RemoteOptions
	client openai.Client
}

// NewOpenAI checks the options: a model and an http(s) base URL.
func NewOpenAI(o RemoteOptions) (*OpenAI, error) {
	if o.BaseURL == "" {
		o.BaseURL = "https://api.openai.com/v1"
	}
	if _, err := checkRemote(o, "openai"); err != nil {
		return nil, err
	}
	c := openai.NewClient(
		option.WithBaseURL(strings.TrimRight(o.BaseURL, "/")+"/"),
		option.WithAPIKey(o.APIKey),
		option.WithHTTPClient(o.client()),
		option.WithMaxRetries(0),
	)
	return &OpenAI{o: o, client: c}, nil
}

// Name is "openai:<model>[:<dims>]".
func (e *OpenAI) Name() string { return e.o.name("openai") }

// Embed sends one request for all texts.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	p := openai.EmbeddingNewParams{
		Model:          openai.EmbeddingModel(e.o.Model),
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	if e.o.Dimensions > 0 {
		p.Dimensions = openai.Int(int64(e.o.Dimensions))
	}
	resp, err := e.client.Embeddings.New(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("openai embed: %w", err)
	}
	if len(resp.Data) != len(texts) {
		return nil, fmt.Errorf("openai embed: got %d embeddings for %d texts", len(resp.Data), len(texts))
	}
	data := resp.Data
	sort.SliceStable(data, func(i, j int) bool { return data[i].Index < data[j].Index })
	out := make([][]float32, len(data))
	for i, d := range data {
		if d.Index != int64(i) {
			return nil, fmt.Errorf("openai embed: embedding indexes are not 0..%d", len(texts)-1)
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			v[j] = float32(x)
		}
		out[i] = v
	}
	return out, nil
}

func checkRemote(o RemoteOptions, kind string) (*url.URL, error) {
	if o.Model == "" {
		return nil, fmt.Errorf("%s embedder: no model", kind)
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New(kind + " embedder: base URL must be http(s)://host[:port][/path]")
	}
	return u, nil
}

// bearer adds an Authorization header (Ollama behind an authenticating
// proxy).
type bearer struct {
	key  string
	next http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	next := b.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}
