package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/nl2sql/nl2sql/internal/plural"
	"sort"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// Lister is what list_datasources needs of the engine.
type Lister interface {
	ListDatasources(ctx context.Context) []engine.DatasourceInfo
}

// DatasourceList is list_datasources' structured output: one page of the
// datasources the caller may use, sorted by id.
type DatasourceList struct {
	Datasources []engine.DatasourceInfo `json:"datasources"`
	// Total counts the caller's datasources over all pages.
	Total int `json:"total"`
	// Truncated is set when more datasources follow (next_cursor).
	Truncated       bool   `json:"truncated,omitempty"`
	TruncatedReason string `json:"truncated_reason,omitempty"`
	NextCursor      string `json:"next_cursor,omitempty"`
}

var listOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasources": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "id": {"type": "string"}, "engine": {"type": "string"}, "description": {"type": "string"},
        "tables": {"type": "integer", "description": "Tables, not counting views."}, "views": {"type": "integer", "description": "Views."}, "empty_tables": {"type": "integer", "description": "Tables that held no rows when profiled; when it equals tables, every answer is empty."}, "status": {"type": "string", "enum": ["ready", "indexing", "unavailable"], "description": "indexing: still being opened; list again in a few seconds"},
        "error": {"type": "string"}, "hint": {"type": "string", "description": "How to make an unavailable datasource available."}
      },
      "required": ["id", "engine", "description", "tables", "status"]
    }},
    "total": {"type": "integer", "description": "Datasources over all pages."},
    "truncated": {"type": "boolean"}, "truncated_reason": {"type": "string"},
    "next_cursor": {"type": "string", "description": "Pass as cursor for the next page; absent on the last page."}
  },
  "required": ["datasources", "total"]
}`)

// ListDatasourcesTool describes the list_datasources tool.
func ListDatasourcesTool() mcpgo.Tool {
	return readOnlyTool("list_datasources", "List datasources",
		"List the datasources this server can answer questions about: id, engine, description, and its tables and views counted apart, in pages that fit the result's token budget (next_cursor).",
		json.RawMessage(`{"type": "object", "properties": {"cursor": {"type": "string", "maxLength": 1024, "description": "next_cursor of the previous page."}}, "additionalProperties": false}`),
		listOutputSchema)
}

// ListDatasourcesHandler answers list_datasources calls.
func ListDatasourcesHandler(eng Lister) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args struct {
			Cursor string `json:"cursor,omitempty"`
		}
		if bad := bindStrict(req, &args, `{"cursor"?: string}`); bad != nil {
			return bad, nil
		}
		after, err := DecodeCursor(args.Cursor, "list_datasources")
		if err != nil {
			return errorResult(err), nil
		}
		all := eng.ListDatasources(ctx)
		start := 0
		if args.Cursor != "" {
			start = sort.Search(len(all), func(i int) bool { return all[i].ID > after })
		}
		rest := all[start:]
		line := func(d engine.DatasourceInfo) string {
			tables := plural.Relations(d.Tables+d.Views, d.Views)
			switch {
			case d.EmptyTables > 0 && d.EmptyTables == d.Tables:
				tables += ", every one empty when profiled"
			case d.EmptyTables > 0:
				tables += fmt.Sprintf(", %d empty when profiled", d.EmptyTables)
			}
			s := fmt.Sprintf("%s (%s, %s, %s)", d.ID, d.Engine, tables, d.Status)
			if d.Status != "ready" { // no snapshot yet: no table count to give
				s = fmt.Sprintf("%s (%s, %s)", d.ID, d.Engine, d.Status)
			}
			if d.Description != "" {
				s += ": " + d.Description
			}
			s += "\n"
			switch {
			case d.Error != "" && d.Status == "indexing": // not a fault: how far the open got
				s += fmt.Sprintf("  %s\n", d.Error)
			case d.Error != "":
				s += fmt.Sprintf("  error: %s\n", d.Error)
			}
			if d.Hint != "" {
				s += fmt.Sprintf("  hint: %s\n", d.Hint)
			}
			return s
		}
		build := func(n int) *mcpgo.CallToolResult {
			list := DatasourceList{Datasources: rest[:n:n], Total: len(all)}
			var b strings.Builder
			for _, d := range list.Datasources {
				b.WriteString(line(d))
			}
			if n < len(rest) {
				list.Truncated, list.TruncatedReason = true, TruncatedTokenBudget
				list.NextCursor = EncodeCursor("list_datasources", rest[max(n-1, 0)].ID)
				fmt.Fprintf(&b, "(datasources %d-%d of %d: the rest would pass the result's token budget; pass cursor %q for the next page)\n", start+1, start+n, len(all), list.NextCursor)
			}
			return mcpgo.NewToolResultStructured(list, b.String())
		}
		cost := func(i int) int {
			j, _ := json.Marshal(rest[i])
			return Tokens(string(j)) + Tokens(line(rest[i])) + 2
		}
		res, _ := fitPage(len(rest), cost, build, target(BudgetOf(eng)))
		return res, nil
	}
}
