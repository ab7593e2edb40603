package cli

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"reflect"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/tools"
)

// The README calls plan check the engine path of check_plan: a script
// written against the tool's result read a different document from
// `plan check --json` (no valid key for a valid plan, nothing but valid
// and issues for a refused one, whose dialect the tool left empty). Both
// print the same document, valid or not.
func TestPlanCheckJSONIsCheckPlansResult(t *testing.T) {
	db, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	cfg, err := app.ConfigFromDatabases([]string{db}, app.DatabaseOptions{Storage: state})
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.OpenConfig(cfg, slog.New(slog.DiscardHandler), app.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	handler := tools.CheckPlanHandler(a.Engine)
	for name, plan := range map[string]string{
		"valid":   `{"select":[{"expr":{"kind":"column","table":"g","column":"Name"}}],"from":[{"table":"Genre","alias":"g"}]}`,
		"refused": `{"select":[{"expr":{"kind":"column","table":"a","column":"nmae"}}],"from":[{"table":"Artist","alias":"a"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			out, cliErr := runCLI("plan", "check", "--db", db, "--storage", state, "--json", plan)
			if (cliErr != nil) != (name == "refused") {
				t.Fatalf("plan check: %v", cliErr)
			}
			var cli map[string]any
			if err := json.Unmarshal([]byte(out), &cli); err != nil {
				t.Fatalf("%v: %q", err, out)
			}
			req := mcpgo.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "check_plan", map[string]any{"plan": json.RawMessage(plan)}
			res, err := handler(context.Background(), req)
			if err != nil || res.IsError {
				t.Fatalf("check_plan: %v %+v", err, res)
			}
			b, _ := json.Marshal(res.StructuredContent)
			var tool map[string]any
			if err := json.Unmarshal(b, &tool); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cli, tool) {
				t.Errorf("plan check --json\n%s\ncheck_plan\n%s", out, b)
			}
			for _, k := range []string{"valid", "issues", "datasource", "dialect", "plan", "columns", "column_types", "sql", "warnings", "sql_notes"} {
				if _, ok := cli[k]; !ok {
					t.Errorf("the check lacks %q, valid or not: %s", k, out)
				}
			}
			if tool["dialect"] != "sqlite" || tool["datasource"] != "chinook" || tool["valid"] != (name == "valid") {
				t.Errorf("the check does not say what it was checked for: %s", b)
			}
		})
	}
}
