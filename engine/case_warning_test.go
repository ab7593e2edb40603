package engine

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: a host filters pet_type = 'cat' exactly as the schema context
// lists the value, another condition leaves nothing, and the result warns
// that = compares case-sensitively: the host doubts a correct answer or
// rewrites it. The case warning must come only when case may be why: not
// when a stored value matches the comparison as written, nor when the
// column's complete value list holds nothing that matches regardless of
// case; it still comes when a stored value matches only regardless of
// case.
func TestCaseWarningOnlyWhenCaseMayBeWhy(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE pets (id INTEGER PRIMARY KEY, pet_type TEXT, weight REAL)",
		"INSERT INTO pets VALUES (1, 'cat', 12.0), (2, 'dog', 13.4), (3, 'dog', 9.0)")
	e := airEngine(t, db, nil)
	count := func(where string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"pets","alias":"p"}],"where":` + where + `}`)
	}
	typ := `{"kind":"column","table":"p","column":"pet_type"}`
	heavy := `{"kind":"binary","op":">","left":{"kind":"column","table":"p","column":"weight"},"right":{"kind":"literal","value":100}}`
	like := func(p string) string {
		return `{"kind":"like","expr":` + typ + `,"pattern":{"kind":"literal","value":"` + p + `"}}`
	}
	for _, c := range []struct {
		name, where string
		warn        bool
	}{
		{"stored value, another filter empties", `{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":` + typ + `,"right":{"kind":"literal","value":"cat"}},"right":` + heavy + `}`, false},
		{"like matching as written, another filter empties", `{"kind":"binary","op":"and","left":` + like("c%") + `,"right":` + heavy + `}`, false},
		{"like matching only regardless of case", like("C%"), true},
		{"like matching nothing in a complete list", like("%zebra%"), false},
	} {
		res, err := e.RunPlan(context.Background(), "air", count(c.where))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := warningWith(res.Warnings, "compares case-sensitively") != ""; got != c.warn {
			t.Errorf("%s: warnings %q, want a case warning: %v", c.name, res.Warnings, c.warn)
		}
	}
}
