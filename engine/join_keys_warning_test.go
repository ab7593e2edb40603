package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: the data stores a declared key with stray spaces on one side
// (flights.src " APG", airports.code "APG"), so the join the schema
// declares pairs no row; a host counting flights per city gets 0 or
// nothing and answers "none". A run that matched nothing through such a
// join must say that the keys differ only in spaces or case, name both
// spellings, and give a join condition that works, and the condition it
// gives must be a plan that runs and finds the rows. A join whose keys do
// match (the result is empty for another reason), a partial value list,
// and a caller behind a row filter get no such warning.
// looselyOnly is the words of a key warning.
const looselyOnly = "only when letter case and surrounding spaces are ignored"

func TestJoinOnKeysThatDifferInSpacesIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT, region TEXT)",
		"CREATE TABLE flights (no INTEGER PRIMARY KEY, src TEXT REFERENCES airports(code))",
		"INSERT INTO airports VALUES ('APG', 'Aberdeen', 'north'), ('ABR', 'Abilene', 'south'), ('XYZ', 'Nowhere', 'north')",
		"INSERT INTO flights VALUES (1, ' APG'), (2, ' APG'), (3, ' ABR')")
	count := func(join, where string) []byte {
		p := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"from":[{"table":"flights","alias":"f"},{"table":"airports","alias":"a"}],"joins":[` + join + `]`
		if where != "" {
			p += `,"where":` + where
		}
		return []byte(p + `}`)
	}
	declared := `{"type":"inner","left":"f","right":"a","on":[{"left_column":"src","right_column":"code"}]}`

	e := airEngine(t, db, nil)
	ctx := context.Background()
	res, err := e.RunPlan(ctx, "air", count(declared, ""))
	if err != nil {
		t.Fatal(err)
	}
	w := warningWith(res.Warnings, looselyOnly)
	if !strings.HasPrefix(w, "no rows matched") || !strings.Contains(w, `(" ABR" against "ABR")`) && !strings.Contains(w, `(" APG" against "APG")`) ||
		!strings.Contains(w, `"TRIM"`) || !strings.Contains(w, `2 stored values of "src"`) {
		t.Fatalf("warnings %q: want the join's two spellings, the number of keys that match loosely and a TRIM condition", res.Warnings)
	}
	// the condition the warning gives, pasted into the plan, finds the rows
	cond := w[strings.Index(w, `"condition": `)+len(`"condition": `):]
	fixed, err := e.RunPlan(ctx, "air", count(`{"type":"inner","left":"f","right":"a","on":[],"condition":`+cond+`}`, ""))
	if err != nil {
		t.Fatalf("the warning's condition does not run: %v\n%s", err, cond)
	}
	if len(fixed.Rows) != 1 || fixed.Rows[0][0] != int64(3) || warningWith(fixed.Warnings, looselyOnly) != "" {
		t.Errorf("the warning's condition: rows %v warnings %q, want 3 flights and no join warning", fixed.Rows, fixed.Warnings)
	}

	// keys that mostly match: the result is empty for another reason, so
	// the warning names the one loose key without blaming it for that
	trimmed := sourcetest.TempDB(t,
		"CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT, region TEXT)",
		"CREATE TABLE flights (no INTEGER PRIMARY KEY, src TEXT REFERENCES airports(code))",
		"INSERT INTO airports VALUES ('APG', 'Aberdeen', 'north'), ('ABR', 'Abilene', 'south')",
		"INSERT INTO flights VALUES (1, 'APG'), (2, 'apg ')")
	ok := airEngine(t, trimmed, nil)
	res, err = ok.RunPlan(ctx, "air", count(declared, `{"kind":"binary","op":"=","left":{"kind":"column","table":"a","column":"city"},"right":{"kind":"literal","value":"Abilene"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, looselyOnly); strings.HasPrefix(w, "no rows matched") || !strings.Contains(w, `1 stored value of "src"`) {
		t.Errorf("keys that share a stored value: warning %q, want 'apg ' named, not blamed for the empty result", w)
	}

	// a caller reading airports through a row filter learns no key values
	res = runAsNorth(t, db, count(declared, ""), "air.main.airports", "air.main.flights")
	if w := warningWith(res.Warnings, looselyOnly); w != "" {
		t.Errorf("a row-filtered caller got the join's stored values: %q", w)
	}
}
