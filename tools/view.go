package tools

import (
	"context"
	"github.com/nl2sql/nl2sql/planast"
	"strconv"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/viewer"
)

// The MCP App view (package viewer) shows the results of ask, run_plan and
// run_verified_query. Their tool definitions link it (_meta.ui.resourceUri);
// their results carry what it shows (_meta["nl2sql/view"]: display text and
// chart) only for a client that advertised the MCP Apps extension at
// initialize, so every other client gets the same text and structured
// content as before, and pays no tokens for the view.

// withView links t to the result view.
func withView(t mcpgo.Tool) mcpgo.Tool {
	t.Meta = mcpgo.NewMetaFromMap(viewer.ToolMeta())
	return t
}

// appHost reports whether the calling client advertised MCP Apps.
func appHost(ctx context.Context) bool {
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	if !ok {
		return false
	}
	return viewer.Supports(s.GetClientCapabilities().Extensions)
}

// FitResultFor is FitResult for the client of ctx: with the view's _meta
// when it advertised MCP Apps (counted in the token budget like the rest).
func FitResultFor(ctx context.Context, eng any, res *engine.Result, binary Binary) *mcpgo.CallToolResult {
	return fitResult(eng, res, binary, appHost(ctx))
}

// resultFor is the tool result of r: its structured content and text,
// and, for a view, the view's _meta.
func resultFor(r *engine.Result, view bool) *mcpgo.CallToolResult {
	// r's own MarshalJSON returns json.Marshal's output, compact and
	// escaped already: called directly, it is not scanned a second time
	// to compact it again (as json.Marshal(r) does a Marshaler's output)
	b, err := r.MarshalJSON()
	res := structuredJSON(r, b, err, ResultText(r))
	if view {
		res.Meta = mcpgo.NewMetaFromMap(map[string]any{viewer.MetaKey: viewer.For(r)})
	}
	return res
}

// viewRowCost is what a row adds to the view's _meta: the display text
// of its number cells, each a quoted string in its column's list.
func viewRowCost(row []any, types []planast.Type) int {
	cost := 0
	for _, col := range viewer.Display([][]any{row}, types) {
		for _, d := range col {
			if d != nil {
				cost += Tokens(strconv.Quote(*d)) + 1
			}
		}
	}
	return cost
}

// ResultPage is the view as a standalone HTML page holding res (nl2sql ask
// --html): every row the query returned (a file has no token budget), blob
// values as placeholders, as a tool result shows them.
func ResultPage(res *engine.Result) ([]byte, error) {
	if res.HostPlan != nil {
		return nil, &engine.Error{Code: engine.CodeInvalidRequest,
			Msg:  "the question got a plan-it-yourself result, which has no rows to show as a page",
			Hint: "write a plan from the schema context and run it with nl2sql plan run --html FILE PLAN"}
	}
	out := *res
	out.Rows = withPlaceholders(res)
	out.Answer = answerPlaceholders(res.Answer, res.Rows, out.Rows)
	return viewer.Standalone(&out)
}
