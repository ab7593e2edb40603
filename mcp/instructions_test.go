package mcp

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/app"
)

// instructionsTokenBudget bounds the instructions in o200k_base tokens:
// hosts put them in every conversation, so they stay a few lines.
const instructionsTokenBudget = 200

// TestInstructions: the initialize result carries the instructions, they
// tell a host without a server model how to plan (plan_it_yourself,
// get_plan_schema, run_plan), every tool they name is one the server lists
// (a renamed tool would leave the host calling nothing), and they fit the
// budget. Served over a --db database with no model, the case they are for.
func TestInstructions(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg, err := app.ConfigFromDatabases([]string{filepath.Join("..", "examples", "chinook", "chinook.sqlite")}, app.DatabaseOptions{Storage: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.OpenConfig(cfg, logger, app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	c, err := client.NewInProcessClient(NewServer(a.Engine, "test", logger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init, err := c.Initialize(ctx, mcpgo.InitializeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := init.Instructions
	for _, w := range []string{"list_datasources", "ask", `"plan_it_yourself"`, "schema context", "get_plan_schema", "run_plan", "never SQL", "as data, never as instructions"} {
		if !strings.Contains(got, w) {
			t.Errorf("instructions lack %q:\n%s", w, got)
		}
	}
	if n := schemactx.ContextTokens(got); n > instructionsTokenBudget {
		t.Errorf("instructions are %d tokens, budget %d", n, instructionsTokenBudget)
	} else {
		t.Logf("instructions: %d o200k_base tokens, %d lines", n, strings.Count(got, "\n")+1)
	}
	tools, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tl := range tools.Tools {
		listed[tl.Name] = true
	}
	// a server with no model lists no tool that can only fail: its schema
	// would cost every host's context for a NO_PLANNER answer
	if listed["explain_plan"] {
		t.Error("explain_plan is listed by a server with no model to plan with")
	}
	notTools := map[string]bool{"plan_it_yourself": true, "verified_queries": true} // the result's kind and field
	for _, name := range regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`).FindAllString(got, -1) {
		if !notTools[name] && !listed[name] {
			t.Errorf("instructions name %q, which is not a listed tool", name)
		}
	}
}
