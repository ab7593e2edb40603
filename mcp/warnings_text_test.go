package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
)

// Every warning of a run reaches the text part too: many hosts read only
// the text, and a join on columns no key relates (Customer.City =
// Employee.City) can silently answer the wrong question. Each warning is
// printed as a quoted string, the names in it being data.
func TestRunPlanTextCarriesWarnings(t *testing.T) {
	c := chinookClient(t)
	plan := json.RawMessage(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
		`"from":[{"table":"Customer","alias":"c"},{"table":"Employee","alias":"e"}],` +
		`"joins":[{"type":"inner","left":"c","right":"e","on":[{"left_column":"City","right_column":"City"}]}]}`)
	var doc map[string]any
	if err := json.Unmarshal(plan, &doc); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"run_plan", "check_plan"} {
		res := callTool(t, c, tool, map[string]any{"plan": doc})
		if res.IsError {
			t.Fatalf("%s: %s", tool, text(res))
		}
		var out struct {
			Warnings []string `json:"warnings"`
		}
		structured(t, res, &out)
		found := false
		for _, w := range out.Warnings {
			found = found || strings.Contains(w, "no foreign key or declared relationship joins c.City to e.City")
			if !strings.Contains(text(res), "warning: "+cellfmt.Text(w)+"\n") {
				t.Errorf("%s: the text lacks the warning %q:\n%s", tool, w, text(res))
			}
		}
		if !found {
			t.Errorf("%s: no join warning among %q", tool, out.Warnings)
		}
	}
}

// check_plan answers an invalid plan with isError false (a refused draft
// is a successful check), so its text must lead with the verdict: a host
// reading only the text or branching on isError would otherwise take a
// refusal for a pass. Each issue shows its code, path, message and hint.
func TestCheckPlanInvalidLeadsWithVerdict(t *testing.T) {
	c := chinookClient(t)
	res := callTool(t, c, "check_plan", map[string]any{"plan": map[string]any{
		"select": []any{
			map[string]any{"expr": map[string]any{"kind": "column", "table": "a", "column": "Nmae"}, "alias": "x"},
			map[string]any{"expr": map[string]any{"kind": "column", "table": "a", "column": "Tilte"}, "alias": "y"},
		},
		"from": []any{map[string]any{"table": "Artist", "alias": "a"}},
	}})
	if res.IsError {
		t.Fatalf("an invalid plan is a successful check: %s", text(res))
	}
	var out struct {
		Valid  bool `json:"valid"`
		Issues []struct{ Code, Path, Message, Hint string }
	}
	structured(t, res, &out)
	if out.Valid || len(out.Issues) != 2 {
		t.Fatalf("valid %v, issues %+v; want an invalid plan with 2 issues", out.Valid, out.Issues)
	}
	got := text(res)
	if !strings.HasPrefix(got, "INVALID PLAN: 2 issues") {
		t.Errorf("text does not lead with the verdict:\n%s", got)
	}
	for _, is := range out.Issues {
		for _, part := range []string{is.Code, is.Path, is.Message, is.Hint} {
			if !strings.Contains(got, part) {
				t.Errorf("text lacks %q of issue %+v:\n%s", part, is, got)
			}
		}
	}
	tools, err := c.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "check_plan" && !strings.Contains(tl.Description, "valid is false") {
			t.Errorf("check_plan's description does not say an invalid plan returns valid false, not isError: %s", tl.Description)
		}
	}
}
