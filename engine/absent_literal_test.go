package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a literal typed from a question ('nroth' for 'north') that
// no stored value equals makes a comparison true for no row. Inside a CASE
// under COUNT the answer is a count of 0 that no empty-result check sees;
// in a filter it is "none". Both look like answers. A run and a check of
// the plan must name the literal and the nearest stored value whenever the
// column's values are all known, say it once when an empty result's
// spelling warning already does, say nothing for a literal that is
// stored, and tell a caller behind a row filter nothing of rows it cannot
// read.
func TestLiteralNoStoredValueEqualsIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT, region TEXT)",
		"INSERT INTO airports VALUES ('APG', 'Aberdeen', 'north'), ('ABR', 'Abilene', 'south'), ('XYZ', 'Nowhere', 'north')")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	region := `{"kind":"column","table":"a","column":"region"}`
	eq := func(v string) string {
		return `{"kind":"binary","op":"=","left":` + region + `,"right":{"kind":"literal","value":"` + v + `"}}`
	}
	counted := func(v string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"case","whens":[{"when":` + eq(v) + `,"then":{"kind":"literal","value":1}}]}]},"alias":"n"},` +
			`{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"all"}],"from":[{"table":"airports","alias":"a"}]}`)
	}
	filtered := func(v string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"code"}}],"from":[{"table":"airports","alias":"a"}],"where":` + eq(v) + `}`)
	}
	const absent = `no stored value of "region" is`
	for _, c := range []struct {
		name  string
		plan  []byte
		named bool
	}{
		{"typo in a CASE under COUNT", counted("nroth"), true},
		{"typo in a filter", filtered("nroth"), true},
		{"stored value in a CASE", counted("north"), false},
		{"stored value in a filter", filtered("south"), false},
	} {
		res, err := e.RunPlan(ctx, "air", c.plan)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check, err := e.CheckPlan(ctx, "air", c.plan, "")
		if err != nil {
			t.Fatalf("%s: check: %v", c.name, err)
		}
		for what, ws := range map[string][]string{"run": res.Warnings, "check": check.Warnings} {
			w := warningWith(ws, absent)
			if got := strings.Contains(w, `"nroth"`) && strings.Contains(w, `nearest stored value is "north"`); got != c.named {
				t.Errorf("%s (%s): warnings %q, want the literal and \"north\" named: %v", c.name, what, ws, c.named)
			}
		}
	}

	// an empty result whose spelling warning quotes the literal says it once
	res, err := e.RunPlan(ctx, "air", filtered("North"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(res.Warnings, "\n"), `"North"`); n != 1 {
		t.Errorf("warnings %q: want \"North\" quoted by one warning", res.Warnings)
	}

	// a caller reading airports through a row filter learns no stored value
	res = runAsNorth(t, db, counted("sooth"), "air.main.airports")
	if w := strings.Join(res.Warnings, "\n"); strings.Contains(w, `"south"`) {
		t.Errorf("a row-filtered caller learned a value of a row it cannot read: %q", w)
	}
}

// The threat: a SUM over a text amount the cast read as NULL ('$1.00')
// came back NULL, and the warning said "no rows matched, and no stored
// value of status is exactly 'dispensed'", though 'dispensed' is the
// column's commonest value and its rows matched: a fixer went after the
// filter instead of the cast. A literal stored as written is never said
// to be missing.
func TestStoredLiteralIsNeverCalledMissing(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE prescriptions (id INTEGER PRIMARY KEY, status TEXT, price TEXT)",
		"INSERT INTO prescriptions VALUES (1, 'dispensed', '$1.00'), (2, 'Dispensed', '$2.00'), (3, 'dispensed', '$4.00'), (4, 'pending', '8')")
	e := airEngine(t, db, nil)
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":{"kind":"column","table":"p","column":"price"}}]},"alias":"revenue"}],`+
		`"from":[{"table":"prescriptions","alias":"p"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":"status"},"right":{"kind":"literal","value":"dispensed"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "no rows matched"); w != "" || warningWith(res.Warnings, "read them as NULL") == "" {
		t.Errorf("rows %v warnings %q: want the cast named and no claim that 'dispensed' is not stored", res.Rows, res.Warnings)
	}
}

// The threat: a literal typed with a decomposed accent ("Zoe" and U+0308)
// where the data stores the composed "Zoë" matches no row, and the
// warning said no stored value is "Zoë", the nearest being "Zoë": the
// two print alike, so the warning read as a contradiction and the reader
// could not mend the plan. It says they differ in how the accent is
// encoded.
func TestLiteralInAnotherUnicodeFormIsExplained(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT)",
		"INSERT INTO people VALUES (1, 'Zo\u00eb'), (2, 'Ann'), (3, 'Bo')")
	e := airEngine(t, db, nil)
	plan := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":"name"},"right":{"kind":"literal","value":"Zoe\u0308"}},"then":{"kind":"literal","value":1}}]}]},"alias":"n"}],"from":[{"table":"people","alias":"p"}]}`
	res, err := e.RunPlan(context.Background(), "air", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, `no stored value of "name" is`); !strings.Contains(w, "composed and decomposed") {
		t.Errorf("warnings %q: want the two encodings of the accent named", res.Warnings)
	}
}
