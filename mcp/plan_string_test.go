package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// Threat: a host that sends the plan as a JSON string was told "send the
// object itself" — right for a string holding a valid plan, which is now
// simply run, and wrong for one whose JSON is broken, whose author then
// sent the same broken text unquoted. Through the real server: the string
// answers as the object does, and broken JSON is named with its position.
func TestPlanAsAJSONStringOverMCP(t *testing.T) {
	c := chinookClient(t)
	const plan = `{"select": [{"expr": {"kind": "column", "table": "g", "column": "Name"}}], "from": [{"table": "Genre", "alias": "g"}], "order_by": [{"expr": {"kind": "column", "table": "g", "column": "Name"}}], "limit": 3}`
	var obj map[string]any
	if err := json.Unmarshal([]byte(plan), &obj); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"run_plan", "check_plan"} {
		asObject := callTool(t, c, tool, map[string]any{"plan": obj})
		asString := callTool(t, c, tool, map[string]any{"plan": plan})
		if asObject.IsError || asString.IsError || text(asString) != text(asObject) {
			t.Errorf("%s: the plan as a string answered\n%s\nwant, as for the object,\n%s", tool, text(asString), text(asObject))
		}
		broken := callTool(t, c, tool, map[string]any{"plan": `{"select": [}`})
		want := "its text is not valid JSON: invalid character '}' looking for beginning of value at line 1, column 13"
		if got := text(broken); !strings.Contains(got, want) || strings.Contains(got, "send the object itself") {
			t.Errorf("%s: broken JSON in a string answered\n%s\nwant it to say %q", tool, got, want)
		}
	}
}
