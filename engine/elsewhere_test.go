package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: a host sends a plan to the wrong datasource and is told only
// "there is no table named "orchestra"", so it guesses (or gives up). The
// refusal must name the datasource that holds the table, and only one the
// caller may read it in: a table hidden by policy is never named.
func TestWrongDatasourceNamesTheRightOne(t *testing.T) {
	tv := sourcetest.TempDB(t, "CREATE TABLE channel (id INTEGER PRIMARY KEY, name TEXT)")
	orch := sourcetest.TempDB(t, "CREATE TABLE orchestra (id INTEGER PRIMARY KEY, name TEXT)", "CREATE TABLE secret (id INTEGER)")
	specs := []DatasourceSpec{{ID: "tv", Engine: "sqlite", Path: tv, RowLimit: 100}, {ID: "orch", Engine: "sqlite", Path: orch, RowLimit: 100}}
	plan := func(table string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + table + `","alias":"o"}]}`)
	}
	hint := func(e *Engine, ctx context.Context, table string) string {
		t.Helper()
		if _, err := e.RunPlan(ctx, "orch", plan("orchestra")); err != nil { // opens orch
			t.Fatal(err)
		}
		_, err := e.RunPlan(ctx, "tv", plan(table))
		var ee *Error
		if !errors.As(err, &ee) || ee.Code != CodePlanInvalid {
			t.Fatalf("a plan over another datasource's table: %v", err)
		}
		return ee.Hint
	}

	e, err := New(Options{Open: openAdapter, Datasources: specs})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// the tool that combines datasources is named: ask, without a model
	// of the server's, combines nothing
	if h := hint(e, context.Background(), "Orchestra"); !strings.Contains(h, `table "Orchestra" is in datasource "orch", not "tv"`) || !strings.Contains(h, "run_combined_plan") {
		t.Errorf("hint %q does not name the datasource holding the table and the tool that combines datasources", h)
	}
	if h := hint(e, context.Background(), "nowhere"); strings.Contains(h, "is in datasource") {
		t.Errorf("hint %q names a datasource for a table no datasource has", h)
	}

	pol := policyFromYAML(t, `datasources:
  - {id: tv, engine: sqlite, path: `+tv+`}
  - {id: orch, engine: sqlite, path: `+orch+`}
roles:
  viewer:
    allow: ["tv", "orch.main.orchestra"]
users:
  - {name: vic, roles: [viewer]}
local_user: vic
`)
	re, err := New(Options{Open: openAdapter, Datasources: specs, Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	vic, _ := pol.ForUser("vic")
	if h := hint(re, WithCaller(context.Background(), vic), "secret"); strings.Contains(h, "secret") {
		t.Errorf("hint %q names a table the caller may not read", h)
	}
}
