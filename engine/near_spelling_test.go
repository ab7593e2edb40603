package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a host types a name as people type it, with a curly
// apostrophe (O’Brien), without accents (Siobhan), or in the other
// Unicode form of the same letters, where the data holds "O'Brien",
// "Siobhán" or a decomposed "Zoë". = compares bytes on every engine, so
// the answer was "No rows matched" with no word of the stored value. The
// result must name it and say how it differs, and comparing with the
// value named must find the row.
func TestEmptyFilterNamesTheValueSpelledAlmostAlike(t *testing.T) {
	nfdZoe := "Zoe\u0308 Bronte\u0308" // e + combining diaeresis
	stmts := []string{"CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, item TEXT)"}
	for i := range 60 {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO people VALUES (%d, 'Person %02d', 'thing %02d')", i+10, i, i))
	}
	stmts = append(stmts, "INSERT INTO people VALUES (1, 'O''Brien', 'Crème brûlée torch')",
		"INSERT INTO people VALUES (2, 'Siobhán', 'spoon')",
		"INSERT INTO people VALUES (3, '"+nfdZoe+"', 'fork')",
		"INSERT INTO people VALUES (4, 'Máire O''Neill', 'knife')")
	db := sourcetest.TempDB(t, stmts...)
	e := airEngine(t, db, nil)
	ctx := context.Background()
	plan := func(col, v string) []byte {
		return []byte(fmt.Sprintf(`{"select":[{"expr":{"kind":"column","table":"p","column":"id"}}],"from":[{"table":"people","alias":"p"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":%q},"right":{"kind":"literal","value":%q}}}`, col, v))
	}
	for _, c := range []struct {
		name, col, typed, stored, how string
	}{
		{"curly apostrophe", "name", "O\u2019Brien", "O'Brien", "apostrophes"},
		{"no accent", "name", "Siobhan", "Siobhán", "accents"},
		{"composed against decomposed", "name", "Zo\u00eb Bront\u00eb", nfdZoe, "Unicode composition"},
		{"curly apostrophe and case", "name", "o\u2019brien", "O'Brien", "apostrophes"},
		{"accent and apostrophe", "name", "Maire O\u2019Neill", "Máire O'Neill", "accents and the form of its apostrophes"},
	} {
		res, err := e.RunPlan(ctx, "air", plan(c.col, c.typed))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Rows) != 0 {
			t.Fatalf("%s: %d rows: the engine matched it after all", c.name, len(res.Rows))
		}
		w := warningWith(res.Warnings, "no stored value")
		if !strings.Contains(w, fmt.Sprintf("%q", c.stored)) || !strings.Contains(w, c.how) {
			t.Errorf("%s: warnings %q, want the stored value %q named and %q said", c.name, res.Warnings, c.stored, c.how)
		}
		// the value named, pasted, finds the row
		if fixed, err := e.RunPlan(ctx, "air", plan(c.col, c.stored)); err != nil || len(fixed.Rows) != 1 {
			t.Errorf("%s: comparing with %q: %v, %v", c.name, c.stored, rowsOf(fixed), err)
		}
	}

	// a part typed without accents names the value holding it, and
	// suggests no like (which would compare accents as well)
	res, err := e.RunPlan(ctx, "air", plan("item", "brulee torch"))
	if err != nil {
		t.Fatal(err)
	}
	w := warningWith(res.Warnings, "hold")
	if !strings.Contains(w, `"Crème brûlée torch"`) || strings.Contains(w, `"pattern"`) {
		t.Errorf("part without accents: warnings %q", res.Warnings)
	}

	// a value nothing resembles is said to be absent, with no stored
	// value offered in its place
	res, err = e.RunPlan(ctx, "air", plan("name", "Nobody"))
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(res.Warnings, "\n"); strings.Contains(w, "differ") || strings.Contains(w, "nearest") || strings.Contains(w, "hold") {
		t.Errorf("an unrelated value got a value in its place: %q", w)
	}
}
