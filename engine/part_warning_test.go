package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a host writes the name a question uses ("Zeppelin") where
// the data holds a longer one ("Led Zeppelin"). = compares whole values,
// so the answer is "none" (or a count of 0) while the rows are there, and
// the only warning blamed letter case, whose fix finds nothing either.
// The result must name the stored values that hold the literal, and the
// like it suggests, pasted, must find their rows.
func TestEmptyFilterNamesStoredValuesHoldingIt(t *testing.T) {
	stmts := []string{"CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT, region TEXT)"}
	for i := range 80 {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO airports VALUES ('A%02d', 'City %02d', 'north')", i, i))
	}
	stmts = append(stmts, "INSERT INTO airports VALUES ('ZAZ', 'Greater Zaragoza', 'south')",
		"INSERT INTO airports VALUES ('ZAX', 'Zaragoza Sur', 'south')")
	db := sourcetest.TempDB(t, stmts...)
	plan := func(where string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"code"}}],"from":[{"table":"airports","alias":"a"}],"where":` + where + `}`)
	}
	city := `{"kind":"column","table":"a","column":"city"}`
	eq := func(v string) string {
		return `{"kind":"binary","op":"=","left":` + city + `,"right":{"kind":"literal","value":"` + v + `"}}`
	}
	like := func(p string, ci bool) string {
		return fmt.Sprintf(`{"kind":"like","expr":%s,"pattern":{"kind":"literal","value":%q},"case_insensitive":%v}`, city, p, ci)
	}
	in := `{"kind":"in","expr":` + city + `,"list":[{"kind":"literal","value":"zaragoza"}]}`

	e := airEngine(t, db, nil)
	ctx := context.Background()
	for _, c := range []struct {
		name, where string
		named       bool
	}{
		{"equals a part", eq("Zaragoza"), true},
		{"in list, a part in other case", in, true},
		{"case-insensitive like without %", like("zaragoza", true), true},
		{"like without %", like("Zaragoza", false), true},
		{"two letters", eq("Za"), false},
		{"nothing holds it", eq("Lisbon"), false},
	} {
		res, err := e.RunPlan(ctx, "air", plan(c.where))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w := warningWith(res.Warnings, "hold")
		if got := strings.Contains(w, `"Greater Zaragoza"`) && strings.Contains(w, `"Zaragoza Sur"`); got != c.named {
			t.Errorf("%s: warnings %q, want the stored values holding it named: %v", c.name, res.Warnings, c.named)
		}
		if c.named && strings.Contains(strings.Join(res.Warnings, "\n"), "compares case-sensitively") {
			t.Errorf("%s: letter case blamed too: %q", c.name, res.Warnings)
		}
		if !c.named || !strings.Contains(w, `"pattern"`) {
			continue
		}
		// the suggested like's pattern, pasted as written (an expression,
		// not a bare string the plan language refuses), finds the rows
		m := regexp.MustCompile(`"pattern": (\{"kind": "literal", "value": "[^"]*"\})`).FindStringSubmatch(w)
		if m == nil {
			t.Fatalf("%s: no pattern expression in %q", c.name, w)
		}
		fixed, err := e.RunPlan(ctx, "air", plan(`{"kind":"like","expr":`+city+`,"pattern":`+m[1]+`,"case_insensitive":true}`))
		if err != nil || len(fixed.Rows) != 2 {
			t.Errorf("%s: the suggested pattern %s: %v rows, %v; want 2 rows", c.name, m[1], rowsOf(fixed), err)
		}
	}

	res := runAsNorth(t, db, plan(eq("Zaragoza")), "air.main.airports")
	if strings.Contains(strings.Join(res.Warnings, "\n"), "Greater") {
		t.Errorf("a row-filtered caller learned a value of a row it cannot read: %q", res.Warnings)
	}
}

func rowsOf(r *Result) [][]any {
	if r == nil {
		return nil
	}
	return r.Rows
}
