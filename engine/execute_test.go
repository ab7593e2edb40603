package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: a computed amount of 17 digits shown as 12345678901234600
// (15 digits, the rest zeros) in the structured rows and in the answer,
// where the engine computed 12345678901234568 (SQLite's double) or the
// exact 12345678901234567.25 (PostgreSQL's numeric, DuckDB's DECIMAL, which
// come as text), or a stored 12345678.123456789 of a DECIMAL(18,9) column
// shown as 12345678.1234568 by MAX. Only SQLite's floating-point noise
// below 10^15 (18.810000000000002, a run of zeros or nines before the last
// digits) is rounded to 15 digits.
func TestComputedDecimalsKeepEveryDigit(t *testing.T) {
	res := &source.Result{Columns: []string{"a", "b", "c", "d"}, Rows: [][]any{
		{"12345678901234567.25", float64(12345678901234568), 18.810000000000002, 0.1 + 0.2},
		{"-98765432109876543210.0000000001", float64(-1e17 - 16), 1e15 + 0.25, nil},
		{nil, 12345678.12345679, 18.809999999999998, -0.12345678901234568},
	}}
	result.ApplyTypes(res, []planast.Type{planast.TypeDecimal, planast.TypeDecimal, planast.TypeDecimal, planast.TypeDecimal})
	want := [][]any{
		{"12345678901234567.25", float64(12345678901234568), 18.81, 0.3},
		{"-98765432109876543210.0000000001", float64(-1e17 - 16), 1e15 + 0.25, nil},
		{nil, 12345678.12345679, 18.81, -0.12345678901234568},
	}
	if fmt.Sprint(res.Rows) != fmt.Sprint(want) {
		t.Errorf("rows %v, want %v", res.Rows, want)
	}

	// end to end on SQLite, whose decimals are doubles
	e := chinookEngine(t, "")
	plan := `{"select":[{"expr":{"kind":"binary","op":"*","left":{"kind":"cast","expr":{"kind":"literal","value":"12345678901234567.25"},"type":"decimal"},"right":{"kind":"literal","value":1}},"alias":"amount"}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`
	r, err := e.RunPlan(context.Background(), "chinook", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 1 || r.Rows[0][0] != any(float64(12345678901234568)) || !strings.Contains(r.Answer, "12345678901234568") {
		t.Errorf("rows %v (%T), answer %q: want 12345678901234568", r.Rows, r.Rows[0][0], r.Answer)
	}
}

// The threat: a price the database holds as NUMERIC(10,2) 349.00 read as
// 349, and one plan showing 3 on PostgreSQL and 3.0000000000 on DuckDB.
// Stored decimals keep the scale the engine returned; the renderer's own
// scale 10 (a cast to decimal, a product of decimals) drops its trailing
// zeros; ROUND(x, 1) shows one decimal whether the engine returned a
// numeric or a double.
func TestDecimalsShowTheScaleThePlanMeans(t *testing.T) {
	plan := `{"select":[
	 {"expr":{"kind":"column","table":"p","column":"price"},"alias":"price"},
	 {"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"p","column":"price"}]},"alias":"total"},
	 {"expr":{"kind":"cast","expr":{"kind":"column","table":"p","column":"qty"},"type":"decimal"},"alias":"q"},
	 {"expr":{"kind":"binary","op":"*","left":{"kind":"column","table":"p","column":"price"},"right":{"kind":"column","table":"p","column":"rate"}},"alias":"pq"},
	 {"expr":{"kind":"func","name":"ROUND","args":[{"kind":"column","table":"p","column":"price"},{"kind":"literal","value":1}]},"alias":"r"}
	],"from":[{"table":"p","alias":"p"}]}`
	q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	dec := planast.TypeDecimal
	res := &source.Result{Columns: []string{"price", "total", "q", "pq", "r"}, ColumnTypes: []planast.Type{dec, dec, dec, dec, dec}, Rows: [][]any{
		{json.Number("349.00"), json.Number("698.00"), json.Number("3.0000000000"), json.Number("174.5000000000"), float64(349)},
		{json.Number("0.10"), json.Number("0.00"), json.Number("3"), json.Number("0.0000000001"), json.Number("349.0")},
	}}
	result.ShowDecimalScales(res, q, nil)
	want := `[[349.00,698.00,3,174.5,349.0],[0.10,0.00,3,0.0000000001,349.0]]`
	if b, _ := json.Marshal(res.Rows); string(b) != want {
		t.Errorf("rows %s, want %s", b, want)
	}
}

// Threat: SQLite computes SUM, MIN and MAX of a NUMERIC(10,2) column as a
// double, so the same plan showed 710.5 and 349 on SQLite where PostgreSQL
// and DuckDB show 710.50 and 349.00: a report that changes with the
// engine, and an amount that reads as a different figure. They show at
// the column's declared scale; a column without one is left as it is.
func TestSQLiteAggregatesOfDecimalsKeepTheColumnsScale(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE p (id INTEGER PRIMARY KEY, price DECIMAL(10,2), w REAL)",
		"INSERT INTO p VALUES (1, '120.25', 1.5), (2, 241.25, 2.5), (3, 349.0, 3)")
	e := airEngine(t, db, nil)
	agg := func(f, c string) string {
		return `{"expr":{"kind":"func","name":"` + f + `","args":[{"kind":"column","table":"p","column":"` + c + `"}]},"alias":"` + strings.ToLower(f+c) + `"}`
	}
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[`+agg("SUM", "price")+`,`+agg("MAX", "price")+`,`+agg("MIN", "price")+`,`+agg("SUM", "w")+
		`],"from":[{"table":"p","alias":"p"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res.Rows); string(b) != `[[710.50,349.00,120.25,7]]` {
		t.Errorf("rows %s, want [[710.50,349.00,120.25,7]]", b)
	}
}

// Threat: a total of prices (NUMERIC(10,2)) beside a rate of four decimals
// in one result (a union's column, a CASE) came back as 0.12 on DuckDB,
// where the rate is 0.1234: DuckDB typed the result as the sum's
// DECIMAL(38,2). Every engine shows every decimal, and the same text, a
// rate finer than the renderer's own ten places too (0.100000000001 came
// back as 0.1 on DuckDB).
func TestDecimalsMetInOneResultKeepTheirDigits(t *testing.T) {
	for _, r := range []struct{ typ, rate string }{{"NUMERIC(10,4)", "0.1234"}, {"NUMERIC(20,12)", "0.100000000001"}} {
		decimalsMetInOneResult(t, r.typ, r.rate)
	}
}

func decimalsMetInOneResult(t *testing.T, typ, rate string) {
	db := []string{
		"CREATE TABLE p (id INTEGER PRIMARY KEY, price NUMERIC(10,2), rate " + typ + ")",
		"INSERT INTO p VALUES (1, 120.25, " + rate + "), (2, 229.75, 0.5)",
	}
	col := func(c string) string { return `{"kind":"column","table":"p","column":"` + c + `"}` }
	sum := `{"kind":"func","name":"SUM","args":[` + col("price") + `]}`
	union := `{"select":[{"expr":` + sum + `,"alias":"v"}],"from":[{"table":"p","alias":"p"}],` +
		`"set_ops":[{"op":"union_all","query":{"select":[{"expr":` + col("rate") + `,"alias":"v"}],"from":[{"table":"p","alias":"p"}]}}],` +
		`"order_by":[{"expr":{"kind":"column","column":"v"}}]}`
	kase := `{"select":[{"expr":{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":` + col("id") + `,"right":{"kind":"literal","value":1}},"then":` + col("rate") + `}],` +
		`"else":{"kind":"subquery","query":{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"q","column":"price"}]},"alias":"s"}],"from":[{"table":"p","alias":"q"}]}}},"alias":"v"}],` +
		`"from":[{"table":"p","alias":"p"}],"order_by":[{"expr":` + col("id") + `}]}`
	for _, en := range everyEngine(db) {
		t.Run(typ+"/"+en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct{ plan, want string }{
				{union, `[[` + rate + `],[0.5],[350]]`},
				{kase, `[[` + rate + `],[350]]`},
			} {
				res := runAir(t, e, c.plan)
				if b, _ := json.Marshal(res.Rows); string(b) != c.want {
					t.Errorf("rows %s, want %s\nsql: %s", b, c.want, res.SQL)
				}
			}
		})
	}
}
