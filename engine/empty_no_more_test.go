package engine

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a table profiled empty gets rows while the server runs
// (data-only writes do not profile again at once). A count of 2 then
// came back saying "the table held no rows … the result reflects an
// empty table", a warning that contradicts the rows it comes with, and a
// host that believes it discards a right answer. A table that holds rows
// now is not called empty; one still empty still is.
func TestTableThatGotRowsIsNotCalledEmpty(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE returns (id INTEGER PRIMARY KEY, reason TEXT)", "CREATE TABLE refunds (id INTEGER PRIMARY KEY)")
	e := airEngine(t, path, nil)
	ctx := context.Background()
	count := func(table string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"` + table + `","alias":"r"}]}`)
	}
	res, err := e.RunPlan(ctx, "air", count("returns"))
	if err != nil || warningWith(res.Warnings, `table "returns" held no rows`) == "" {
		t.Fatalf("before the rows: %v %v, want the empty table named", res, err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO returns VALUES (1, 'broken'), (2, 'late')"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	res, err = e.RunPlan(ctx, "air", count("returns"))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Rows) != "[[2]]" || warningWith(res.Warnings, "held no rows") != "" {
		t.Errorf("after 2 rows: rows %v warnings %q, want 2 and no empty-table warning", res.Rows, res.Warnings)
	}
	res, err = e.RunPlan(ctx, "air", count("refunds"))
	if err != nil || warningWith(res.Warnings, `table "refunds" held no rows`) == "" {
		t.Errorf("a table still empty: %v %v, want it named", res, err)
	}
}
