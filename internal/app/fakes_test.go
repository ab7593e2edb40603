package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/planast/planschema"
)

// Fake model servers that speak the real wire protocols: OpenAI's
// POST /v1/chat/completions and Ollama's POST /api/chat. They decode the
// request the provider sent, find the question in the planner's prompt, and
// answer with the Chinook recording for it, completed to the strict schema
// (every property present, optional ones null) as a strict-mode model would.

const testKey = "sk-test-APP-SECRET-9876543210fedcba"

const chinookDir = "../../examples/chinook"

// modelServer is an httptest server that answers both protocols. answer
// returns the content for a request (question, 0-based call number); nil
// means the Chinook recording.
type modelServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	answer func(question string, n int, body map[string]any) (content string, raw string)
}

func newModelServer(t *testing.T) *modelServer {
	t.Helper()
	answers := chinookAnswers(t)
	s := &modelServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			w.WriteHeader(400)
			return
		}
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, body)
		answer := s.answer
		s.mu.Unlock()
		q := question(body)
		content, raw := "", ""
		if answer != nil {
			content, raw = answer(q, n, body)
		} else if isDoctor(body) {
			content = `{"ok":true}`
		} else if a, ok := answers[llm.Normalize(q)]; ok {
			content = a
		} else {
			content = `{"reasoning":"I do not know","plan":null}`
		}
		w.Header().Set("Content-Type", "application/json")
		if raw != "" {
			io.WriteString(w, raw)
			return
		}
		c, _ := json.Marshal(content)
		switch r.URL.Path {
		case "/v1/chat/completions":
			fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-test","choices":[{"index":0,"message":{"role":"assistant","content":%s,"refusal":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":1200,"completion_tokens":80,"total_tokens":1280}}`, c)
		case "/api/chat":
			fmt.Fprintf(w, `{"model":"qwen2.5-coder:7b","created_at":"2025-01-15T10:00:00Z","message":{"role":"assistant","content":%s},"done_reason":"stop","done":true,"prompt_eval_count":1100,"eval_count":90}`+"\n", c)
		default:
			w.WriteHeader(404)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *modelServer) calls() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

// question finds "[QUESTION]\n…\n" in the last user message.
func question(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		c, _ := m["content"].(string)
		if _, rest, ok := strings.Cut(c, "[QUESTION]\n"); ok {
			q, _, _ := strings.Cut(rest, "\n")
			return q
		}
	}
	return ""
}

// userText is the last user message of a request.
func userText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	m, _ := msgs[len(msgs)-1].(map[string]any)
	s, _ := m["content"].(string)
	return s
}

func isDoctor(body map[string]any) bool {
	if rf, ok := body["response_format"].(map[string]any); ok {
		js, _ := rf["json_schema"].(map[string]any)
		return js["name"] == "doctor"
	}
	f, _ := body["format"].(map[string]any)
	props, _ := f["properties"].(map[string]any)
	_, ok := props["ok"]
	return ok && len(props) == 1
}

// chinookAnswers maps each normalised Chinook question to its recorded
// answer, completed to the strict answer schema and checked against it.
func chinookAnswers(t *testing.T) map[string]string {
	t.Helper()
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	schema := planschema.Answer()
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, rec := range rp.Recordings() {
		if rec.Step != "plan" {
			continue // the fakes answer planner calls only
		}
		var v any
		if err := json.Unmarshal(rec.Answer, &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(strictify(root, root, v))
		if _, err := llm.CheckOutput(string(b), schema); err != nil {
			t.Fatalf("%s completed to the strict schema is still invalid: %v", rec.File, err)
		}
		out[llm.Normalize(rec.Question)] = string(b)
	}
	return out
}

// strictify adds every property the schema declares and v lacks, as null
// (or, for a literal's type, the type its value implies), walking $ref,
// anyOf (the first branch whose type and "kind" fit), properties and items.
func strictify(root, sch map[string]any, v any) any {
	if ref, ok := sch["$ref"].(string); ok {
		defs := root["$defs"].(map[string]any)
		return strictify(root, defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any), v)
	}
	if branches, ok := sch["anyOf"].([]any); ok {
		for _, b := range branches {
			bs := resolve(root, b.(map[string]any))
			if fits(bs, v) {
				return strictify(root, bs, v)
			}
		}
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		for name, ps := range props {
			if _, ok := x[name]; !ok {
				x[name] = nil
				continue
			}
			x[name] = strictify(root, ps.(map[string]any), x[name])
		}
		if x["kind"] == "literal" && x["type"] == nil {
			x["type"] = literalType(x["value"])
		}
	case []any:
		if items, ok := sch["items"].(map[string]any); ok {
			for i := range x {
				x[i] = strictify(root, items, x[i])
			}
		}
	}
	return v
}

func resolve(root, sch map[string]any) map[string]any {
	if ref, ok := sch["$ref"].(string); ok {
		return root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	}
	return sch
}

// fits reports whether v has the branch's JSON type and, for objects with
// a "kind", the kind the branch allows.
func fits(sch map[string]any, v any) bool {
	if sch["anyOf"] != nil {
		return true
	}
	types := map[string]bool{}
	switch t := sch["type"].(type) {
	case string:
		types[t] = true
	case []any:
		for _, x := range t {
			types[x.(string)] = true
		}
	}
	switch x := v.(type) {
	case nil:
		return types["null"]
	case bool:
		return types["boolean"]
	case float64:
		return types["number"] || (types["integer"] && x == float64(int64(x)))
	case string:
		return types["string"]
	case []any:
		return types["array"]
	case map[string]any:
		if !types["object"] {
			return false
		}
		props, _ := sch["properties"].(map[string]any)
		kind, _ := props["kind"].(map[string]any)
		enum, _ := kind["enum"].([]any)
		if x["kind"] == nil || len(enum) == 0 {
			return true
		}
		return enum[0] == x["kind"]
	}
	return false
}

func literalType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "decimal"
	}
	return "string"
}

// chinookQuestions are the questions of examples/chinook/questions.json.
func chinookQuestions(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(chinookDir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, q := range qs {
		out = append(out, q.Question)
	}
	return out
}

// writeConfig writes an nl2sql.yaml for the Chinook database with the
// given llm section and returns its path.
func writeConfig(t *testing.T, llmSection string) string {
	t.Helper()
	db, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	body := fmt.Sprintf("storage: {path: .nl2sql}\ndatasources:\n  - {id: chinook, engine: sqlite, path: %q}\nllm:\n%s", db, llmSection)
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
