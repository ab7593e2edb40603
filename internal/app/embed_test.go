package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A fake Ollama /api/embed server (request {"model", "input": [...]},
// response {"model", "embeddings": [[...]]}, as Ollama's API documents).
func fakeOllamaEmbed(t *testing.T, calls *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/embed" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "nomic-embed-text" {
			http.Error(w, "bad request", 400)
			return
		}
		calls.Add(1)
		out := make([][]float32, len(req.Input))
		for i, s := range req.Input {
			v := make([]float32, 8)
			for j, c := range strings.ToLower(s) {
				v[(int(c)+j)%8] += 1
			}
			out[i] = v
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": out})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// llm.embed configures the retrieval embedder: doctor checks it and the
// engine's retrieval index is built with it.
func TestEmbedderFromConfig(t *testing.T) {
	var calls atomic.Int64
	srv := fakeOllamaEmbed(t, &calls)
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	cfg := writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\n  embed: {provider: ollama, host: %q, model: nomic-embed-text}\n", rec, srv.URL))
	var out bytes.Buffer
	if err := Doctor(context.Background(), cfg, &out); err != nil {
		t.Fatalf("doctor: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "llm.embed: ok (ollama") {
		t.Errorf("doctor output:\n%s", out.String())
	}
	a, err := Open(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	before := calls.Load()
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which media type has the most tracks?"})
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("%v %v", res, err)
	}
	if calls.Load() == before {
		t.Error("the retrieval index did not use the configured embedder")
	}
}
