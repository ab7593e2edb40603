package sourcetest

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// FixtureScript is shared/hostile/schema_fixture.sql, which runs unchanged
// on all three engines.
func FixtureScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(SharedPath(t, "hostile/schema_fixture.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FixtureSnapshot is the snapshot of the fixture in an engine that stores
// it in schemaName and reports the script's declared types as decl does.
func FixtureSnapshot(dialect, schemaName string, decl map[string]string) *schema.Snapshot {
	col := func(name, scriptType string, typ planast.Type, nullable bool) schema.Column {
		return schema.Column{Name: name, DeclaredType: decl[scriptType], Type: typ, Nullable: nullable}
	}
	return &schema.Snapshot{Datasource: "test", Dialect: dialect, Tables: []schema.Table{
		{Schema: schemaName, Name: "Order Items", Kind: "table",
			Columns: []schema.Column{
				col("ItemID", "INTEGER", planast.TypeInteger, false),
				col("OrderSelect", "INTEGER", planast.TypeInteger, true),
				col("Qty", "INTEGER", planast.TypeInteger, true),
			},
			PrimaryKey:  []string{"ItemID"},
			ForeignKeys: []schema.ForeignKey{{Columns: []string{"OrderSelect"}, RefSchema: schemaName, RefTable: "order", RefColumns: []string{"select"}}},
		},
		{Schema: schemaName, Name: "n", Kind: "table",
			Columns: []schema.Column{
				col("id", "INTEGER", planast.TypeInteger, false),
				col("name", "TEXT", planast.TypeText, true),
				col("code", "TEXT", planast.TypeText, false),
				col("big", "BIGINT", planast.TypeInteger, true),
				col("amount", "NUMERIC(20,2)", planast.TypeDecimal, true),
				col("day", "DATE", planast.TypeDate, true),
			},
			PrimaryKey: []string{"id"},
		},
		{Schema: schemaName, Name: "order", Kind: "table",
			Columns: []schema.Column{
				col("select", "INTEGER", planast.TypeInteger, false),
				col("unit price", "NUMERIC(12,2)", planast.TypeDecimal, true),
				col("größe", "TEXT", planast.TypeText, true),
				col("客户", "TEXT", planast.TypeText, true),
				col("Group", "INTEGER", planast.TypeInteger, true),
				col(`a"b`, "TEXT", planast.TypeText, true),
			},
			PrimaryKey: []string{"select"},
		},
	}}
}

// CheckSnapshot compares two snapshots, reporting both as JSON.
func CheckSnapshot(t *testing.T, got, want *schema.Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("snapshot\n%s\nwant\n%s", g, w)
	}
}

// CheckFixtureSnapshot is CheckSnapshot for the fixture, whose table
// "order" must also be found as "ORDER".
func CheckFixtureSnapshot(t *testing.T, got, want *schema.Snapshot) {
	t.Helper()
	CheckSnapshot(t, got, want)
	if info, ok := got.LookupTable("", "ORDER"); !ok || info.Name != "order" {
		t.Errorf("LookupTable(ORDER) = %v, %v", info, ok)
	}
}

// Querier is what the value tests need of an adapter.
type Querier interface {
	Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error)
}

// ExactAmount is n.amount's 12345678901234567.89 as an engine that stores
// DECIMAL exactly (DuckDB, PostgreSQL) returns it.
const ExactAmount = `"12345678901234567.89"`

// CheckFixtureValues runs the fixture's value expectations; amount is the
// JSON the engine returns for n.amount's 12345678901234567.89 (ExactAmount
// where DECIMAL is stored exactly).
func CheckFixtureValues(t *testing.T, q Querier, amount string) {
	t.Helper()
	tests := []struct {
		sql, cols, rows string // cols and rows as JSON
	}{
		{`SELECT "select", "unit price", "größe", "客户", "Group", "a""b" FROM "order" ORDER BY "select"`,
			`["select","unit price","größe","客户","Group","a\"b"]`,
			`[[1,9.99,"klein","甲",1,"x"],[2,0.10,"groß","乙",2,"y"]]`},
		// NULL vs '' vs 'null'; leading zeros and "true" stay text; big
		// integers beyond 2^53 keep every digit; DECIMAL keeps its exact
		// value and its scale (0.10, -1.00) where the engine stores it so:
		// a number when a double carries it, else its digits (amount); DATE
		// is YYYY-MM-DD.
		{`SELECT id, name, code, big, amount, day FROM n ORDER BY id`,
			`["id","name","code","big","amount","day"]`,
			`[[1,null,"00123","9007199254740993",` + amount + `,"1974-03-01"],` +
				`[2,"","123","-9007199254740993",0.10,"2024-02-29"],` +
				`[3,"null","true",0,-1.00,"1999-12-31"]]`},
		{`SELECT oi."ItemID", o."客户" FROM "Order Items" AS oi JOIN "order" AS o ON o."select" = oi."OrderSelect" ORDER BY 1`,
			`["ItemID","客户"]`,
			`[[1,"甲"],[2,"甲"],[3,"乙"]]`},
	}
	for _, tt := range tests {
		res, err := q.Query(context.Background(), tt.sql, nil, 100)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		cols, _ := json.Marshal(res.Columns)
		rows, _ := json.Marshal(res.Rows)
		if string(cols) != tt.cols || string(rows) != tt.rows {
			t.Errorf("%s:\n got %s %s\nwant %s %s", tt.sql, cols, rows, tt.cols, tt.rows)
		}
	}
}

// CheckFixtureProfile checks the profile of the fixture in an engine that
// stores DECIMAL and DATE as such.
func CheckFixtureProfile(t *testing.T, snap *schema.Snapshot) {
	t.Helper()
	tests := []struct {
		table, column, want string
	}{
		{"order", "größe", `{"distinct_count":2,"null_fraction":0,"sample_values":["groß","klein"],"all_values":true}`},
		{"order", `a"b`, `{"distinct_count":2,"null_fraction":0,"sample_values":["x","y"],"all_values":true}`},
		{"order", "unit price", `{"distinct_count":2,"null_fraction":0,"min":0.10,"max":9.99,"sample_values":[0.10,9.99],"all_values":true}`},
		{"Order Items", "Qty", `{"distinct_count":3,"null_fraction":0,"min":3,"max":5,"sample_values":[3,4,5],"all_values":true}`},
		{"n", "big", `{"distinct_count":3,"null_fraction":0,"min":"-9007199254740993","max":"9007199254740993",` +
			`"sample_values":["-9007199254740993",0,"9007199254740993"],"all_values":true}`},
		{"n", "amount", `{"distinct_count":3,"null_fraction":0,"min":-1.00,"max":"12345678901234567.89",` +
			`"sample_values":[-1.00,0.10,"12345678901234567.89"],"all_values":true}`},
		{"n", "name", `{"distinct_count":2,"null_fraction":0.3333333333333333,"sample_values":["","null"],"all_values":true}`},
		{"n", "code", `{"distinct_count":3,"null_fraction":0,"sample_values":["00123","123","true"],"all_values":true,"cast_nulls":[{"to":"float","invalid":1,"invalid_example":"true"}]}`},
		{"n", "day", `{"distinct_count":3,"null_fraction":0,"min":"1974-03-01","max":"2024-02-29",` +
			`"sample_values":["1974-03-01","1999-12-31","2024-02-29"],"all_values":true}`},
	}
	for _, tt := range tests {
		if got := ProfileJSON(t, snap, tt.table, tt.column); got != tt.want {
			t.Errorf("%s.%s profile\n got %s\nwant %s", tt.table, tt.column, got, tt.want)
		}
	}
	for _, name := range []string{"order", "Order Items", "n"} {
		if tb, _ := snap.Lookup("", name); tb.RowCount == nil || *tb.RowCount != map[string]int64{"order": 2, "Order Items": 3, "n": 3}[name] {
			t.Errorf("%s row count %v", name, tb.RowCount)
		}
	}
}

// FixtureDB loads shared/hostile/schema_fixture.sql (one dialect-neutral
// script) into a temporary SQLite database.
func FixtureDB(t *testing.T) string {
	t.Helper()
	script, err := os.ReadFile(SharedPath(t, "hostile/schema_fixture.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return TempDB(t, string(script))
}

// Column is snap's column table.column (table in the default schema),
// failing the test when there is none.
func Column(t *testing.T, snap *schema.Snapshot, table, column string) *schema.Column {
	t.Helper()
	tb, ok := snap.Lookup("", table)
	if !ok {
		t.Fatalf("no table %s", table)
	}
	c, ok := tb.Column(column)
	if !ok {
		t.Fatalf("no column %s.%s", table, column)
	}
	return c
}

func ProfileJSON(t *testing.T, snap *schema.Snapshot, table, column string) string {
	t.Helper()
	c := Column(t, snap, table, column)
	b, err := json.Marshal(c.Profile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writes are statements that change a database file; every read-only layer
// must refuse each of them on its own.
var Writes = []string{
	"CREATE TABLE x (a INTEGER)",
	"INSERT INTO t VALUES (3)",
	"DELETE FROM t",
	"DROP TABLE t",
}

// ProfileFixture is 100 rows: a unique id, a code of 4 values stored in
// runs (the first 10 rows all 'a'), a number that grows with id, and a
// column NULL every other row.
var ProfileFixture = []string{
	"CREATE TABLE f (id INTEGER PRIMARY KEY, code TEXT, amount INTEGER, maybe INTEGER)",
	`WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100)
	 INSERT INTO f SELECT i, char(97 + (i - 1) / 25), i * 10, CASE WHEN i % 2 = 0 THEN i END FROM r`,
}

// DataSource is what the copy and measure tests need of an adapter.
type DataSource interface {
	Querier
	Snapshot(ctx context.Context) (*schema.Snapshot, error)
	Close() error
}
