package planning

import (
	"strings"
	"testing"
)

// Threat: a host (or a person) who sends the plan as a string of JSON (valid
// or broken), or
// SQL instead of a plan (bare, or as {"sql": "SELECT …"}), is told only "a query must be a JSON object" and
// keeps retrying the same wrong form.
func TestSuppliedHintNamesTheWrongForm(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`"{\"select\": []}"`, "JSON string holding JSON"},
		// a string holding broken JSON is not "JSON": its author must learn
		// where the JSON breaks, not to resend the same text unquoted
		{`"{\"select\": [}"`, "its text is not valid JSON: invalid character '}' looking for beginning of value at line 1, column 13 (byte 12)"},
		{`"{\"select\": ["`, "the text ends (after 12 bytes)"},
		{`SELECT * FROM Album`, "never SQL text"},
		{`"select name from artist"`, "never SQL text"},
		{`{"sql": "SELECT * FROM Album"}`, "never SQL text"},
		{`{"query": " with x as (select 1) select * from x"}`, "never SQL text"},
		{`{"select": 1}`, "fix the listed issues"},
		{`{"select": 1, "note": "selected albums"}`, "fix the listed issues"},
	}
	for _, c := range cases {
		if got := SuppliedHint([]byte(c.doc)); !strings.Contains(got, c.want) {
			t.Errorf("%s: hint %q, want it to say %q", c.doc, got, c.want)
		}
	}
}

// Threat: a host over MCP that sent SQL text was told to run a command
// line it cannot run; its hint names the tool it has and says SQL text is
// never run (the command line adds its lifting command itself).
func TestSQLTextHintNamesOnlyTheHostsTools(t *testing.T) {
	got := SuppliedHint([]byte(`SELECT * FROM Album`))
	if strings.Contains(got, "nl2sql ") || strings.Contains(got, "command line") {
		t.Errorf("hint %q names the command line", got)
	}
	for _, want := range []string{"get_plan_schema", "never runs SQL"} {
		if !strings.Contains(got, want) {
			t.Errorf("hint %q does not say %q", got, want)
		}
	}
}
