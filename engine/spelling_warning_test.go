package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/scope"
)

// Threat: a host asks how many flights go to 'Zaragoza'; the data stores
// the city as 'Zaragoza ' (a trailing space), the count comes back 0, and
// the host answers "none" with confidence. A count of 0 (or no rows) from
// a filter whose literal differs from a stored value only in letter case
// or surrounding spaces must say so and name the stored spelling, from
// the value index when the profile's samples do not hold it. A caller who
// reads the table through a row filter must not learn values of rows it
// cannot see from such a warning (the filter's rewrite puts the table
// behind a subquery the warning does not look into, and the stored-values
// lookup refuses row-filtered tables as well); a filter that matched rows
// earns none.
func TestEmptyFilterNamesTheStoredSpelling(t *testing.T) {
	stmts := []string{"CREATE TABLE airports (code TEXT PRIMARY KEY, city TEXT, region TEXT)"}
	for i := range 80 {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO airports VALUES ('A%02d', 'City %02d', 'north')", i, i))
	}
	stmts = append(stmts, "INSERT INTO airports VALUES ('ZAZ', 'Zaragoza ', 'south')")
	db := sourcetest.TempDB(t, stmts...)
	count := func(where string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"airports","alias":"a"}],"where":` + where + `}`)
	}
	eq := func(v string) string {
		return `{"kind":"binary","op":"=","left":{"kind":"column","table":"a","column":"city"},"right":{"kind":"literal","value":"` + v + `"}}`
	}
	in := `{"kind":"in","expr":{"kind":"column","table":"a","column":"city"},"list":[{"kind":"literal","value":"ZARAGOZA"}]}`

	e := airEngine(t, db, nil)
	ctx := context.Background()
	for _, c := range []struct {
		name, where string
		spelling    bool
	}{
		{"count of 0, trailing space", eq("Zaragoza"), true},
		{"count of 0, in list, case and space", in, true},
		{"count of 1", eq("Zaragoza "), false},
		{"count of 0, nothing near", eq("Lisbon"), false},
	} {
		res, err := e.RunPlan(ctx, "air", count(c.where))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// the empty result's own warning: a count of 0 matched nothing
		w := warningWith(res.Warnings, "no rows matched, and no stored value")
		if got := w != "" && strings.Contains(w, `"Zaragoza "`); got != c.spelling {
			t.Errorf("%s: warnings %q, want the stored spelling named: %v", c.name, res.Warnings, c.spelling)
		}
	}

	res := runAsNorth(t, db, count(eq("Zaragoza")), "air.main.airports")
	if strings.Contains(strings.Join(res.Warnings, "\n"), "Zaragoza ") {
		t.Errorf("a row-filtered caller learned a value of a row it cannot read: %q", res.Warnings)
	}
}

// runAsNorth runs plan as nora, who reads the tables allowed, and
// airports of the north only.
func runAsNorth(t *testing.T, db string, plan []byte, allowed ...string) *Result {
	t.Helper()
	e, ctx := northCaller(t, db, "air.main.airports", allowed...)
	res, err := e.RunPlan(ctx, "air", plan)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// northCaller is an engine on db (datasource air) and the context of a
// caller who may read the allowed tables and reads filtered only the
// rows of filtered whose region is 'north'.
func northCaller(t *testing.T, db, filtered string, allowed ...string) (*Engine, context.Context) {
	t.Helper()
	pol := policyFromYAML(t, `datasources:
  - {id: air, engine: sqlite, path: `+db+`}
roles:
  north:
    allow: ["`+strings.Join(allowed, `", "`)+`"]
    row_filters:
      - {table: `+filtered+`, where: "region = 'north'"}
users:
  - {name: nora, roles: [north]}
local_user: nora
`)
	north, _ := pol.ForUser("nora")
	return airEngine(t, db, pol), WithCaller(context.Background(), north)
}

// Threat: a host counts rows of a table that is empty (a schema-only copy,
// a table not loaded yet), gets 0, and is told the comparison was
// case-sensitive, so it rewrites a correct plan and still gets nothing.
// The result must say the table held no rows instead, and so must a
// result that has rows, and a check before the run.
func TestEmptyTableIsNamedNotTheFilter(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE district (id INTEGER PRIMARY KEY, region TEXT)")
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "fin", Engine: "sqlite", Path: db, RowLimit: 1000}},
		Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	plan := []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"district","alias":"d"}],` +
		`"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"d","column":"region"},"right":{"kind":"literal","value":"north Bohemia"}}}`)
	res, err := e.RunPlan(context.Background(), "fin", plan)
	if err != nil {
		t.Fatal(err)
	}
	if warningWith(res.Warnings, `table "district" held no rows`) == "" || warningWith(res.Warnings, "case-sensitively") != "" {
		t.Errorf("warnings %q: want the empty table named and no case-sensitivity guess", res.Warnings)
	}

	// a result with rows over an empty table misleads as much: NOT EXISTS
	// holds, so the CASE answers "no" for a district nobody loaded
	db2 := sourcetest.TempDB(t, "CREATE TABLE district (id INTEGER PRIMARY KEY, region TEXT)", "CREATE TABLE loaded (id INTEGER)", "INSERT INTO loaded VALUES (1)")
	e2 := airEngine(t, db2, nil)
	caseOf := []byte(`{"select":[{"expr":{"kind":"case","whens":[{"when":{"kind":"exists","subquery":{"select":[{"expr":{"kind":"column","table":"d","column":"id"}}],"from":[{"table":"district","alias":"d"}]}},"then":{"kind":"literal","value":"yes"}}],"else":{"kind":"literal","value":"no"}},"alias":"any"}],"from":[{"table":"loaded","alias":"l"}]}`)
	res, err = e2.RunPlan(context.Background(), "air", caseOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || warningWith(res.Warnings, `table "district" held no rows`) == "" {
		t.Errorf("rows %v warnings %q: want the empty table named though the result has a row", res.Rows, res.Warnings)
	}
	check, err := e2.CheckPlan(context.Background(), "air", caseOf, "")
	if err != nil {
		t.Fatal(err)
	}
	if warningWith(check.Warnings, `table "district" held no rows`) == "" {
		t.Errorf("check_plan warnings %q: want the empty table named before the run", check.Warnings)
	}
}

// airEngine serves the SQLite file db as datasource "air" under pol (nil:
// everything readable), closed when the test ends.
func airEngine(t *testing.T, db string, pol *scope.Policy) *Engine {
	t.Helper()
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "air", Engine: "sqlite", Path: db, RowLimit: 1000}},
		Policy: pol, Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
