package engine

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/source"
)

// countingSource counts the queries a datasource runs.
type countingSource struct {
	Source
	queries *atomic.Int64
}

func (c countingSource) Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error) {
	c.queries.Add(1)
	return c.Source.Query(ctx, sql, args, maxRows)
}

// A plan check renders what a run would run and runs nothing: a plan that
// would take hours (three InvoiceLine tables joined on Quantity, which
// is 1 on every line: 11 billion rows) comes back at once, with no query sent to the database.
func TestCheckPlanRunsNothing(t *testing.T) {
	var queries atomic.Int64
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	e, err := New(Options{
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000}},
		Planner:     rp,
		Open: func(ctx context.Context, spec DatasourceSpec) (Source, error) {
			src, err := openAdapter(ctx, spec)
			return countingSource{src, &queries}, err
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	if _, err := e.VisibleSnapshot(ctx, "chinook"); err != nil { // opening profiles the tables
		t.Fatal(err)
	}
	before := queries.Load()
	plan := `{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}],
	  "from": [{"table": "InvoiceLine", "alias": "a"}, {"table": "InvoiceLine", "alias": "b"}, {"table": "InvoiceLine", "alias": "c"}],
	  "joins": [{"type": "inner", "left": "a", "right": "b", "on": [{"left_column": "Quantity", "right_column": "Quantity"}]},
	            {"type": "inner", "left": "b", "right": "c", "on": [{"left_column": "Quantity", "right_column": "Quantity"}]}]}`
	start := time.Now()
	pc, err := e.CheckPlan(ctx, "", []byte(plan), "")
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("check took %v", took)
	}
	if n := queries.Load() - before; n != 0 {
		t.Errorf("CheckPlan ran %d queries", n)
	}
	if !strings.HasPrefix(pc.SQL, "SELECT") || len(pc.Columns) != 1 || pc.Columns[0] != "n" || pc.Types[0] != "integer" || pc.Dialect != "sqlite" {
		t.Errorf("check = %+v", pc)
	}
	// the SQL is the one a run executes (row limit plus the probe row)
	if !strings.Contains(pc.SQL, "LIMIT 1001") {
		t.Errorf("SQL %q is not the run's", pc.SQL)
	}
	if len(pc.Warnings) == 0 {
		t.Error("no warnings")
	}
}

// The row-limit note speaks of a cut only a run could make: a plan whose
// own limit is within the row limit, or that aggregates without groups,
// cannot be cut, so it gets none (a host would otherwise add filters for
// nothing). It is a note on the SQL, never a warning: it says nothing
// wrong of the plan, and a warning on every check teaches a host to skip
// warnings.
func TestCheckPlanRowLimitNoteOnlyWhenItCanCut(t *testing.T) {
	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000}}, Planner: rp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	base := `{"select": [{"expr": {"kind": "column", "table": "g", "column": "Name"}, "alias": "genre"}], "from": [{"table": "Genre", "alias": "g"}]`
	for _, c := range []struct {
		plan string
		want bool
	}{
		{base + `}`, true},
		{base + `, "order_by": [{"expr": {"kind": "column", "column": "genre"}}], "limit": 5}`, false},
		{base + `, "limit": 5000}`, true},
		{base + `, "order_by": [{"expr": {"kind": "column", "column": "genre"}}], "limit": 5, "with_ties": true}`, true},
		// one row whatever the data
		{`{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "Genre", "alias": "g"}]}`, false},
		{`{"select": [{"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "n"}], "from": [{"table": "Genre", "alias": "g"}], "group_by": [{"kind": "column", "table": "g", "column": "Name"}]}`, true},
	} {
		pc, err := e.CheckPlan(context.Background(), "", []byte(c.plan), "")
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(pc.SQLNotes, "\n"), "row limit")
		if got != c.want {
			t.Errorf("%s: row-limit note %v, want %v (%q)", c.plan, got, c.want, pc.SQLNotes)
		}
		if w := strings.Join(pc.Warnings, "\n"); strings.Contains(w, "row limit") {
			t.Errorf("%s: the row limit among the warnings: %q", c.plan, w)
		}
	}
}
