package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

var quiet = slog.New(slog.DiscardHandler)

// askAll asks every question and returns the JSON of each result.
func askAll(t *testing.T, cfgPath string, o Options, qs []string) [][]byte {
	t.Helper()
	a, err := OpenWith(cfgPath, quiet, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var out [][]byte
	for _, q := range qs {
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: q})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		// Timings and the trace id differ between runs by design; the rest
		// of the result must be byte-identical.
		res.Timings, res.TraceID = engine.Timings{}, ""
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// A run recorded against the (fake) OpenAI server through the real engine
// replays from the recordings directory to byte-identical results, usage
// included; the recordings hold no key and match the current prompts.
func TestRecordThenReplayChinook(t *testing.T) {
	for _, prov := range []string{"openai", "ollama"} {
		t.Run(prov, func(t *testing.T) {
			srv := newModelServer(t)
			entry := fmt.Sprintf("  default: {provider: openai, base_url: %q, api_key: %q, model: gpt-test}\n", srv.URL+"/v1", testKey)
			if prov == "ollama" {
				entry = fmt.Sprintf("  default: {provider: ollama, host: %q, api_key: %q, model: \"qwen2.5-coder:7b\", num_ctx: 8192}\n", srv.URL, testKey)
			}
			live := writeConfig(t, entry)
			recDir := filepath.Join(t.TempDir(), "recordings")
			qs := chinookQuestions(t)
			recorded := askAll(t, live, Options{Record: recDir}, qs)
			if n := len(srv.calls()); n != len(qs) {
				t.Errorf("%d model calls for %d questions", n, len(qs))
			}
			var usage struct {
				Usage struct {
					InputTokens int `json:"input_tokens"`
				} `json:"usage"`
			}
			json.Unmarshal(recorded[0], &usage)
			if usage.Usage.InputTokens == 0 {
				t.Errorf("recorded result has no usage: %s", recorded[0])
			}

			replay := writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\n", recDir))
			replayed := askAll(t, replay, Options{}, qs)
			for i := range qs {
				if !bytes.Equal(recorded[i], replayed[i]) {
					t.Errorf("%q: replayed result differs:\n%s\n%s", qs[i], recorded[i], replayed[i])
				}
			}
			files, _ := filepath.Glob(filepath.Join(recDir, "*.json"))
			if len(files) != len(qs) {
				t.Errorf("%d recordings for %d questions", len(files), len(qs))
			}
			for _, f := range files {
				b, _ := os.ReadFile(f)
				if bytes.Contains(b, []byte(testKey)) || bytes.Contains(b, []byte("APP-SECRET")) {
					t.Errorf("%s holds the API key", filepath.Base(f))
				}
			}
			var out bytes.Buffer
			if err := CheckRecordings(context.Background(), replay, &out); err != nil {
				t.Errorf("CheckRecordings: %v\n%s", err, out.String())
			}
		})
	}
}

// Invalid answers go back to the model through the engine's repair loop at
// most MaxRepairs (2) times, then the question fails with PLAN_INVALID; an
// answer repaired on the second call succeeds, and that run (its invalid
// first answer included) replays byte-identically.
func TestRepairLoop(t *testing.T) {
	const q = "How many customers are there in each country?"
	truncated := `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"reas`
	tests := []struct {
		name     string
		prov     string
		answer   func(q string, n int, body map[string]any) (string, string)
		calls    int
		wantCode engine.Code
		reason   string // in the repair prompt
	}{
		{"openai not JSON", "openai", func(string, int, map[string]any) (string, string) { return "SELECT * FROM Customer", "" },
			3, engine.CodePlanInvalid, "not JSON"},
		{"openai truncated body", "openai", func(string, int, map[string]any) (string, string) { return "", truncated },
			3, engine.CodePlanInvalid, "not complete JSON"},
		{"ollama off schema", "ollama", func(string, int, map[string]any) (string, string) { return `{"reasoning":"x"}`, "" },
			3, engine.CodePlanInvalid, "missing property 'plan'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newModelServer(t)
			srv.answer = tt.answer
			cfg := writeConfig(t, entryFor(tt.prov, srv.URL))
			a, err := OpenWith(cfg, quiet, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			_, err = a.Engine.Ask(context.Background(), engine.AskRequest{Question: q})
			var ee *engine.Error
			if !errors.As(err, &ee) || ee.Code != tt.wantCode {
				t.Fatalf("err = %v, want %s", err, tt.wantCode)
			}
			calls := srv.calls()
			if len(calls) != tt.calls {
				t.Errorf("%d model calls, want %d (1 + MaxRepairs)", len(calls), tt.calls)
			}
			if len(calls) > 1 && !strings.Contains(userText(calls[1]), tt.reason) {
				t.Errorf("the repair prompt does not carry the reason %q:\n%s", tt.reason, userText(calls[1]))
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error holds the key: %v", err)
			}
		})
	}

	t.Run("repaired on the second call, replayed", func(t *testing.T) {
		srv := newModelServer(t)
		good := chinookAnswers(t)
		srv.answer = func(q string, n int, _ map[string]any) (string, string) {
			if n == 0 {
				return `{"reasoning":"oops","plan":{"select":[]}`, "" // cut JSON
			}
			return good[strings.ToLower(strings.TrimRight(q, "?"))], ""
		}
		recDir := filepath.Join(t.TempDir(), "rec")
		recorded := askAll(t, writeConfig(t, entryFor("openai", srv.URL)), Options{Record: recDir}, []string{q})
		if !strings.Contains(string(recorded[0]), `"attempts":2`) {
			t.Errorf("want 2 attempts: %s", recorded[0])
		}
		replayed := askAll(t, writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\n", recDir)), Options{}, []string{q})
		if !bytes.Equal(recorded[0], replayed[0]) {
			t.Errorf("replay differs:\n%s\n%s", recorded[0], replayed[0])
		}
		var out bytes.Buffer
		err := CheckRecordings(context.Background(), writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\n", recDir)), &out)
		if err != nil || !strings.Contains(out.String(), "1 ok, 0 stale, 0 failed, 1 skipped") {
			t.Errorf("CheckRecordings: %v\n%s", err, out.String())
		}
	})
}

func entryFor(prov, url string) string {
	if prov == "ollama" {
		return fmt.Sprintf("  default: {provider: ollama, host: %q, model: m, max_retries: 0}\n", url)
	}
	return fmt.Sprintf("  default: {provider: openai, base_url: %q, api_key: %q, model: m, max_retries: 0}\n", url+"/v1", testKey)
}

// A recording whose prompt hash no longer matches is listed as stale and
// the check fails.
func TestCheckRecordingsStale(t *testing.T) {
	srv := newModelServer(t)
	recDir := filepath.Join(t.TempDir(), "rec")
	qs := chinookQuestions(t)[:3]
	live := writeConfig(t, entryFor("openai", srv.URL))
	askAll(t, live, Options{Record: recDir}, qs)
	askAll(t, live, Options{}, qs) // the plan cache answers
	askAll(t, live, Options{Record: recDir}, qs)
	if n := len(srv.calls()); n != 2*len(qs) {
		t.Errorf("%d model calls; a recording run must bypass the plan cache (want %d)", n, 2*len(qs))
	}
	files, _ := filepath.Glob(filepath.Join(recDir, "*.json"))
	b, _ := os.ReadFile(files[0])
	var rec map[string]any
	json.Unmarshal(b, &rec)
	rec["prompt_sha256"] = "0000000000000000000000000000000000000000000000000000000000000000"
	b, _ = json.MarshalIndent(rec, "", "  ")
	os.WriteFile(files[0], b, 0o644)
	var out bytes.Buffer
	err := CheckRecordings(context.Background(), writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\n", recDir)), &out)
	if err == nil || !strings.Contains(out.String(), filepath.Base(files[0])+": STALE") || !strings.Contains(out.String(), "3 recordings: 2 ok, 1 stale") {
		t.Errorf("err = %v\n%s", err, out.String())
	}
}
