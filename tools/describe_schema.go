package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// SchemaDescriber is what describe_schema needs of the engine: the
// datasource's snapshot as the caller may see it.
type SchemaDescriber interface {
	VisibleSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, error)
	SemanticReader
}

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
	// ProfilesOmitted is set when the page's one table alone would pass
	// the budget and is shown without its columns' profiles.
	ProfilesOmitted bool `json:"profiles_omitted,omitempty"`
}

const describeShape = `{"datasource": string, "table"?: string, "filter"?: string, "cursor"?: string}`

// DescribeSchemaTool describes the describe_schema tool.
func DescribeSchemaTool() mcpgo.Tool {
	return readOnlyTool("describe_schema", "Describe a schema",
		"Describe a datasource's tables: columns with types, keys, foreign keys and sample values, only what you may see. Filter by exact table name or by a substring of table or column names; results come in pages that fit the result's token budget, with a next_cursor for the next page.",
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
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "dialect": {"type": "string"}, "total_tables": {"type": "integer"}, "tables": {"type": "array", "items": {"type": "object"}}, "next_cursor": {"type": "string", "description": "Pass as cursor for the next page; absent on the last page."}, "profiles_omitted": {"type": "boolean", "description": "True when a table too large for one page is shown without its columns' sample values and ranges."}}, "required": ["datasource", "total_tables", "tables"]}`))
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
		after, ok := decodeCursor(args.Cursor)
		if !ok {
			return invalidRequest("the cursor is not one this server issued", "pass next_cursor from the previous page unchanged"), nil
		}
		var match []schema.Table
		for _, t := range snap.Tables {
			if tableMatches(t, args.Table, args.Filter) {
				match = append(match, t)
			}
		}
		if args.Table != "" && len(match) == 0 {
			return errorResult(tableNotFound(snap, args.Table)), nil
		}
		start := 0
		if after != nil {
			// the first table after the cursor's, in the snapshot's (schema,
			// name) order: a page boundary stays put when the budget or
			// tables before it change
			start = sort.Search(len(match), func(i int) bool { return tableKey(match[i]) > *after })
		}
		return describePage(ctx, eng, snap, match, start, args.Datasource, target(BudgetOf(eng)))
	}
}

// describePage answers with the tables of match from start that fit
// budget (at least one; a table that alone passes it loses its columns'
// profiles). Each table is counted once (its JSON and its text); the page
// is then counted once to verify, dropping tables from its end in the rare
// case the estimate was short.
func describePage(ctx context.Context, eng SchemaDescriber, snap *schema.Snapshot, match []schema.Table, start int, datasource string, budget int) (*mcpgo.CallToolResult, error) {
	build := func(tables []schema.Table, omitted bool) (*mcpgo.CallToolResult, error) {
		out := DescribeOutput{Datasource: snap.Datasource, Dialect: snap.Dialect, TotalTables: len(match), Tables: tables, ProfilesOmitted: omitted}
		if end := start + len(tables); len(tables) > 0 && end < len(match) {
			out.NextCursor = encodeCursor(tableKey(tables[len(tables)-1]))
		}
		page := &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: tables}
		var err error
		if out.Semantic, err = semanticFor(ctx, eng, datasource, page.TableNames()); err != nil {
			return nil, err
		}
		text := SnapshotText(page) + out.Semantic.Text()
		if omitted {
			text += "\n(sample values and ranges omitted: this table alone would pass the result's token budget)\n"
		}
		if out.NextCursor != "" {
			text += fmt.Sprintf("\n(tables %d-%d of %d; pass cursor %q for more)\n", start+1, start+len(tables), len(match), out.NextCursor)
		}
		return mcpgo.NewToolResultStructured(out, text), nil
	}
	if start >= len(match) {
		res, err := build([]schema.Table{}, false)
		if err != nil {
			return errorResult(err), nil
		}
		return res, nil
	}
	empty, err := build([]schema.Table{}, false)
	if err != nil {
		return errorResult(err), nil
	}
	used := sentTokens(empty) + 50 // the cursor and the page line
	n := 0
	for _, t := range match[start:] {
		b, _ := json.Marshal(t)
		one := &schema.Snapshot{Tables: []schema.Table{t}}
		cost := Tokens(string(b)) + Tokens(SnapshotText(one))
		if n > 0 && used+cost > budget {
			break
		}
		used += cost
		n++
	}
	for ; n > 0; n-- {
		res, err := build(match[start:start+n], false)
		if err != nil {
			return errorResult(err), nil
		}
		if ok, _ := fits(res, budget); ok {
			return res, nil
		}
	}
	// one table alone passes the budget: show it without profiles
	t := match[start]
	t.Columns = slices.Clone(t.Columns)
	for i := range t.Columns {
		t.Columns[i].Profile = nil
	}
	res, err := build([]schema.Table{t}, true)
	if err != nil {
		return errorResult(err), nil
	}
	if ok, got := fits(res, budget); !ok {
		return tooLarge(got, budget), nil
	}
	return res, nil
}

// tableKey orders tables as a snapshot does, by schema then name; cursors
// carry the key of a page's last table.
func tableKey(t schema.Table) string { return t.Schema + "\x00" + t.Name }

func encodeCursor(key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("after:" + key))
}

// decodeCursor returns the key a cursor carries (nil for no cursor) and
// false for one this server did not issue.
func decodeCursor(c string) (*string, bool) {
	if c == "" {
		return nil, true
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	key, ok := strings.CutPrefix(string(b), "after:")
	if err != nil || !ok || !strings.Contains(key, "\x00") {
		return nil, false
	}
	return &key, true
}

// tableNotFound is describe_schema's answer for a table the caller cannot
// see: the plan validator's own TABLE_NOT_FOUND message over the caller's
// visible snapshot, so its "did you mean" suggestion is drawn only from
// tables the caller may see and a hidden table is answered exactly like a
// missing one.
func tableNotFound(visible *schema.Snapshot, table string) *engine.Error {
	from := map[string]any{"table": table, "alias": "t"}
	if sch, name, ok := strings.Cut(table, "."); ok {
		from = map[string]any{"schema": sch, "table": name, "alias": "t"}
	}
	doc, _ := json.Marshal(map[string]any{"select": []any{map[string]any{"expr": map[string]any{"kind": "literal", "value": 1}, "alias": "x"}}, "from": []any{from}})
	msg := fmt.Sprintf("there is no table named %q", table)
	if q, err := planast.Decode(doc, planast.DefaultLimits); err == nil {
		if _, err := planast.Validate(q, visible, planast.Options{}); err != nil {
			var pe *planast.Error
			if errors.As(err, &pe) {
				for _, is := range pe.Issues {
					if is.Code == planast.CodeTableNotFound {
						msg = is.Message
						break
					}
				}
			}
		}
	}
	return &engine.Error{Code: engine.Code(planast.CodeTableNotFound), Msg: msg, Hint: "call describe_schema without table (or with filter) to list the tables you may see"}
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
