package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine/schema"
)

// SchemaDescriber is what describe_schema needs of the engine: the
// datasource's snapshot as the caller may see it.
type SchemaDescriber interface {
	VisibleSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, error)
	SemanticReader
}

// DescribePageSize is how many tables one describe_schema page holds: small
// enough that a page of wide tables stays far below the ~25k-token result
// cap some clients enforce.
const DescribePageSize = 25

// DescribeArgs is describe_schema's input.
type DescribeArgs struct {
	Datasource string `json:"datasource"`
	Table      string `json:"table,omitempty"`
	Filter     string `json:"filter,omitempty"`
	Cursor     string `json:"cursor,omitempty"`
}

// DescribeOutput is describe_schema's structured output.
type DescribeOutput struct {
	Datasource  string         `json:"datasource"`
	Dialect     string         `json:"dialect"`
	TotalTables int            `json:"total_tables"` // tables matching the filter, over all pages
	Tables      []schema.Table `json:"tables"`
	NextCursor  string         `json:"next_cursor,omitempty"`
	// Semantic holds the semantic layer's entries for this page's tables.
	Semantic *SemanticInfo `json:"semantic,omitempty"`
}

const describeShape = `{"datasource": string, "table"?: string, "filter"?: string, "cursor"?: string}`

// DescribeSchemaTool describes the describe_schema tool.
func DescribeSchemaTool() mcpgo.Tool {
	return readOnlyTool("describe_schema", "Describe a schema",
		"Describe a datasource's tables: columns with types, keys, foreign keys and sample values, only what you may see. Filter by exact table name or by a substring of table or column names; results come in pages of 25 tables with a next_cursor.",
		json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasource": {"type": "string", "maxLength": 128},
    "table": {"type": "string", "maxLength": 256, "description": "Exact table name (any case)."},
    "filter": {"type": "string", "maxLength": 256, "description": "Substring of a table or column name (any case)."},
    "cursor": {"type": "string", "maxLength": 64, "description": "next_cursor of the previous page."}
  },
  "required": ["datasource"],
  "additionalProperties": false
}`),
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "dialect": {"type": "string"}, "total_tables": {"type": "integer"}, "tables": {"type": "array", "items": {"type": "object"}}, "next_cursor": {"type": "string"}}, "required": ["datasource", "total_tables", "tables"]}`))
}

// DescribeSchemaHandler answers describe_schema calls.
func DescribeSchemaHandler(eng SchemaDescriber) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args DescribeArgs
		if bad := bindStrict(req, &args, describeShape); bad != nil {
			return bad, nil
		}
		snap, err := eng.VisibleSnapshot(ctx, args.Datasource)
		if err != nil {
			return errorResult(err), nil
		}
		offset := 0
		if args.Cursor != "" {
			b, err := base64.RawURLEncoding.DecodeString(args.Cursor)
			n, aerr := strconv.Atoi(strings.TrimPrefix(string(b), "offset:"))
			if err != nil || aerr != nil || n < 0 || !strings.HasPrefix(string(b), "offset:") {
				return mcpgo.NewToolResultError("INVALID_REQUEST: the cursor is not one this server issued\nhint: pass next_cursor from the previous page unchanged"), nil
			}
			offset = n
		}
		var match []schema.Table
		for _, t := range snap.Tables {
			if tableMatches(t, args.Table, args.Filter) {
				match = append(match, t)
			}
		}
		out := DescribeOutput{Datasource: snap.Datasource, Dialect: snap.Dialect, TotalTables: len(match), Tables: []schema.Table{}}
		if offset < len(match) {
			end := offset + DescribePageSize
			if end > len(match) {
				end = len(match)
			}
			out.Tables = match[offset:end]
			if end < len(match) {
				out.NextCursor = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
			}
		}
		page := &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: out.Tables}
		if out.Semantic, err = semanticFor(ctx, eng, args.Datasource, page.TableNames()); err != nil {
			return errorResult(err), nil
		}
		text := SnapshotText(page) + out.Semantic.Text()
		if out.NextCursor != "" {
			text += fmt.Sprintf("\n(%d of %d tables; pass cursor %q for more)\n", offset+len(out.Tables), len(match), out.NextCursor)
		}
		return mcpgo.NewToolResultStructured(out, text), nil
	}
}

func tableMatches(t schema.Table, table, filter string) bool {
	if table != "" && !strings.EqualFold(t.Name, table) && !strings.EqualFold(t.Schema+"."+t.Name, table) {
		return false
	}
	if filter == "" {
		return true
	}
	f := strings.ToLower(filter)
	if strings.Contains(strings.ToLower(t.Name), f) {
		return true
	}
	for _, c := range t.Columns {
		if strings.Contains(strings.ToLower(c.Name), f) {
			return true
		}
	}
	return false
}
