package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: the database role the server connects as may not read a
// table (SELECT revoked, or never granted), so the table is left out of
// the schema, and a plan naming it was told "there is no table named
// returns". The user then believes the data does not exist, and nobody
// grants the privilege. The refusal must say that the table exists and
// what to grant; a caller whose access policy hides the table learns
// nothing of it, and a table that does not exist is still said not to.
// The role is named: "the role the server connects as" left the user to
// find out which role that is before anything could be granted.
func TestTableTheRoleMayNotReadIsNamed(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE returns (a text)", "CREATE TABLE orders (a text)")
	sourcetest.PGExec(t, f.Super, "REVOKE SELECT ON returns FROM "+f.Role)
	plan := func(table string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"r","column":"a"}}],"from":[{"table":"` + table + `","alias":"r"}]}`)
	}
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	for _, c := range []struct {
		table, want, not string
	}{
		// the administrator reads which role to grant to
		{"returns", `table "public.returns" exists, but the database role ` + f.Role + ` the server connects as may not read it`, "there is no table"},
		{"Returns", `table "public.returns" exists`, "there is no table"},
		{"refunds", "there is no table", "exists"},
	} {
		_, err := e.RunPlan(context.Background(), "air", plan(c.table))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) || c.table != "refunds" && !strings.Contains(err.Error(), "GRANT SELECT ON public.returns TO "+f.Role) {
			t.Errorf("%s: %v, want %q", c.table, err, c.want)
		}
	}

	// a caller whose policy allows only orders hears of no other table
	pol := policyFromYAML(t, `datasources:
  - {id: air, engine: postgres, dsn: "`+f.ReadOnly+`"}
roles:
  clerk:
    allow: ["air.public.orders"]
users:
  - {name: cleo, roles: [clerk]}
local_user: cleo
`)
	clerk, _ := pol.ForUser("cleo")
	pe, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000}},
		Policy: pol, Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pe.Close() })
	_, err = pe.RunPlan(WithCaller(context.Background(), clerk), "air", plan("returns"))
	if err == nil || strings.Contains(err.Error(), "exists") || !strings.Contains(err.Error(), "there is no table") {
		t.Errorf("a caller without access to returns: %v, want it told there is no such table", err)
	}
}

// The threat: one column whose values cannot be listed (PostgreSQL's
// point has no equality, so SELECT DISTINCT fails) made the values index
// fail for the whole datasource: search_schema answered "no retrieval
// index" and ask lost every stored value a question spells. That column
// keeps its samples and every other column's values are found.
func TestAColumnWhoseValuesCannotBeListedLeavesSearchWhole(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE sites (id integer, loc point, city text)",
		"INSERT INTO sites SELECT g, point(g, g), 'Rotterdam-' || g FROM generate_series(1, 300) g", "INSERT INTO sites VALUES (301, point(0, 0), 'Zwolle')")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	sel, err := e.Search(context.Background(), "air", "sites in Zwolle")
	if err != nil {
		t.Fatalf("search with a point column in the schema: %v", err)
	}
	found := false
	for _, v := range sel.Values {
		found = found || strings.Contains(v.Value, "Zwolle")
	}
	if !found {
		t.Errorf("the stored value Zwolle was not found: %+v", sel.Values)
	}
}

// The threat: a table created while the server runs, which the role may
// not read, was answered "there is no table named board" for as long as
// the server ran (the schema version covered only what the role may
// read, so nothing moved), while a restart said it exists and what to
// grant. The running server says so too, at the first plan naming it.
func TestTableCreatedUnreadableWhileRunningIsNamed(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE orders (a text)")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	plan := []byte(`{"select":[{"expr":{"kind":"column","table":"b","column":"a"}}],"from":[{"table":"board","alias":"b"}]}`)
	if _, err := e.RunPlan(context.Background(), "air", plan); err == nil || !strings.Contains(err.Error(), "there is no table") {
		t.Fatalf("before the table exists: %v, want no such table", err)
	}
	sourcetest.PGExec(t, f.Super, "CREATE TABLE board (a text)", "REVOKE SELECT ON board FROM "+f.Role)
	if _, err := e.RunPlan(context.Background(), "air", plan); err == nil || !strings.Contains(err.Error(), `table "public.board" exists, but the database role`) {
		t.Errorf("after it was created unreadable: %v, want it named with the GRANT it needs", err)
	}
}

// The threat: a range (or a time) column the result shows as text was
// compared with a string that the engine reads as the same value
// ('[2024-01-01,2024-01-31]' is the stored '[2024-01-01,2024-02-01)'):
// the row came back, and a warning said no stored value is that string
// and = with it is true for no row, contradicting the answer beside it.
// Only columns stored as text are judged by their texts.
func TestValuesComparedByValueAreNotJudgedByTheirText(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE stays (id integer, nights daterange, guest text)",
		"INSERT INTO stays VALUES (1, '[2024-01-01,2024-01-31]', 'Ann'), (2, '[2024-03-01,2024-03-05)', 'Bo')")
	e := specEngine(t, DatasourceSpec{ID: "air", Engine: "postgres", DSN: f.ReadOnly, RowLimit: 1000})
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"column","table":"s","column":"guest"}}],"from":[{"table":"stays","alias":"s"}],
		"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"s","column":"nights"},"right":{"kind":"literal","value":"[2024-01-01,2024-01-31]"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Rows) != "[[Ann]]" || warningWith(res.Warnings, "true for no row") != "" {
		t.Errorf("rows %v warnings %q: want Ann and no claim that nothing matches", res.Rows, res.Warnings)
	}
	// a text column is still judged by its texts
	res, err = e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"column","table":"s","column":"id"}}],"from":[{"table":"stays","alias":"s"}],
		"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"s","column":"guest"},"right":{"kind":"literal","value":"Anne"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "true for no row"); !strings.Contains(w, `"Ann"`) {
		t.Errorf("a typo of a text value: warnings %q, want the nearest stored value named", res.Warnings)
	} else if !strings.Contains(w, "as profiled") {
		// a value written after the profile matches: the claim is the profile's
		t.Errorf("the warning states as fact what only the profile says: %q", w)
	}
}
