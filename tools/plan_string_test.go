package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/engine"
)

// planRecorder is a PlanRunner and PlanChecker that keeps the plan bytes
// it was handed.
type planRecorder struct {
	got []byte
}

func (r *planRecorder) RunPlan(_ context.Context, _ string, plan []byte) (*engine.Result, error) {
	r.got = plan
	return &engine.Result{Columns: []string{}, Rows: [][]any{}, Warnings: []string{}}, nil
}

func (r *planRecorder) CheckPlan(_ context.Context, _ string, plan []byte, _ string) (*engine.PlanCheck, error) {
	r.got = plan
	return &engine.PlanCheck{}, nil
}

// Threat: many hosts serialise the plan argument a second time and send
// {"plan": "{\"select\": …}"}; refused for its quoting, the model resends
// the same string and the question is never answered. A string holding a
// JSON object reaches the engine as that object, on both tools; any other
// string reaches it untouched, for the engine to name what is wrong.
func TestPlanSentAsAJSONStringIsTheObject(t *testing.T) {
	const plan = `{"select": [{"expr": {"kind": "column", "table": "g", "column": "Name"}}], "from": [{"table": "Genre", "alias": "g"}]}`
	quoted, _ := json.Marshal(" " + plan + "\n")
	cases := []struct {
		name string
		arg  json.RawMessage
		want string
	}{
		{"object", json.RawMessage(plan), plan},
		{"string holding the object", quoted, plan},
		{"string holding broken JSON", json.RawMessage(`"{\"select\": [}"`), `"{\"select\": [}"`},
		{"string holding SQL", json.RawMessage(`"SELECT 1"`), `"SELECT 1"`},
		{"string holding an array", json.RawMessage(`"[1]"`), `"[1]"`},
	}
	for _, c := range cases {
		for tool, h := range map[string]func(*planRecorder) func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error){
			"run_plan": func(r *planRecorder) func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return RunPlanHandler(r)
			},
			"check_plan": func(r *planRecorder) func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return CheckPlanHandler(r)
			},
		} {
			r := &planRecorder{}
			args := json.RawMessage(`{"plan": ` + string(c.arg) + `}`)
			res, err := h(r)(context.Background(), mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Arguments: args}})
			if err != nil || res == nil {
				t.Fatalf("%s, %s: %v", tool, c.name, err)
			}
			if compact(r.got) != compact([]byte(c.want)) {
				t.Errorf("%s, %s: the engine got %s, want %s", tool, c.name, r.got, c.want)
			}
		}
	}
}

// compact spells a JSON document without insignificant space (the
// arguments are re-encoded on the way in).
func compact(b []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}
