package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// Lister is what list_datasources needs of the engine.
type Lister interface {
	ListDatasources(ctx context.Context) []engine.DatasourceInfo
}

// DatasourceList is list_datasources' structured output.
type DatasourceList struct {
	Datasources []engine.DatasourceInfo `json:"datasources"`
}

var listOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasources": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "id": {"type": "string"}, "engine": {"type": "string"}, "description": {"type": "string"},
        "tables": {"type": "integer"}, "status": {"type": "string", "enum": ["ready", "unavailable"]},
        "error": {"type": "string"}
      },
      "required": ["id", "engine", "description", "tables", "status"]
    }}
  },
  "required": ["datasources"]
}`)

// ListDatasourcesTool describes the list_datasources tool.
func ListDatasourcesTool() mcpgo.Tool {
	return readOnlyTool("list_datasources", "List datasources",
		"List the datasources this server can answer questions about: id, engine, description and table count.",
		json.RawMessage(`{"type": "object", "properties": {}, "additionalProperties": false}`),
		listOutputSchema)
}

// ListDatasourcesHandler answers list_datasources calls.
func ListDatasourcesHandler(eng Lister) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		list := DatasourceList{Datasources: eng.ListDatasources(ctx)}
		var b strings.Builder
		for _, d := range list.Datasources {
			fmt.Fprintf(&b, "%s (%s, %d tables, %s): %s\n", d.ID, d.Engine, d.Tables, d.Status, d.Description)
			if d.Error != "" {
				fmt.Fprintf(&b, "  error: %s\n", d.Error)
			}
		}
		return FitStructured(eng, list, b.String()), nil
	}
}
