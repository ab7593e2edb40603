package source

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// fixtureScript is shared/hostile/schema_fixture.sql, which runs unchanged
// on all three engines.
func fixtureScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(sharedPath(t, "hostile/schema_fixture.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fixtureSnapshot is the snapshot of the fixture in an engine that stores
// it in schemaName and reports the script's declared types as decl does.
func fixtureSnapshot(dialect, schemaName string, decl map[string]string) *schema.Snapshot {
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

// checkSnapshot compares two snapshots, reporting both as JSON.
func checkSnapshot(t *testing.T, got, want *schema.Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("snapshot\n%s\nwant\n%s", g, w)
	}
}

// querier is what the value tests need of an adapter.
type querier interface {
	Query(ctx context.Context, sql string, args []any, maxRows int) (*Result, error)
}

// checkFixtureValues runs the fixture's value expectations for an engine
// that stores DECIMAL exactly (DuckDB, PostgreSQL).
func checkFixtureValues(t *testing.T, q querier) {
	t.Helper()
	tests := []struct {
		sql, cols, rows string // cols and rows as JSON
	}{
		{`SELECT "select", "unit price", "größe", "客户", "Group", "a""b" FROM "order" ORDER BY "select"`,
			`["select","unit price","größe","客户","Group","a\"b"]`,
			`[[1,9.99,"klein","甲",1,"x"],[2,0.1,"groß","乙",2,"y"]]`},
		// NULL vs '' vs 'null'; leading zeros and "true" stay text; big
		// integers beyond 2^53 keep every digit; DECIMAL keeps its exact
		// value: a number when a double carries it, else its digits; DATE
		// is YYYY-MM-DD.
		{`SELECT id, name, code, big, amount, day FROM n ORDER BY id`,
			`["id","name","code","big","amount","day"]`,
			`[[1,null,"00123","9007199254740993","12345678901234567.89","1974-03-01"],` +
				`[2,"","123","-9007199254740993",0.1,"2024-02-29"],` +
				`[3,"null","true",0,-1,"1999-12-31"]]`},
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

// checkFixtureProfile checks the profile of the fixture in an engine that
// stores DECIMAL and DATE as such.
func checkFixtureProfile(t *testing.T, snap *schema.Snapshot) {
	t.Helper()
	tests := []struct {
		table, column, want string
	}{
		{"order", "größe", `{"distinct_count":2,"null_fraction":0,"sample_values":["groß","klein"],"all_values":true}`},
		{"order", `a"b`, `{"distinct_count":2,"null_fraction":0,"sample_values":["x","y"],"all_values":true}`},
		{"order", "unit price", `{"distinct_count":2,"null_fraction":0,"min":0.1,"max":9.99,"sample_values":[0.1,9.99],"all_values":true}`},
		{"Order Items", "Qty", `{"distinct_count":3,"null_fraction":0,"min":3,"max":5,"sample_values":[3,4,5],"all_values":true}`},
		{"n", "big", `{"distinct_count":3,"null_fraction":0,"min":"-9007199254740993","max":"9007199254740993",` +
			`"sample_values":["-9007199254740993",0,"9007199254740993"],"all_values":true}`},
		{"n", "amount", `{"distinct_count":3,"null_fraction":0,"min":-1,"max":"12345678901234567.89",` +
			`"sample_values":[-1,0.1,"12345678901234567.89"],"all_values":true}`},
		{"n", "name", `{"distinct_count":2,"null_fraction":0.3333333333333333,"sample_values":["","null"],"all_values":true}`},
		{"n", "code", `{"distinct_count":3,"null_fraction":0,"sample_values":["00123","123","true"],"all_values":true}`},
		{"n", "day", `{"distinct_count":3,"null_fraction":0,"min":"1974-03-01","max":"2024-02-29",` +
			`"sample_values":["1974-03-01","1999-12-31","2024-02-29"],"all_values":true}`},
	}
	for _, tt := range tests {
		if got := profileJSON(t, snap, tt.table, tt.column); got != tt.want {
			t.Errorf("%s.%s profile\n got %s\nwant %s", tt.table, tt.column, got, tt.want)
		}
	}
	for _, name := range []string{"order", "Order Items", "n"} {
		if tb, _ := snap.Lookup("", name); tb.RowCount == nil || *tb.RowCount != map[string]int64{"order": 2, "Order Items": 3, "n": 3}[name] {
			t.Errorf("%s row count %v", name, tb.RowCount)
		}
	}
}

var duckdbFixtureTypes = map[string]string{
	"INTEGER": "INTEGER", "TEXT": "VARCHAR", "BIGINT": "BIGINT",
	"NUMERIC(12,2)": "DECIMAL(12,2)", "NUMERIC(20,2)": "DECIMAL(20,2)", "DATE": "DATE",
}

// duckFixtureDB loads the fixture script, unchanged, into a DuckDB file.
func duckFixtureDB(t *testing.T) string {
	t.Helper()
	return duckTempDB(t, fixtureScript(t))
}

func TestDuckDBSnapshotFixture(t *testing.T) {
	d := openDuckTest(t, duckFixtureDB(t), Options{})
	snap, err := d.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkSnapshot(t, snap, fixtureSnapshot("duckdb", "main", duckdbFixtureTypes))
	if info, ok := snap.LookupTable("", "ORDER"); !ok || info.Name != "order" {
		t.Errorf("LookupTable(ORDER) = %v, %v", info, ok)
	}
}

func TestDuckDBFixtureValues(t *testing.T) {
	checkFixtureValues(t, openDuckTest(t, duckFixtureDB(t), Options{}))
}

func TestDuckDBProfileFixture(t *testing.T) {
	d := openDuckTest(t, duckFixtureDB(t), Options{})
	snap, err := d.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Profile(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	checkFixtureProfile(t, snap)
}

func TestDuckDBSnapshotShapes(t *testing.T) {
	p := duckTempDB(t,
		`CREATE SCHEMA sales`,
		`CREATE TABLE parent (a INTEGER, b VARCHAR, c TEXT, PRIMARY KEY (b, a))`,
		`CREATE TABLE child (x INTEGER, y VARCHAR, z DOUBLE, FOREIGN KEY (y, x) REFERENCES parent (b, a))`,
		`CREATE TABLE sales."Mixed Case" (id BIGINT PRIMARY KEY, tags VARCHAR[], s STRUCT(k INTEGER), ts TIMESTAMPTZ NOT NULL)`,
		`CREATE VIEW v AS SELECT a, upper(b) AS ub FROM parent`,
		`COMMENT ON TABLE parent IS 'the parents'`,
		`COMMENT ON COLUMN parent.c IS 'free text'`,
		`COMMENT ON VIEW v IS 'a view'`,
		`CREATE SEQUENCE seq`,
		`CREATE MACRO twice(x) AS x * 2`,
	)
	d := openDuckTest(t, p, Options{})
	snap, err := d.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range snap.Tables {
		names = append(names, tb.Kind+":"+tb.Schema+"."+tb.Name)
	}
	wantNames := []string{"table:main.child", "table:main.parent", "view:main.v", "table:sales.Mixed Case"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("tables %v, want %v", names, wantNames)
	}
	parent, _ := snap.Lookup("main", "parent")
	if !reflect.DeepEqual(parent.PrimaryKey, []string{"b", "a"}) || parent.Comment != "the parents" {
		t.Errorf("parent %+v", parent)
	}
	if c, _ := parent.Column("c"); c.Comment != "free text" || c.Type != planast.TypeText {
		t.Errorf("parent.c %+v", c)
	}
	child, _ := snap.Lookup("main", "child")
	wantFK := []schema.ForeignKey{{Columns: []string{"y", "x"}, RefSchema: "main", RefTable: "parent", RefColumns: []string{"b", "a"}}}
	if !reflect.DeepEqual(child.ForeignKeys, wantFK) || len(parent.ForeignKeys) != 0 {
		t.Errorf("child foreign keys %+v, parent %+v", child.ForeignKeys, parent.ForeignKeys)
	}
	mc, _ := snap.Lookup("sales", "mixed case")
	var types []string
	for _, c := range mc.Columns {
		types = append(types, c.Name+" "+c.DeclaredType+" "+string(c.Type)+" "+map[bool]string{true: "null", false: "notnull"}[c.Nullable])
	}
	wantTypes := []string{"id BIGINT integer notnull", `tags VARCHAR[] unknown null`, `s STRUCT(k INTEGER) unknown null`, "ts TIMESTAMP WITH TIME ZONE timestamp notnull"}
	if strings.Join(types, "|") != strings.Join(wantTypes, "|") {
		t.Errorf("columns\n%v\nwant\n%v", types, wantTypes)
	}
	v, _ := snap.Lookup("", "v")
	if len(v.Columns) != 2 || v.Columns[1].Name != "ub" || v.Comment != "a view" {
		t.Errorf("view v %+v", v)
	}
}

// TestDuckDBProfileCache: profiling the same file again reads nothing.
func TestDuckDBProfileCache(t *testing.T) {
	d := openDuckTest(t, duckFixtureDB(t), Options{})
	ctx := context.Background()
	first, err := d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Profile(ctx, first); err != nil {
		t.Fatal(err)
	}
	again, err := d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d.db.Close() // any query now fails
	if err := d.Profile(ctx, again); err != nil {
		t.Fatalf("the second profile queried the database: %v", err)
	}
	if again.Fingerprint() != first.Fingerprint() {
		t.Error("the cached profile differs")
	}
	// The cache hands out copies.
	again.Tables[0].Columns[0].Profile.SampleValues[0] = "changed"
	third, _ := json.Marshal(first.Tables[0].Columns[0].Profile)
	if strings.Contains(string(third), "changed") {
		t.Error("profiles share sample slices")
	}
}
