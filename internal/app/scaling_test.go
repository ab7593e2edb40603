package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// The scaling section reaches the engine from nl2sql.yaml: globally, per
// datasource, and checked with a typed error naming the key.
func TestScalingFromConfig(t *testing.T) {
	recs, err := filepath.Abs(filepath.Join("..", "..", "engine", "testdata", "scale", "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	llmSection := "  default: {provider: replay, recordings: " + recs + "}\n"
	section := "  strategies:\n    - {name: plain, samples: 2}\n    - {name: reasoning, samples: 2}\n    - {name: decompose, samples: 3}\n  tournament: %s\n"
	cases := []struct {
		name, extra string
		wantRows    string
		wantSel     string
		wantErr     string
	}{
		{"global tournament", "scaling:\n" + strings.Replace(section, "%s", "true", 1), `[["Iron Maiden",21]]`, "tournament", ""},
		{"global majority", "scaling:\n" + strings.Replace(section, "%s", "false", 1), `[["Iron Maiden",213]]`, "majority", ""},
		{"unknown strategy", "scaling:\n  strategies: [{name: clever, samples: 2}]\n", "", "", "scaling.strategies[0].name: \"clever\" is not one of"},
		{"bad router", "scaling:\n  router: psychic\n", "", "", "scaling.router"},
		{"unknown key", "scaling:\n  candidates: 8\n", "", "", "scaling.candidates"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeConfig(t, llmSection)
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(tc.extra)
			f.Close()
			res, err := askArtist(p)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := json.Marshal(res.Rows)
			if string(rows) != tc.wantRows || res.Scaling == nil || res.Scaling.Selection != tc.wantSel {
				t.Errorf("rows %s scaling %+v", rows, res.Scaling)
			}
		})
	}
}

// A datasource's own scaling section replaces the global one.
func TestScalingPerDatasource(t *testing.T) {
	recs, _ := filepath.Abs(filepath.Join("..", "..", "engine", "testdata", "scale", "recordings"))
	p := writeConfig(t, "  default: {provider: replay, recordings: "+recs+"}\n")
	b, _ := os.ReadFile(p)
	body := strings.Replace(string(b), "engine: sqlite,", "engine: sqlite, scaling: {strategies: [{name: plain, samples: 2}, {name: reasoning, samples: 2}]},", 1)
	body += "scaling:\n  strategies: [{name: decompose, samples: 3}]\n"
	os.WriteFile(p, []byte(body), 0o644)
	res, err := askArtist(p)
	if err != nil {
		t.Fatal(err)
	}
	if sc := res.Scaling; sc == nil || len(sc.Candidates) != 4 || sc.Candidates[3].Strategy != "reasoning" {
		t.Fatalf("scaling %+v", res.Scaling)
	}
}

// askArtist opens the config at p and asks the question the scaling
// recordings answer.
func askArtist(p string) (*engine.Result, error) {
	a, err := Open(p, quiet)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	return a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"})
}

// llm.select is the selector: an OpenAI-compatible server that fails makes
// the largest bucket win, and the result says so.
func TestScalingSelectorEntry(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":{"message":"overloaded","type":"server_error"}}`)
	}))
	t.Cleanup(srv.Close)
	recs, _ := filepath.Abs(filepath.Join("..", "..", "engine", "testdata", "scale", "recordings"))
	p := writeConfig(t, "  default: {provider: replay, recordings: "+recs+"}\n"+
		"  select: {provider: openai, base_url: "+srv.URL+"/v1, api_key: sk-test, model: sel, max_retries: 0}\n"+
		"scaling:\n  strategies: [{name: plain, samples: 2}, {name: reasoning, samples: 2}, {name: decompose, samples: 3}]\n  tournament: true\n")
	res, err := askArtist(p)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := json.Marshal(res.Rows)
	if sc := res.Scaling; string(rows) != `[["Iron Maiden",213]]` || sc.Selection != "majority_selector_failed" || !strings.Contains(sc.SelectorError, "overloaded") {
		t.Errorf("rows %s scaling %+v", rows, sc)
	}
}
