package planast_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// An author who writes an operator or a function's name as the kind of a
// node learns the node to write, not only the list of kinds, which names
// no "and" and sends them guessing.
func TestUnknownKindNamesTheNodeMeant(t *testing.T) {
	lit := `{"kind":"literal","value":1}`
	cases := []struct{ kind, node, want string }{
		{"and", `{"kind":"and","left":` + lit + `,"right":` + lit + `}`, `{"kind":"binary","op":"and","left":…,"right":…}`},
		{"OR", `{"kind":"OR","args":[` + lit + `]}`, `{"kind":"binary","op":"or"`},
		{"=", `{"kind":"=","left":` + lit + `,"right":` + lit + `}`, `{"kind":"binary","op":"="`},
		{"eq", `{"kind":"eq","left":` + lit + `,"right":` + lit + `}`, `{"kind":"binary","op":"="`},
		{"gt", `{"kind":"gt","left":` + lit + `,"right":` + lit + `}`, `{"kind":"binary","op":">"`},
		{"<>", `{"kind":"<>","left":` + lit + `,"right":` + lit + `}`, `{"kind":"binary","op":"!="`},
		{"not", `{"kind":"not","expr":` + lit + `}`, `{"kind":"unary","op":"not","expr":…}`},
		{"count", `{"kind":"count","args":[]}`, `{"kind":"func","name":"COUNT","args":[…]}`},
		{"row_number", `{"kind":"row_number"}`, `{"kind":"window","name":"ROW_NUMBER"`},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			plan := `{"select":[{"expr":` + lit + `,"alias":"x"}],"from":[{"table":"t","alias":"t"}],"where":` + c.node + `}`
			_, err := planast.Decode([]byte(plan), planast.Limits{})
			var pe *planast.Error
			if !errors.As(err, &pe) || len(pe.Issues) != 1 {
				t.Fatalf("Decode: %v, want one issue", err)
			}
			if is := pe.Issues[0]; is.Path != "where.kind" || !strings.Contains(is.Hint, c.want) {
				t.Errorf("issue at %s, hint %q, want at where.kind a hint naming %s", is.Path, is.Hint, c.want)
			}
		})
	}
	// a kind that names nothing keeps the list alone
	_, err := planast.Decode([]byte(`{"select":[{"expr":{"kind":"colum","column":"a"},"alias":"x"}],"from":[{"table":"t","alias":"t"}]}`), planast.Limits{})
	var pe *planast.Error
	if !errors.As(err, &pe) || pe.Issues[0].Hint != "" {
		t.Errorf("an unknown kind naming no operator or function: %v, want no hint", err)
	}
}
