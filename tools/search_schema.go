package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/index"
)

// Searcher is what search_schema needs of the engine.
type Searcher interface {
	Search(ctx context.Context, datasource, text string) (*index.Selection, error)
	SemanticReader
}

// SearchOutput is search_schema's structured output: the selection and
// the semantic layer's entries for its tables.
type SearchOutput struct {
	*index.Selection
	Semantic *SemanticInfo `json:"semantic,omitempty"`
	// Message says plainly when nothing matched: the tables are then
	// empty rather than the top of a ranking of unrelated tables.
	Message string `json:"message,omitempty"`
	// TotalTables counts the tables the search kept, over all pages; the
	// page holds them from FirstTable (1-based).
	TotalTables int `json:"total_tables"`
	FirstTable  int `json:"first_table"`
	// Truncated is set when more of the kept tables follow (next_cursor).
	Truncated       bool   `json:"truncated,omitempty"`
	TruncatedReason string `json:"truncated_reason,omitempty"`
	NextCursor      string `json:"next_cursor,omitempty"`
}

// SearchArgs is search_schema's input.
type SearchArgs struct {
	Datasource string `json:"datasource"`
	Text       string `json:"text"`
	Cursor     string `json:"cursor,omitempty"`
}

// SearchSchemaTool describes search_schema.
func SearchSchemaTool() mcpgo.Tool {
	return readOnlyTool("search_schema", "Search a schema",
		"Search a datasource's schema for a question or key words: the best-matching tables with their relevant columns (joined through foreign keys), and stored values that match words of the text with their exact spelling (e.g. 'Heavy Metal' for \"heavy metal\"). For clients that write plans themselves (run_plan). Results fit the result's token budget; next_cursor pages through the rest.",
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string", "maxLength": 128, "description": "A datasource id from list_datasources; may be omitted when only one is configured."}, "text": {"type": "string", "maxLength": 4096}, "cursor": {"type": "string", "maxLength": 1024, "description": "next_cursor of the previous page, with the same datasource and text."}}, "required": ["text"], "additionalProperties": false}`),
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "tables": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "columns": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number", "description": "Fused retrieval score; compare within one result only."}, "evidence": {"type": "array", "items": {"type": "string", "enum": ["text", "value", "mention", "vector"]}, "description": "What ties the table to the text: text (a shared word in a name, comment or sample), value (a stored value spelled in the text), mention (a name spelled out), vector (an embedding that stands out); empty for a table kept only to join others."}}}}, "values": {"type": "array", "items": {"type": "object"}}, "message": {"type": "string", "description": "Set when nothing matched the text; tables is then empty."}, "unmatched": {"type": "array", "items": {"type": "string"}, "description": "Words of the text that no table or column name, comment, sample or stored value holds."}, "total_tables": {"type": "integer", "description": "Tables the search kept, over all pages."}, "first_table": {"type": "integer"}, "truncated": {"type": "boolean"}, "truncated_reason": {"type": "string"}, "next_cursor": {"type": "string", "description": "Pass as cursor, with the same datasource and text, for the next page; absent on the last page."}}, "required": ["datasource", "tables"]}`))
}

// SearchSchemaHandler answers search_schema calls.
func SearchSchemaHandler(eng Searcher) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args SearchArgs
		if bad := bindStrict(req, &args, `{"datasource"?: string, "text": string, "cursor"?: string}`); bad != nil {
			return bad, nil
		}
		text := strings.TrimSpace(args.Text)
		after, err := DecodeCursor(args.Cursor, "search_schema", args.Datasource, text)
		if err != nil {
			return errorResult(err), nil
		}
		sel, err := eng.Search(ctx, args.Datasource, text)
		if err != nil {
			return errorResult(err), nil
		}
		if !sel.Relevant() {
			out := SearchOutput{Selection: &index.Selection{Datasource: sel.Datasource, Tables: []index.TableSelection{}},
				Message: "nothing in this datasource matched the text: no table or column name, comment, sample or stored value shares a word with it. If the text is in another language than the schema's names and values, search again in the schema's words; otherwise the data may not hold the answer; describe_schema lists every table you may see"}
			return FitStructured(eng, out, out.Message+"\n"), nil
		}
		// best first (a selection lists its tables in schema order); the
		// ranking is deterministic, so a page starts after the rank its
		// cursor names
		sel.Tables = sel.ByScore()
		start := 0
		if args.Cursor != "" {
			if start, err = strconv.Atoi(after); err != nil || start < 0 || start > len(sel.Tables) {
				start = len(sel.Tables)
			}
		}
		rest := sel.Tables[start:]
		names := make([]string, len(rest))
		for i, t := range rest {
			names[i] = sel.PlanName(t)
		}
		var fail error
		build := func(n int) *mcpgo.CallToolResult {
			page := *sel
			page.Tables = rest[:n:n]
			info, err := semanticFor(ctx, eng, args.Datasource, names[:n])
			if err != nil {
				fail = err
			}
			out := SearchOutput{Selection: &page, Semantic: info, TotalTables: len(sel.Tables)}
			if n > 0 {
				out.FirstTable = start + 1
			}
			var b strings.Builder
			if len(sel.Unmatched) > 0 {
				fmt.Fprintf(&b, "%s\n", unmatchedLine(sel.Unmatched))
			}
			for _, t := range page.Tables {
				b.WriteString(searchLine(sel, t))
			}
			for _, v := range sel.Values {
				fmt.Fprintf(&b, "value %s.%s = %q\n", sel.PlanName(index.TableSelection{Schema: v.Schema, Name: v.Table}), v.Column, v.Value)
			}
			b.WriteString(info.Text())
			if start+n < len(sel.Tables) {
				out.Truncated, out.TruncatedReason = true, TruncatedTokenBudget
				out.NextCursor = EncodeCursor("search_schema", strconv.Itoa(start+n), args.Datasource, text)
				fmt.Fprintf(&b, "(tables %d-%d of %d: the rest would pass the result's token budget; pass cursor %q with the same datasource and text for the next page)\n", start+1, start+n, len(sel.Tables), out.NextCursor)
			}
			return mcpgo.NewToolResultStructured(out, b.String())
		}
		cost := func(i int) int {
			j, _ := json.Marshal(rest[i])
			return Tokens(string(j)) + Tokens(searchLine(sel, rest[i])) + 2
		}
		res, _ := fitPage(len(rest), cost, build, target(BudgetOf(eng)))
		if fail != nil {
			return errorResult(fail), nil
		}
		return res, nil
	}
}

// unmatchedLine says which words of the text nothing in the datasource
// holds: the tables below match the other words.
func unmatchedLine(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return fmt.Sprintf("no table or column name, comment, sample or stored value holds %s: the tables below match the other words; if the question turns on these, the data may not hold its answer", strings.Join(q, ", "))
}

// searchLine is one kept table in search_schema's text.
func searchLine(sel *index.Selection, t index.TableSelection) string {
	ev := "joins others"
	if len(t.Evidence) > 0 {
		ev = strings.Join(t.Evidence, "+")
	}
	return fmt.Sprintf("%s (score %g, %s): %s\n", sel.PlanName(t), t.Score, ev, strings.Join(t.Columns, ", "))
}
