package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// SchemaDescriber is what describe_schema needs of the engine: the
// datasource's snapshot as the caller may see it.
type SchemaDescriber interface {
	VisibleSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, error)
	SemanticReader
}

// DescribeArgs is describe_schema's input.
type DescribeArgs struct {
	Datasource string   `json:"datasource"`
	Table      string   `json:"table,omitempty"`
	Tables     []string `json:"tables,omitempty"`
	Filter     string   `json:"filter,omitempty"`
	Cursor     string   `json:"cursor,omitempty"`
}

// DescribeOutput is describe_schema's structured output.
type DescribeOutput struct {
	Datasource  string `json:"datasource"`
	Dialect     string `json:"dialect"`
	TotalTables int    `json:"total_tables"` // tables matching the request, over all pages
	// TotalColumns counts the columns of those tables, over all pages.
	TotalColumns int `json:"total_columns"`
	// FirstTable is the 1-based position of the page's first table among
	// the total_tables (0 on an empty page).
	FirstTable int            `json:"first_table"`
	Tables     []schema.Table `json:"tables"`
	// Truncated is set when tables follow this page (next_cursor).
	Truncated       bool   `json:"truncated,omitempty"`
	TruncatedReason string `json:"truncated_reason,omitempty"`
	NextCursor      string `json:"next_cursor,omitempty"`
	// Semantic holds the semantic layer's entries for this page's tables.
	Semantic *SemanticInfo `json:"semantic,omitempty"`
	// ProfilesOmitted is set when the page's one table alone would pass
	// the budget and is shown without its columns' profiles.
	ProfilesOmitted bool `json:"profiles_omitted,omitempty"`
	// NotFound lists the names of tables that matched no table the caller
	// may see, each with the TABLE_NOT_FOUND message and its suggestion;
	// the tables that were found are described all the same.
	NotFound []NotFoundTable `json:"not_found,omitempty"`
}

// NotFoundTable is one name of describe_schema's tables that matched no
// visible table.
type NotFoundTable struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

const describeShape = `{"datasource"?: string, "table"?: string, "tables"?: [string], "filter"?: string, "cursor"?: string}`

// maxDescribeTables caps describe_schema's tables argument.
const maxDescribeTables = 200

// DescribeSchemaTool describes the describe_schema tool.
func DescribeSchemaTool() mcpgo.Tool {
	return readOnlyTool("describe_schema", "Describe a schema",
		"Describe a datasource's tables: columns with types, keys, foreign keys and sample values, only what you may see. Ask for exact tables by name (table, or tables for several) or filter by a substring of table or column names; results come in pages that fit the result's token budget, with total_tables, total_columns and a next_cursor for the next page.",
		json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasource": {"type": "string", "maxLength": 128, "description": "A datasource id from list_datasources; may be omitted when only one is configured."},
    "table": {"type": "string", "maxLength": 256, "description": "Exact table name (any case)."},
    "tables": {"type": "array", "maxItems": 200, "items": {"type": "string", "maxLength": 256}, "description": "Exact table names (any case), e.g. those a plan_it_yourself result left out."},
    "filter": {"type": "string", "maxLength": 256, "description": "Substring of a table or column name (any case)."},
    "cursor": {"type": "string", "maxLength": 1024, "description": "next_cursor of the previous page, with the same other arguments."}
  },
  "additionalProperties": false
}`),
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "dialect": {"type": "string"}, "total_tables": {"type": "integer", "description": "Tables matching the request over all pages."}, "total_columns": {"type": "integer"}, "first_table": {"type": "integer", "description": "1-based position of this page's first table."}, "tables": {"type": "array", "items": {"type": "object"}}, "truncated": {"type": "boolean", "description": "True when more tables follow (next_cursor)."}, "truncated_reason": {"type": "string"}, "next_cursor": {"type": "string", "description": "Pass as cursor, with the same other arguments, for the next page; absent on the last page."}, "profiles_omitted": {"type": "boolean", "description": "True when a table too large for one page is shown without its columns' sample values and ranges."}, "not_found": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "message": {"type": "string"}}}, "description": "Names in tables that matched no table, with a suggestion; the others are described."}}, "required": ["datasource", "total_tables", "tables"]}`))
}

// DescribeSchemaHandler answers describe_schema calls.
func DescribeSchemaHandler(eng SchemaDescriber) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args DescribeArgs
		if bad := bindStrict(req, &args, describeShape); bad != nil {
			return bad, nil
		}
		if len(args.Tables) > maxDescribeTables {
			return invalidRequest(fmt.Sprintf("tables names %d tables, more than %d", len(args.Tables), maxDescribeTables), "ask for fewer tables at a time, or use filter"), nil
		}
		snap, err := eng.VisibleSnapshot(ctx, args.Datasource)
		if err != nil {
			return errorResult(err), nil
		}
		args.Datasource = snap.Datasource // the one configured, when omitted
		bind := describeBinding(args)
		after, err := DecodeCursor(args.Cursor, "describe_schema", bind...)
		if err != nil {
			return errorResult(err), nil
		}
		var match []schema.Table
		for _, t := range snap.Tables {
			if tableMatches(t, args.Table, args.Filter) && tableListed(t, args.Tables) {
				match = append(match, t)
			}
		}
		if args.Table != "" && len(match) == 0 {
			return errorResult(tableNotFound(snap, args.Table)), nil
		}
		// a misspelt name among several loses none of the others: they are
		// described and the name is reported with its suggestion
		var missing []NotFoundTable
		for _, name := range args.Tables {
			if !slices.ContainsFunc(match, func(t schema.Table) bool { return tableListed(t, []string{name}) }) {
				nf := tableNotFound(snap, name)
				if len(match) == 0 {
					return errorResult(nf), nil
				}
				missing = append(missing, NotFoundTable{Name: name, Message: nf.Msg})
			}
		}
		start := 0
		if args.Cursor != "" {
			// the first table after the cursor's, in the snapshot's (schema,
			// name) order: a page boundary stays put when the budget or
			// tables before it change
			start = sort.Search(len(match), func(i int) bool { return tableKey(match[i]) > after })
		}
		return describePage(ctx, eng, snap, match, start, args.Datasource, bind, missing, target(BudgetOf(eng)))
	}
}

// describePage answers with the tables of match from start that fit
// budget (at least one; a table that alone passes it loses its columns'
// profiles). Each table is counted once (its JSON and its text); the page
// is then counted once to verify, dropping tables from its end in the rare
// case the estimate was short.
func describePage(ctx context.Context, eng SchemaDescriber, snap *schema.Snapshot, match []schema.Table, start int, datasource string, bind []string, missing []NotFoundTable, budget int) (*mcpgo.CallToolResult, error) {
	columns := 0
	for _, t := range match {
		columns += len(t.Columns)
	}
	build := func(tables []schema.Table, omitted bool) (*mcpgo.CallToolResult, error) {
		out := DescribeOutput{Datasource: snap.Datasource, Dialect: snap.Dialect, TotalTables: len(match), TotalColumns: columns, Tables: tables, ProfilesOmitted: omitted, NotFound: missing}
		if len(tables) > 0 {
			out.FirstTable = start + 1
		}
		if end := start + len(tables); len(tables) > 0 && end < len(match) {
			out.NextCursor = EncodeCursor("describe_schema", tableKey(tables[len(tables)-1]), bind...)
			out.Truncated, out.TruncatedReason = true, TruncatedTokenBudget
		}
		page := snap.WithTables(tables)
		var err error
		if out.Semantic, err = semanticFor(ctx, eng, datasource, page.TableNames()); err != nil {
			return nil, err
		}
		var text strings.Builder
		for _, m := range missing {
			fmt.Fprintf(&text, "not found: %s\n", m.Message)
		}
		if len(missing) > 0 {
			text.WriteString("(the other tables asked for follow)\n\n")
		}
		text.WriteString(snapshotTextIn(page, snap) + out.Semantic.Text())
		if omitted {
			text.WriteString("\n(sample values and ranges omitted: this table alone would pass the result's token budget)\n")
		}
		if out.NextCursor != "" {
			fmt.Fprintf(&text, "\n(tables %d-%d of %d, %d columns in all: the rest would pass the result's token budget; pass cursor %q with the same arguments for the next page)\n", start+1, start+len(tables), len(match), columns, out.NextCursor)
		}
		return mcpgo.NewToolResultStructured(out, text.String()), nil
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

// describeBinding is what a describe_schema cursor is bound to: the
// request's other arguments, so a cursor cannot resume another listing.
func describeBinding(a DescribeArgs) []string {
	names := make([]string, len(a.Tables))
	for i, n := range a.Tables {
		names[i] = strings.ToLower(n)
	}
	slices.Sort(names)
	return []string{a.Datasource, strings.ToLower(a.Table), strings.Join(names, "\x00"), strings.ToLower(a.Filter)}
}

// tableListed reports whether t is one of names (any case, with or
// without its schema); every table is listed when names is empty.
func tableListed(t schema.Table, names []string) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if strings.EqualFold(t.Name, n) || strings.EqualFold(t.Schema+"."+t.Name, n) {
			return true
		}
	}
	return false
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
		if _, err := validate.Plan(q, visible, validate.Options{}); err != nil {
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
	return &engine.Error{Code: engine.Code(planast.CodeTableNotFound), Msg: msg, Hint: "call describe_schema without table or tables (or with filter) to list the tables you may see"}
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
