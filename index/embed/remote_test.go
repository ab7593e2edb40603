package embed

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// TestOllamaWire speaks Ollama's POST /api/embed: {"model", "input": [..]}
// in, {"model", "embeddings": [[..]..]} out.
func TestOllamaWire(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/embed" {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer k" {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got = nil
		json.Unmarshal(b, &got)
		if got["model"] == "missing" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"model \"missing\" not found, try pulling it first"}`)
			return
		}
		io.WriteString(w, `{"model":"nomic-embed-text","embeddings":[[0.1,0.2,0.3],[0.4,0.5,0.6]],"total_duration":1}`)
	}))
	defer srv.Close()
	e, err := NewOllama(RemoteOptions{BaseURL: srv.URL, Model: "nomic-embed-text", APIKey: "k", Dimensions: 3})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Embed(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float32{{0.1, 0.2, 0.3}, {0.4, 0.5, 0.6}}; !reflect.DeepEqual(vs, want) {
		t.Errorf("vectors = %v, want %v", vs, want)
	}
	if got["model"] != "nomic-embed-text" || !reflect.DeepEqual(got["input"], []any{"a", "b"}) || got["dimensions"] != float64(3) {
		t.Errorf("request = %v", got)
	}
	if e.Name() != "ollama:nomic-embed-text:3" {
		t.Errorf("Name = %q", e.Name())
	}
	bad, _ := NewOllama(RemoteOptions{BaseURL: srv.URL, Model: "missing", APIKey: "k"})
	if _, err := bad.Embed(context.Background(), []string{"a"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing model: err = %v", err)
	}
}

// TestOpenAIWire speaks POST /v1/embeddings: {"model", "input": [..],
// "encoding_format": "float"} in, {"data": [{"index", "embedding"}..]} out,
// in any order.
func TestOpenAIWire(t *testing.T) {
	var got map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		got = nil
		json.Unmarshal(b, &got)
		io.WriteString(w, `{"object":"list","model":"text-embedding-3-small","usage":{"prompt_tokens":2,"total_tokens":2},
			"data":[{"object":"embedding","index":1,"embedding":[0.5,0.5]},{"object":"embedding","index":0,"embedding":[1,0]}]}`)
	}))
	defer srv.Close()
	e, err := NewOpenAI(RemoteOptions{BaseURL: srv.URL + "/v1", Model: "text-embedding-3-small", APIKey: "sk-test"})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Embed(context.Background(), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float32{{1, 0}, {0.5, 0.5}}; !reflect.DeepEqual(vs, want) {
		t.Errorf("vectors = %v, want %v (input order)", vs, want)
	}
	if got["model"] != "text-embedding-3-small" || !reflect.DeepEqual(got["input"], []any{"first", "second"}) || got["encoding_format"] != "float" {
		t.Errorf("request = %v", got)
	}
	if _, ok := got["dimensions"]; ok {
		t.Error("dimensions sent though unset")
	}
	bad, _ := NewOpenAI(RemoteOptions{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "wrong"})
	if _, err := bad.Embed(context.Background(), []string{"a"}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("bad key: err = %v", err)
	}
}

func TestRemoteOptionsChecked(t *testing.T) {
	for _, o := range []RemoteOptions{{Model: ""}, {Model: "m", BaseURL: "ftp://x"}, {Model: "m", BaseURL: "http://"}} {
		if _, err := NewOllama(o); err == nil {
			t.Errorf("NewOllama(%+v) accepted", o)
		}
		if _, err := NewOpenAI(o); err == nil {
			t.Errorf("NewOpenAI(%+v) accepted", o)
		}
	}
}
