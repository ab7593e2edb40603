package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: "years in which orchestras gave more than one performance"
// returns no rows, and the host cannot tell an empty table from groups
// that all had one performance, so it answers "no data" or rewrites a
// correct plan. An empty grouped result must say how many groups there
// were before the having filter and the range of what it compared; a
// caller behind a row filter is told only of the rows it may read.
func TestEmptyHavingSaysWhatTheGroupsHeld(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE perf (id INTEGER PRIMARY KEY, orch INTEGER, region TEXT)",
		"INSERT INTO perf VALUES (1, 10, 'north'), (2, 11, 'north'), (3, 12, 'south'), (4, 12, 'south')")
	plan := func(having, where string) []byte {
		p := `{"select":[{"expr":{"kind":"column","table":"p","column":"orch"},"alias":"orch"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
			`"from":[{"table":"perf","alias":"p"}],"group_by":[{"kind":"column","table":"p","column":"orch"}],"having":` + having
		if where != "" {
			p += `,"where":` + where
		}
		return []byte(p + `}`)
	}
	moreThan := func(n string) string {
		return `{"kind":"binary","op":">","left":{"kind":"column","column":"n"},"right":{"kind":"literal","value":` + n + `}}`
	}
	e := airEngine(t, db, nil)
	ctx := context.Background()

	res, err := e.RunPlan(ctx, "air", plan(moreThan("2"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "no group passed the having filter"); !strings.Contains(w, "3 groups") || !strings.Contains(w, "from 1 to 2") {
		t.Errorf("warnings %q: want the 3 groups before the having filter and their counts' range 1 to 2", res.Warnings)
	}
	res, err = e.RunPlan(ctx, "air", plan(moreThan("2"), `{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":"region"},"right":{"kind":"literal","value":"east"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if warningWith(res.Warnings, "before grouping either") == "" {
		t.Errorf("warnings %q: want that no row was left to group", res.Warnings)
	}
	res, err = e.RunPlan(ctx, "air", plan(moreThan("1"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || warningWith(res.Warnings, "having filter") != "" {
		t.Errorf("a having filter that kept a group: rows %v warnings %q", res.Rows, res.Warnings)
	}

	ne, nctx := northCaller(t, db, "air.main.perf", "air.main.perf")
	res, err = ne.RunPlan(nctx, "air", plan(moreThan("1"), ""))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(res.Warnings, "no group passed"); !strings.Contains(w, "2 groups") || !strings.Contains(w, "from 1 to 1") {
		t.Errorf("row-filtered caller's warnings %q: want the 2 groups it may read, each of 1", res.Warnings)
	}
}
