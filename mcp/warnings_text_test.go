package mcp

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
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
			if !strings.Contains(text(res), "warning: "+strconv.Quote(w)+"\n") {
				t.Errorf("%s: the text lacks the warning %q:\n%s", tool, w, text(res))
			}
		}
		if !found {
			t.Errorf("%s: no join warning among %q", tool, out.Warnings)
		}
	}
}
