package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckOutput(t *testing.T) {
	nested := json.RawMessage(`{"type":"object","additionalProperties":false,"required":["items"],
"properties":{"items":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"}]}}},
"$defs":{"A":{"type":"object","additionalProperties":false,"required":["kind","n"],"properties":{"kind":{"enum":["a"]},"n":{"type":"integer"}}},
"B":{"type":"object","additionalProperties":false,"required":["kind","s"],"properties":{"kind":{"enum":["b"]},"s":{"type":"string"}}}}}`)
	tests := []struct {
		name   string
		text   string
		schema json.RawMessage
		want   string // the JSON returned, or "" for an error
		reason string
	}{
		{"plain", `{"ok":true}`, okSchema, `{"ok":true}`, ""},
		{"spaces", " \n{\"ok\": false}\n", okSchema, `{"ok": false}`, ""},
		{"fenced", "```json\n{\"ok\":true}\n```", okSchema, `{"ok":true}`, ""},
		{"no schema", `[1,2]`, nil, `[1,2]`, ""},
		{"empty", "  ", okSchema, "", "empty"},
		{"prose", "Here you go", okSchema, "", "not JSON"},
		{"trailing text", `{"ok":true} done`, okSchema, "", "more than one"},
		{"wrong type", `{"ok":1}`, okSchema, "", "at /ok:"},
		{"missing", `{}`, okSchema, "", "missing property"},
		{"deep anyOf", `{"items":[{"kind":"a","n":1},{"kind":"b","s":7}]}`, nested, "", "at /items/1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckOutput(tt.text, tt.schema)
			if tt.want != "" {
				if err != nil || string(got) != tt.want {
					t.Errorf("CheckOutput = %s, %v; want %s", got, err, tt.want)
				}
				return
			}
			var bad *InvalidOutputError
			if !errors.As(err, &bad) || !strings.Contains(bad.Reason, tt.reason) {
				t.Fatalf("err = %v, want reason with %q", err, tt.reason)
			}
			if bad.Content != tt.text {
				t.Errorf("content %q", bad.Content)
			}
			if len(bad.Reason) > 1100 {
				t.Errorf("reason too long (%d bytes): %s", len(bad.Reason), bad.Reason)
			}
		})
	}
}

// Recording a live provider and replaying the directory gives the same
// answers, usage included, and the same invalid answers.
func TestRecordReplayRoundTrip(t *testing.T) {
	f := newFake(t, func(n int, w http.ResponseWriter, r *http.Request, body map[string]any) {
		if n == 0 {
			writeJSON(w, 200, openAIBody(`{"ok": "not a boolean"}`, "stop", nil))
			return
		}
		writeJSON(w, 200, openAIBody(`{"ok": true}`, "stop", nil))
	})
	p := newProvider(t, kOpenAI, f, Options{APIKey: testKey})
	dir := filepath.Join(t.TempDir(), "rec")
	rec, err := NewRecorder(p, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := testRequest()
	req.Datasource, req.PromptHash = "chinook", "abc123"
	_, err1 := rec.Complete(ctx, req)
	var bad1 *InvalidOutputError
	if !errors.As(err1, &bad1) {
		t.Fatalf("first call: %v", err1)
	}
	req2 := req
	req2.Step, req2.Sample = "plan_repair", 1
	resp2, err := rec.Complete(ctx, req2)
	if err != nil {
		t.Fatal(err)
	}

	rp, err := OpenReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rp.Recordings()); n != 2 {
		t.Fatalf("%d recordings", n)
	}
	_, err = rp.Complete(ctx, req)
	var bad2 *InvalidOutputError
	if !errors.As(err, &bad2) || *bad2 != *bad1 {
		t.Errorf("replayed invalid answer %v, recorded %v", err, err1)
	}
	got, err := rp.Complete(ctx, req2)
	if err != nil {
		t.Fatal(err)
	}
	if got.Usage != resp2.Usage || got.Usage != (Usage{19, 10}) {
		t.Errorf("usage %+v, recorded %+v", got.Usage, resp2.Usage)
	}
	var a, b any
	json.Unmarshal(got.Content, &a)
	json.Unmarshal(resp2.Content, &b)
	if !jsonEqual(t, a, resp2.Content) || b == nil {
		t.Errorf("content %s, recorded %s", got.Content, resp2.Content)
	}
	r, _ := rp.Lookup(req2)
	if r.PromptSHA256 != "abc123" || r.Question != "ping" || !strings.Contains(r.Note, "openai model gpt-test-2025") {
		t.Errorf("recording %+v", r)
	}
	// Two questions whose slugs collide get two files.
	long := strings.Repeat("how many tracks ", 8)
	for _, q := range []string{long + "in rock", long + "in jazz"} {
		rq := req2
		rq.Intent = q
		if _, err := rec.Complete(ctx, rq); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files after a slug collision, want 4", len(entries))
	}
	if _, err := OpenReplay(dir); err != nil {
		t.Errorf("reopen: %v", err)
	}
}
