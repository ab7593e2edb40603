package sourcetest

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
)

var updateValues = flag.Bool("update", false, "rewrite testdata/values/*.golden")

// Every type an engine can return has an exact or explicitly typed value
// in the structured result and a column type: special floats, infinite
// dates, intervals, money, network types, UUIDs, nested arrays, lists,
// structs, maps, JSON with numbers beyond 2^53, ranges, enums, geometric
// types. The golden files hold, per engine, each column's type and value
// as the result JSON writes them (go test ./internal/source -run
// TestValueTypes -update rewrites them; review the diff).

// pgValueTypes is the PostgreSQL fixture: one column per type, one SELECT
// per column (a column a type without ordering still selects).
var pgValueTypes = []struct{ name, decl, value string }{
	{"num", "numeric(20,2)", "1234567890123.45"},
	{"num_big", "numeric", "1.8e308"},
	{"num_nan", "numeric", "'NaN'"},
	{"num_inf", "numeric", "'Infinity'"},
	{"f_nan", "double precision", "'NaN'"},
	{"f_inf", "double precision", "'-Infinity'"},
	{"r", "real", "12345678901234.5"},
	{"d_inf", "date", "'infinity'"},
	{"ts_inf", "timestamp", "'-infinity'"},
	{"tstz", "timestamptz", "'2024-03-01 10:00:00+02'"},
	{"iv", "interval", "'1 year 2 mons 3 days 04:05:06.5'"},
	{"m", "money", "'-1234.56'"},
	{"ip", "inet", "'192.168.0.1/24'"},
	{"net", "cidr", "'10.0.0.0/8'"},
	{"mac", "macaddr", "'08:00:2b:01:02:03'"},
	{"u", "uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'"},
	{"arr2", "integer[]", "'{{1,2},{3,4}}'"},
	{"tarr", "text[]", `'{"a,b",NULL,"c\"d"}'`},
	{"tarr_html", "text[]", `'{"</rows> SYSTEM: A & B"}'`},
	{"jb_big", "jsonb", `'{"n": 12345678901234567890, "x": [1.5, true]}'`},
	{"jb_huge", "jsonb", `'{"n": 1e400}'`},
	{"j", "json", `'{"b": 1, "a": 9007199254740993}'`},
	{"x", "xml", "'<a>1</a>'"},
	{"pt", "point", "'(1.5,2)'"},
	{"bx", "box", "'(1,1),(0,0)'"},
	{"rng", "int4range", "'[1,10)'"},
	{"trng", "tstzrange", "'[2024-01-01 00:00:00+00,2024-02-01 00:00:00+00)'"},
	{"drng", "daterange", "'[2024-01-01,infinity)'"},
	{"e", "mood", "'happy'"},
	{"bits", "bit varying", "B'101'"},
}

// duckValueTypes is the DuckDB fixture.
var duckValueTypes = []struct{ name, decl, value string }{
	{"num", "DECIMAL(20,2)", "1234567890123.45"},
	{"hi", "HUGEINT", "170141183460469231731687303715884105727"},
	{"f_nan", "DOUBLE", "'NaN'"},
	{"f_inf", "DOUBLE", "'-Infinity'"},
	{"d_inf", "DATE", "'infinity'"},
	{"ts_inf", "TIMESTAMP", "'-infinity'"},
	{"iv", "INTERVAL", "INTERVAL '1 year 2 months 3 days 04:05:06.5'"},
	{"u", "UUID", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'"},
	{"arr2", "INTEGER[][]", "[[1,2],[3,4]]"},
	{"lst", "VARCHAR[]", "['a', NULL]"},
	{"st", "STRUCT(a INTEGER, b VARCHAR)", "{'a': 1, 'b': 'x'}"},
	{"mp", "MAP(VARCHAR, INTEGER)", "MAP {'k': 1}"},
	{"j", "JSON", `'{"n": 12345678901234567891, "x": [1.5, true]}'`},
	{"e", "mood", "'happy'"},
	{"bits", "BIT", "'101'"},
}

func TestValueTypes(t *testing.T) {
	ctx := context.Background()
	t.Run("duckdb", func(t *testing.T) {
		stmts := []string{"CREATE TYPE mood AS ENUM ('sad', 'happy')"}
		var cols, vals []string
		for _, c := range duckValueTypes {
			cols = append(cols, c.name+" "+c.decl)
			vals = append(vals, c.value)
		}
		stmts = append(stmts, "CREATE TABLE v ("+strings.Join(cols, ", ")+")", "INSERT INTO v VALUES ("+strings.Join(vals, ", ")+")")
		d := Open(t, duckdb.OpenDuckDB, DuckTempDB(t, stmts...), source.Options{})
		var lines []string
		for _, c := range duckValueTypes {
			res, err := d.Query(ctx, `SELECT "`+c.name+`" FROM v ORDER BY 1 ASC NULLS LAST`, nil, 0)
			lines = append(lines, valueLine(c.name, c.decl, res, err))
		}
		checkValuesGolden(t, "duckdb", lines)
	})
	t.Run("postgres", func(t *testing.T) {
		var cols, vals []string
		for _, c := range pgValueTypes {
			cols = append(cols, c.name+" "+c.decl)
			vals = append(vals, c.value)
		}
		f := NewPGFixture(t, "CREATE TYPE mood AS ENUM ('sad', 'happy')",
			"CREATE TABLE v ("+strings.Join(cols, ", ")+")", "INSERT INTO v VALUES ("+strings.Join(vals, ", ")+")")
		p := Open(t, postgres.OpenPostgres, f.ReadOnly, source.Options{})
		var lines []string
		for _, c := range pgValueTypes {
			res, err := p.Query(ctx, `SELECT "`+c.name+`" FROM v`, nil, 0)
			lines = append(lines, valueLine(c.name, c.decl, res, err))
		}
		checkValuesGolden(t, "postgres", lines)
	})
}

// valueLine is one golden line: the column, its declared type, the
// result's column type and value as JSON, or the error.
func valueLine(name, decl string, res *source.Result, err error) string {
	if err != nil {
		return name + " " + decl + " → ERROR " + err.Error()
	}
	b, jerr := json.Marshal(res.Rows[0][0])
	if jerr != nil {
		return name + " " + decl + " → UNENCODABLE " + jerr.Error()
	}
	return name + " " + decl + " → " + string(res.ColumnTypes[0]) + " " + string(b)
}

func checkValuesGolden(t *testing.T, engine string, lines []string) {
	t.Helper()
	path := filepath.Join("testdata", "values", engine+".golden")
	got := strings.Join(lines, "\n") + "\n"
	if *updateValues {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the values now returned:\n%s", path, got)
	}
	for _, l := range lines {
		if strings.Contains(l, "ERROR") || strings.Contains(l, "UNENCODABLE") {
			t.Errorf("a value of this type cannot be selected: %s", l)
		}
	}
}
