package tools

import (
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Every tool must marshal: mcp-go drops a tools/list answer it cannot
// encode, and clients then wait until they time out.
func TestToolsMarshal(t *testing.T) {
	for _, tl := range []mcpgo.Tool{AskTool(false), AskTool(true), ExplainPlanTool(), ListDatasourcesTool()} {
		b, err := json.Marshal(tl)
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil || back["outputSchema"] == nil || back["inputSchema"] == nil {
			t.Errorf("%s: %s", tl.Name, b)
		}
	}
}

func TestBindStrict(t *testing.T) {
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"question": "q", "role": "admin", "User": "root"}, ""},
		{map[string]any{"question": "q", "datasrc": "x"}, `unknown argument "datasrc"`},
		{map[string]any{"question": 42}, `argument "question" must be a string`},
		{map[string]any{"question": "q", "datasource": []any{1}}, `argument "datasource" must be a string`},
		{map[string]any{"question": "q", "datasource": "x"}, ""},
		{nil, ""},
		{map[string]any{"question": "q", "user_id": 7}, ""},
	}
	for _, c := range cases {
		var args AskArgs
		res := bindStrict(mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Arguments: c.args}}, &args, askShape)
		switch {
		case c.want == "" && res != nil:
			t.Errorf("%v: unexpected error %v", c.args, res.Content)
		case c.want != "":
			if res == nil || !res.IsError {
				t.Fatalf("%v: want an error", c.args)
			}
			if text := res.Content[0].(mcpgo.TextContent).Text; !strings.Contains(text, c.want) || !strings.Contains(text, "INVALID_REQUEST") {
				t.Errorf("%v: %q lacks %q", c.args, text, c.want)
			}
		}
	}
}

// Arguments that are not a JSON object are refused by name, without Go
// type names in the message.
func TestBindStrictNotAnObject(t *testing.T) {
	var args AskArgs
	res := bindStrict(mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Arguments: "a string"}}, &args, askShape)
	if res == nil || !res.IsError {
		t.Fatal("a string was accepted as arguments")
	}
	text := res.Content[0].(mcpgo.TextContent).Text
	if !strings.Contains(text, "INVALID_REQUEST: arguments must be a JSON object") || strings.Contains(text, "tools.") {
		t.Errorf("text = %q", text)
	}
}

// A type mismatch names the JSON kind expected, never a Go type.
func TestBindStrictNamesJSONKinds(t *testing.T) {
	var args RunVerifiedArgs
	res := bindStrict(mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Arguments: map[string]any{"id": "x", "params": "x"}}}, &args, runVerifiedShape)
	if res == nil {
		t.Fatal("no error")
	}
	if msg := res.Content[0].(mcpgo.TextContent).Text; !strings.Contains(msg, `argument "params" must be an object`) || strings.Contains(msg, "interface") {
		t.Errorf("got %q", msg)
	}
}
