package duckcompute

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/planast"
)

const (
	tInt  = planast.TypeInteger
	tDec  = planast.TypeDecimal
	tFlt  = planast.TypeFloat
	tText = planast.TypeText
	tBool = planast.TypeBoolean
	tDate = planast.TypeDate
	tTS   = planast.TypeTimestamp
)

func shape(name string, cols ...any) Shape {
	s := Shape{Name: name}
	for i := 0; i < len(cols); i += 2 {
		s.Columns = append(s.Columns, Column{Name: cols[i].(string), Type: cols[i+1].(planast.Type)})
	}
	return s
}

func TestKeyType(t *testing.T) {
	cases := []struct {
		a, b planast.Type
		want planast.Type // "" = refused
	}{
		{tInt, tInt, tInt}, {tInt, tDec, tDec}, {tDec, tFlt, tFlt}, {tInt, tFlt, tFlt},
		{tText, tInt, tInt}, {tDate, tText, tDate}, {tText, tText, tText}, {tText, tBool, tBool},
		{tDate, tTS, tTS}, {tInt, tDate, ""}, {tBool, tDate, ""}, {tBool, tInt, ""}, {tDec, tTS, ""},
		{planast.TypeBlob, tText, ""}, {planast.TypeUnknown, tInt, ""},
	}
	for _, c := range cases {
		got, ok := KeyType(c.a, c.b)
		if (c.want == "") == ok || got != c.want {
			t.Errorf("KeyType(%s, %s) = %q, %v; want %q", c.a, c.b, got, ok, c.want)
		}
		back, _ := KeyType(c.b, c.a)
		if back != got {
			t.Errorf("KeyType is not symmetric for %s, %s", c.a, c.b)
		}
	}
}

func TestConvert(t *testing.T) {
	ts := time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		v    any
		typ  planast.Type
		want any // nil with ok=false means: does not convert
		ok   bool
	}{
		{int64(3), tInt, int64(3), true}, {"42", tInt, int64(42), true}, {" 7 ", tInt, int64(7), true},
		{"12.0", tInt, int64(12), true}, {4.0, tInt, int64(4), true}, {4.5, tInt, nil, false},
		{"E-7", tInt, nil, false}, {true, tInt, nil, false},
		{"2.5", tFlt, 2.5, true}, {int64(2), tFlt, 2.0, true}, {"x", tFlt, nil, false},
		{int64(5), tText, "5", true}, {1.5, tText, "1.5", true}, {false, tText, "false", true},
		{"yes", tBool, true, true}, {int64(0), tBool, false, true}, {int64(2), tBool, nil, false},
		{"2024-03-01", tDate, day, true}, {"2024-03-01 00:00:00", tDate, day, true},
		{"2024-03-01 12:30:00", tDate, nil, false}, {"March", tDate, nil, false},
		{"2024-03-01 12:30:00", tTS, ts, true}, {"2024-03-01T14:30:00+02:00", tTS, ts, true},
		{nil, tInt, nil, true},
	}
	for _, c := range cases {
		got, ok := convert(c.v, c.typ, 2)
		if ok != c.ok || (ok && fmt.Sprint(got) != fmt.Sprint(c.want)) {
			t.Errorf("convert(%#v, %s) = %#v, %v; want %#v, %v", c.v, c.typ, got, ok, c.want, c.ok)
		}
	}
	for v, want := range map[any]string{"0.1": "10", int64(7): "700", "1e3": "100000", 0.125: "13", -2.5: "-250", "-0.005": "-1"} {
		got, ok := convert(v, tDec, 2)
		if d, isDec := got.(duckdb.Decimal); !ok || !isDec || d.Value.String() != want || d.Scale != 2 {
			t.Errorf("convert(%#v, decimal(38,2)) = %v, %v; want %s at scale 2", v, got, ok, want)
		}
	}
	a, b := 0.1, 0.2
	for v, want := range map[any]int{0.1: 1, int64(3): 0, "2.125": 3, "x": 0, nil: 0, a + b: 17, "1e-40": MaxScale} {
		if got := FractionDigits(v); got != want {
			t.Errorf("FractionDigits(%#v) = %d, want %d", v, got, want)
		}
	}
	for _, bad := range []any{"1/3", "0x10", "Infinity", true, "1_000"} {
		if _, ok := convert(bad, tDec, 2); ok {
			t.Errorf("%#v converted to a decimal", bad)
		}
	}
}

func openDB(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func decode(t *testing.T, doc string) *planast.Query {
	t.Helper()
	q, err := planast.Decode([]byte(doc), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// Values that do not convert become NULL and a warning; the load and the
// run go on, and every value type reads back in the result encoding.
func TestLoadWarnsAndRoundTrips(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	s := shape("sq_all", "i", tInt, "d", tDec, "f", tFlt, "s", tText, "b", tBool, "dt", tDate, "ts", tTS)
	warns, err := d.Load(ctx, s, [][]any{
		{int64(1), 18.81, 0.5, "a", true, "2024-01-31", "2024-01-31 08:00:00"},
		{"2", "123456789012.34", int64(2), int64(7), "f", "2024-02-01 00:00:00", "2024-02-01"},
		{"two", "lots", "half", nil, "maybe", "soon", "later"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warns {
		got = append(got, fmt.Sprintf("%s:%d:%s", w.Column, w.Count, w.Example))
	}
	want := `i:1:"two" d:1:"lots" f:1:"half" b:1:"maybe" dt:1:"soon" ts:1:"later"`
	if strings.Join(got, " ") != want {
		t.Errorf("warnings = %v, want %s", got, want)
	}
	out, err := d.Run(ctx, decode(t, `{"select": [
		{"expr": {"kind": "column", "table": "t", "column": "i"}, "alias": "i"},
		{"expr": {"kind": "column", "table": "t", "column": "d"}, "alias": "d"},
		{"expr": {"kind": "column", "table": "t", "column": "f"}, "alias": "f"},
		{"expr": {"kind": "column", "table": "t", "column": "s"}, "alias": "s"},
		{"expr": {"kind": "column", "table": "t", "column": "b"}, "alias": "b"},
		{"expr": {"kind": "column", "table": "t", "column": "dt"}, "alias": "dt"},
		{"expr": {"kind": "column", "table": "t", "column": "ts"}, "alias": "ts"}],
		"from": [{"table": "sq_all", "alias": "t"}]}`), 10)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out.Rows)
	rows := string(b)
	wantRows := `[[1,18.81,0.5,"a",true,"2024-01-31","2024-01-31 08:00:00"],[2,123456789012.34,2,"7",false,"2024-02-01","2024-02-01 00:00:00"],[null,null,null,null,null,null,null]]`
	if rows != wantRows {
		t.Errorf("rows = %s\nwant   %s", rows, wantRows)
	}
	if fmt.Sprint(out.Types) != "[integer decimal float text boolean date timestamp]" {
		t.Errorf("types = %v", out.Types)
	}
}

// After the first Run the configuration is locked: no setting changes,
// no table loads, and no file or extension is reachable at any time.
func TestSealedAndClosedOff(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	if _, err := d.db.ExecContext(ctx, "SELECT * FROM read_csv('/etc/passwd')"); err == nil {
		t.Error("read_csv worked with external access disabled")
	}
	if _, err := d.Load(ctx, shape("t1", "x", tInt), [][]any{{int64(1)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Load(ctx, shape("T1", "x", tInt), nil); err == nil {
		t.Error("a second table named t1 (other case) loaded")
	}
	if _, err := d.Run(ctx, decode(t, `{"select": [{"expr": {"kind": "column", "table": "t", "column": "x"}, "alias": "x"}], "from": [{"table": "t1", "alias": "t"}]}`), 5); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"SET enable_external_access = true", "SET lock_configuration = false", "INSTALL httpfs", "ATTACH '/tmp/x.duckdb'"} {
		if _, err := d.db.ExecContext(ctx, stmt); err == nil {
			t.Errorf("%s worked on a sealed database", stmt)
		}
	}
	if _, err := d.Load(ctx, shape("t2", "x", tInt), nil); err == nil || !strings.Contains(err.Error(), "sealed") {
		t.Errorf("load after Run: %v", err)
	}
	if _, err := d.Run(ctx, decode(t, `{"select": [{"expr": {"kind": "column", "table": "t", "column": "y"}, "alias": "y"}], "from": [{"table": "t1", "alias": "t"}]}`), 5); err == nil {
		t.Error("a plan naming a missing column ran")
	} else if pe := (*planast.Error)(nil); !errors.As(err, &pe) {
		t.Errorf("a bad plan gave %T, want *planast.Error", err)
	}
}

func TestShapeChecks(t *testing.T) {
	d := openDB(t)
	for _, s := range []Shape{
		shape("bad name", "x", tInt), shape("t", "x", tInt, "X", tText), shape("t", "x", planast.TypeUnknown),
		shape("t", "x;--", tInt), {Name: "t"},
	} {
		if _, err := d.Load(context.Background(), s, nil); err == nil {
			t.Errorf("shape %+v loaded", s)
		}
	}
	if _, err := d.Load(context.Background(), shape("t", "x", tInt), [][]any{{int64(1), int64(2)}}); err == nil {
		t.Error("a row with too many values loaded")
	}
	if len(d.Catalog().Names()) != 0 {
		t.Errorf("a failed load left a table: %v", d.Catalog().Names())
	}
}

func TestRunTruncates(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	var rows [][]any
	for i := 5; i > 0; i-- {
		rows = append(rows, []any{int64(i)})
	}
	if _, err := d.Load(ctx, shape("n", "x", tInt), rows); err != nil {
		t.Fatal(err)
	}
	out, err := d.Run(ctx, decode(t, `{"select": [{"expr": {"kind": "column", "table": "t", "column": "x"}, "alias": "x"}], "from": [{"table": "n", "alias": "t"}]}`), 3)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out.Rows) != "[[1] [2] [3]]" || !out.Truncated {
		t.Errorf("rows %v truncated %v", out.Rows, out.Truncated)
	}
}

// Threat: a combination shows NULL where the database holds a value. An
// infinite timestamp (which the Appender refuses) and a numeric beyond
// DECIMAL(38,s) (as PostgreSQL stores) must come back as the same text,
// with the column types the inputs declared, with no warning; the
// timestamp column stays a TIMESTAMP that orders infinity last.
func TestLoadKeepsValuesDuckDBTypesCannotHold(t *testing.T) {
	ctx := context.Background()
	d := openDB(t)
	big := "18" + strings.Repeat("0", 60)
	warns, err := d.Load(ctx, shape("sq_x", "ts", tTS, "d", tDec), [][]any{
		{"-infinity", big},
		{"2024-01-31 08:00:00", "-12.5"},
		{"infinity", nil},
	})
	if err != nil || len(warns) != 0 {
		t.Fatalf("load: %v %v", warns, err)
	}
	out, err := d.Run(ctx, decode(t, `{"select": [
		{"expr": {"kind": "column", "table": "t", "column": "ts"}, "alias": "ts"},
		{"expr": {"kind": "column", "table": "t", "column": "d"}, "alias": "d"}],
		"from": [{"table": "sq_x", "alias": "t"}],
		"order_by": [{"expr": {"kind": "column", "table": "t", "column": "ts"}, "direction": "asc"}]}`), 10)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out.Rows)
	want := `[["-infinity","` + big + `"],["2024-01-31 08:00:00","-12.5"],["infinity",null]]`
	if string(b) != want {
		t.Errorf("rows = %s\nwant   %s", b, want)
	}
	if fmt.Sprint(out.Types) != "[timestamp decimal]" {
		t.Errorf("types = %v, want the declared [timestamp decimal]", out.Types)
	}
	var ty string
	if err := d.db.QueryRowContext(ctx, `SELECT typeof("ts") FROM "sq_x" LIMIT 1`).Scan(&ty); err != nil || ty != "TIMESTAMP" {
		t.Errorf("DuckDB holds ts as %q (%v), want TIMESTAMP", ty, err)
	}
}
