package tools

import (
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/engine"
)

// errorResult turns an engine error into an MCP tool error (isError: true),
// so the calling model sees the code, the message and the hint and can
// correct itself. Plan issues are listed one JSON object per line.
func errorResult(err error) *mcpgo.CallToolResult {
	e := engine.AsError(err)
	text := string(e.Code) + ": " + e.Msg
	if e.Hint != "" {
		text += "\nhint: " + e.Hint
	}
	for _, is := range e.Issues {
		b, _ := json.Marshal(is)
		text += "\n" + string(b)
	}
	return mcpgo.NewToolResultError(text)
}

// rawInput sets a hand-written input schema, clearing the default one that
// mcpgo.NewTool fills in (a tool may carry only one of the two).
func rawInput(schema json.RawMessage) mcpgo.ToolOption {
	return func(t *mcpgo.Tool) {
		t.InputSchema = mcpgo.ToolInputSchema{}
		t.RawInputSchema = schema
	}
}
