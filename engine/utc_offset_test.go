package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: an application stores timestamps as JavaScript writes them
// ('2024-03-01T10:15:00.000Z') or with a UTC offset, in a SQLite
// TIMESTAMP column. They were no timestamps by the cast rule: the whole
// column read as NULL (the values themselves shown as NULL), every date
// function and comparison on it matched nothing. They must read as the
// instant they name in UTC, as SQLite's own date functions read them.
func TestTimestampsWithZOrAnOffsetReadAsTheirInstant(t *testing.T) {
	stmts := []string{"CREATE TABLE visits (id INTEGER PRIMARY KEY, at TIMESTAMP)"}
	for i := 1; i <= 40; i++ {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO visits VALUES (%d, '2024-02-%02dT10:15:00.000Z')", i, i%28+1))
	}
	stmts = append(stmts, "INSERT INTO visits VALUES (100, '2024-03-06T00:15:00+02:00')", "INSERT INTO visits VALUES (101, 'junk')")
	db := sourcetest.TempDB(t, stmts...)
	e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second, Datasources: []DatasourceSpec{{ID: "air", Engine: "sqlite", Path: db}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	run := func(plan string) [][]any {
		t.Helper()
		res, err := e.RunPlan(ctx, "air", []byte(plan))
		if err != nil {
			t.Fatalf("%v\n%s", err, plan)
		}
		return res.Rows
	}
	at := `{"kind":"column","table":"v","column":"at"}`
	// the values themselves, and their day of the month
	rows := run(`{"select":[{"expr":` + at + `,"alias":"at"},{"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"day"},` + at + `]},"alias":"d"}],"from":[{"table":"visits","alias":"v"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"v","column":"id"},"right":{"kind":"literal","value":1}}}`)
	if len(rows) != 1 || rows[0][0] == nil || fmt.Sprint(rows[0][1]) != "2" {
		t.Errorf("a Z timestamp: %v, want its value and day 2", rows)
	}
	// the offset one is 2024-03-05 22:15 UTC: on March 5th, at hour 22
	rows = run(`{"select":[{"expr":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"hour"},` + at + `]},"alias":"h"}],"from":[{"table":"visits","alias":"v"}],"where":{"kind":"between","expr":` + at + `,"low":{"kind":"literal","type":"date","value":"2024-03-05"},"high":{"kind":"literal","type":"date","value":"2024-03-05"}}}`)
	if len(rows) != 1 || fmt.Sprint(rows[0][0]) != "22" {
		t.Errorf("the offset timestamp on 2024-03-05 UTC: %v, want one row at hour 22", rows)
	}
	// all 41 count; 'junk' alone reads as NULL
	res, err := e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[`+at+`]},"alias":"n"}],"from":[{"table":"visits","alias":"v"}]}`))
	if err != nil || fmt.Sprint(res.Rows) != "[[41]]" {
		t.Fatalf("count: %v %v", res, err)
	}
	if w := warningWith(res.Warnings, "not valid timestamps"); w != "" && !strings.Contains(w, "1 value") {
		t.Errorf("warning %q: only 'junk' is no timestamp", w)
	}
}
