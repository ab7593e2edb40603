package engine

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// northwindEngine opens the shared Northwind copy, whose DATETIME columns
// hold date-only text ('2016-07-04'), or skips without ../shared.
func northwindEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "shared", "data", "northwind", "northwind.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("../shared not found: %v", err)
	}
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "northwind", Engine: "sqlite", Path: p, RowLimit: 1000}},
		Today:       func() string { return "2026-01-15" },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, p
}

// A year filter on Northwind's OrderDate (stored '2017-01-01', compared
// with '2017-01-01 00:00:00') lost the year's first day and gained the
// next year's: the count must be what the stored text's year says.
func TestNorthwindYearFilterCountsEveryDay(t *testing.T) {
	e, path := northwindEngine(t)
	raw, err := sql.Open("sqlite", path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, tc := range []struct{ where, by string }{
		{`{"kind":"between","expr":{"kind":"column","column":"OrderDate"},"low":{"kind":"literal","type":"date","value":"2017-01-01"},"high":{"kind":"literal","type":"date","value":"2017-12-31"}}`,
			`substr(OrderDate, 1, 4) = '2017'`},
		{`{"kind":"binary","op":"=","left":{"kind":"column","column":"OrderDate"},"right":{"kind":"literal","value":"2018-01-01"}}`,
			`substr(OrderDate, 1, 10) = '2018-01-01'`},
		{`{"kind":"binary","op":">=","left":{"kind":"column","column":"OrderDate"},"right":{"kind":"literal","type":"timestamp","value":"2018-01-01 00:00:00"}}`,
			`substr(OrderDate, 1, 10) >= '2018-01-01'`},
	} {
		res, err := e.RunPlan(context.Background(), "northwind", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],
			"from":[{"table":"Orders","alias":"o"}],"where":`+tc.where+`}`))
		if err != nil {
			t.Fatal(err)
		}
		var want int64
		if err := raw.QueryRow("SELECT COUNT(*) FROM Orders WHERE " + tc.by).Scan(&want); err != nil {
			t.Fatal(err)
		}
		if want == 0 {
			t.Fatalf("%s matches no order: the case tests nothing", tc.by)
		}
		if got := res.Rows[0][0]; got != want {
			t.Errorf("%s: %v orders, want %d (%s)\n%s", tc.where, got, want, tc.by, res.SQL)
		}
	}
}

// MIN and MAX of a timestamp column are timestamps, shown as the column's
// own values are: not raw text in one column and a time in the other.
func TestNorthwindAggregateOfTimestampShowsAsTheColumn(t *testing.T) {
	e, _ := northwindEngine(t)
	res, err := e.RunPlan(context.Background(), "northwind", []byte(`{"select":[
		{"expr":{"kind":"column","column":"OrderDate"},"alias":"d"},
		{"expr":{"kind":"window","name":"MIN","args":[{"kind":"column","column":"OrderDate"}]},"alias":"first"}],
		"from":[{"table":"Orders","alias":"o"}],"order_by":[{"expr":{"kind":"column","column":"OrderDate"}}],"limit":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 {
		t.Fatalf("rows %v", res.Rows)
	}
	if res.ColumnTypes[1] != res.ColumnTypes[0] {
		t.Errorf("types %v: MIN of a column typed otherwise than the column", res.ColumnTypes)
	}
	if res.Rows[0][0] != res.Rows[0][1] || res.Rows[0][0] != "2016-07-04 00:00:00" {
		t.Errorf("the first order date shows as %q and its MIN as %q, want both %q", res.Rows[0][0], res.Rows[0][1], "2016-07-04 00:00:00")
	}
	agg, err := e.RunPlan(context.Background(), "northwind", []byte(`{"select":[
		{"expr":{"kind":"func","name":"MIN","args":[{"kind":"column","column":"OrderDate"}]},"alias":"first"}],
		"from":[{"table":"Orders","alias":"o"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if agg.Rows[0][0] != res.Rows[0][0] || agg.ColumnTypes[0] != res.ColumnTypes[0] {
		t.Errorf("MIN(OrderDate) is %q (%s), the column's first value %q (%s)", agg.Rows[0][0], agg.ColumnTypes[0], res.Rows[0][0], res.ColumnTypes[0])
	}
}
