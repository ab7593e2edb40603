package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Threat: a host asks for up to 5,000 rows, the datasource's row limit
// keeps 3, and the host reports 3 as everything there is. A cut result
// must say the limit's number and, when the plan asked for more, that its
// own limit was not what ran; a plan within the limit is not cut.
func TestRowLimitWarningNamesTheLimit(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE t (id INTEGER PRIMARY KEY)", "INSERT INTO t VALUES (1), (2), (3), (4), (5)")
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "d", Engine: "sqlite", Path: db, RowLimit: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	plan := func(limit string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"t","column":"id"}}],"from":[{"table":"t","alias":"t"}],"limit":` + limit + `}`)
	}
	for _, c := range []struct {
		limit, want string
	}{
		{"5000", "row limit of 3 rows (the plan asked for 5000)"},
		{"null", "row limit of 3 rows;"},
		{"2", ""},
	} {
		res, err := e.RunPlan(context.Background(), "d", plan(c.limit))
		if err != nil {
			t.Fatal(err)
		}
		w := warningWith(res.Warnings, "row limit")
		if c.want == "" && (w != "" || res.Truncated) || c.want != "" && (!strings.Contains(w, c.want) || !res.Truncated) {
			t.Errorf("limit %s: truncated %v, warnings %q, want %q", c.limit, res.Truncated, res.Warnings, c.want)
		}
	}
}
