package planast_test

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// A plan file with a fault somewhere in its hundred lines said only
// "unexpected EOF" or "invalid character '}'", and its author searched
// the whole file: the refusal names the fault's line and column, or says
// the text ends before its brackets close.
func TestMalformedPlanNamesWhereItBreaks(t *testing.T) {
	for _, c := range []struct{ doc, says string }{
		{`{"select": [}`, "at line 1, column 13"},
		{"{\n  \"select\": [\n    {\"expr\": {\"kind\": \"column\",, \"column\": \"x\"}}\n  ]\n}", "at line 3, column 32"},
		{`{"select": [`, "the text ends (after 12 bytes) before its brackets and strings close"},
	} {
		_, err := planast.Decode([]byte(c.doc), planast.DefaultLimits)
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), string(planast.CodeMalformed)) {
			t.Errorf("%q: %v, want PLAN_MALFORMED saying %q", c.doc, err, c.says)
		}
	}
}
