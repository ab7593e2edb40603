package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
)

func chinookClient(t *testing.T) *client.Client {
	t.Helper()
	return configClient(t, filepath.Join("..", "examples", "chinook", "nl2sql.yaml"))
}

// configClient is an in-process MCP client of a server over the config at path.
func configClient(t *testing.T, path string) *client.Client {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(path, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	c, err := client.NewInProcessClient(NewServer(a.Engine, "test", logger))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestToolsListed(t *testing.T) {
	c := chinookClient(t)
	res, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]mcpgo.Tool{}
	for _, tl := range res.Tools {
		got[tl.Name] = tl
	}
	for _, name := range []string{"ask", "list_datasources", "explain_plan"} { // this config plans with a model
		tl, ok := got[name]
		if !ok {
			t.Fatalf("tool %s missing", name)
		}
		if tl.Annotations.ReadOnlyHint == nil || !*tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is not annotated read-only", name)
		}
		if len(tl.RawOutputSchema) == 0 && tl.OutputSchema.Type != "object" {
			t.Errorf("%s has no output schema", name)
		}
	}
}

func TestAskTool(t *testing.T) {
	c := chinookClient(t)
	ctx := context.Background()
	call := func(args map[string]any) *mcpgo.CallToolResult {
		res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ask", Arguments: args}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call(map[string]any{"question": "Which media type has the most tracks?"})
	if res.IsError {
		t.Fatalf("error result: %+v", res.Content)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
		SQL     string   `json:"sql"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Rows) != 1 || out.Rows[0][0] != "MPEG audio file" || !strings.HasPrefix(out.SQL, "SELECT") {
		t.Fatalf("structured = %s", b)
	}
	text := res.Content[0].(mcpgo.TextContent).Text
	if !strings.Contains(text, "MPEG audio file") || !strings.Contains(text, "SQL:") {
		t.Errorf("text = %q", text)
	}
	// A question without a recording is handed to the host: a successful
	// plan-it-yourself result (valid against the output schema, which
	// clients check), not an error.
	host := call(map[string]any{"question": "What is the meaning of life?"})
	hb, _ := json.Marshal(host.StructuredContent)
	if host.IsError || !strings.Contains(string(hb), `"kind":"plan_it_yourself"`) || !strings.Contains(string(hb), `"reason":"no_recording"`) {
		t.Errorf("unrecorded question: isError %v, structured %s", host.IsError, hb)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"question": ""}, ""},
		{map[string]any{"question": "Which media type has the most tracks?", "datasource": "nope"}, "DATASOURCE_NOT_FOUND"},
		{map[string]any{"question": "Which media type has the most tracks?", "datasrc": "chinook"}, "datasrc"},
	} {
		res := call(c.args)
		if !res.IsError {
			t.Errorf("%v: want an error result", c.args)
			continue
		}
		text := res.Content[0].(mcpgo.TextContent).Text
		if !strings.Contains(text, c.want) {
			t.Errorf("%v: text %q lacks %q", c.args, text, c.want)
		}
	}
}

func TestSearchSchema(t *testing.T) {
	c := chinookClient(t)
	res, err := c.CallTool(context.Background(), mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "search_schema",
		Arguments: map[string]any{"datasource": "chinook", "text": "tracks of the heavy metal genre"}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), `"name":"Genre"`) || !strings.Contains(string(b), `"value":"Heavy Metal"`) {
		t.Errorf("search_schema: %s", b)
	}
	var hit struct {
		Tables []struct {
			Name     string   `json:"name"`
			Score    float64  `json:"score"`
			Evidence []string `json:"evidence"`
		} `json:"tables"`
	}
	_ = json.Unmarshal(b, &hit)
	for i, tb := range hit.Tables {
		if tb.Name == "Genre" && (tb.Score <= 0 || !slices.Contains(tb.Evidence, "value")) {
			t.Errorf("Genre: score %v evidence %v", tb.Score, tb.Evidence)
		}
		// best first: listed in schema order, Album (a bridge) led and a
		// reader took the order for the ranking
		if i > 0 && tb.Score > hit.Tables[i-1].Score {
			t.Errorf("search_schema lists %s (score %v) after %s (score %v)", tb.Name, tb.Score, hit.Tables[i-1].Name, hit.Tables[i-1].Score)
		}
	}
}

// A text nothing in the schema or its stored values relates to gets an
// empty list and a message saying so, not the top of a ranking of
// unrelated tables.
func TestSearchSchemaNothingRelevant(t *testing.T) {
	c := chinookClient(t)
	for _, q := range []string{"how tall is mount everest", "quarterly GDP growth of Japan", "zzzz qqqq"} {
		res, err := c.CallTool(context.Background(), mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "search_schema",
			Arguments: map[string]any{"datasource": "chinook", "text": q}}})
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %+v", q, err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var out struct {
			Tables  []any  `json:"tables"`
			Values  []any  `json:"values"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(b, &out)
		if len(out.Tables) != 0 || len(out.Values) != 0 || !strings.Contains(out.Message, "nothing") {
			t.Errorf("%q: %s", q, b)
		}
		if tx := res.Content[0].(mcpgo.TextContent).Text; !strings.Contains(tx, "nothing in this datasource matched") {
			t.Errorf("%q: text %q", q, tx)
		}
	}
}

// The threat: a question the data cannot answer ("which customers churned
// because of a price rise?") shares most words with the schema, so the
// search ranks tables high and a host answered it from them. The words
// nothing in the datasource holds are named, those the schema holds (in
// another form: "invoices" for Invoice, a stored value) are not.
func TestSearchSchemaNamesWordsNothingHolds(t *testing.T) {
	c := chinookClient(t)
	res, err := c.CallTool(context.Background(), mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "search_schema",
		Arguments: map[string]any{"datasource": "chinook", "text": "the monthly average of invoices in March of customers who churned because of a price rise, by country, with Heavy Metal tracks in 2024"}}})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Unmatched []string `json:"unmatched"`
	}
	_ = json.Unmarshal(b, &out)
	if got := strings.Join(out.Unmatched, ","); got != "churned" {
		t.Errorf("unmatched %q, want churned alone (price is Track.UnitPrice's word, rise a track's name, monthly and average what a plan computes, the rest the schema's)", out.Unmatched)
	}
	if tx := res.Content[0].(mcpgo.TextContent).Text; !strings.Contains(tx, `no table or column name, comment, sample or stored value holds "churned"`) {
		t.Errorf("text %q does not name the words", tx)
	}
}

// A server with one datasource answers every schema tool without the
// datasource argument, as run_plan does: describe_schema refused the call
// "a datasource is required" while run_plan, beside it, took the same
// omission.
func TestSchemaToolsTakeTheOnlyDatasource(t *testing.T) {
	c := chinookClient(t)
	for _, call := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"describe_schema", map[string]any{"table": "Genre"}, "GenreId"},
		{"search_schema", map[string]any{"text": "genre names"}, "Genre"},
		{"run_plan", map[string]any{"plan": map[string]any{"select": []any{map[string]any{"expr": map[string]any{"kind": "column", "table": "g", "column": "Name"}}}, "from": []any{map[string]any{"table": "Genre", "alias": "g"}}, "limit": 1}}, "Name"},
	} {
		res := callTool(t, c, call.tool, call.args)
		if res.IsError || !strings.Contains(text(res), call.want) {
			t.Errorf("%s without a datasource: %s", call.tool, text(res))
		}
	}
}
