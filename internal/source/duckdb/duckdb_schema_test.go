package duckdb

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

var duckdbFixtureTypes = map[string]string{
	"INTEGER": "INTEGER", "TEXT": "VARCHAR", "BIGINT": "BIGINT",
	"NUMERIC(12,2)": "DECIMAL(12,2)", "NUMERIC(20,2)": "DECIMAL(20,2)", "DATE": "DATE",
}

// duckFixtureDB loads the fixture script, unchanged, into a DuckDB file.
func duckFixtureDB(t *testing.T) string {
	t.Helper()
	return sourcetest.DuckTempDB(t, sourcetest.FixtureScript(t))
}

func TestDuckDBSnapshotFixture(t *testing.T) {
	d := openDuckTest(t, duckFixtureDB(t), source.Options{})
	snap := sourcetest.Snapshot(t, d)
	sourcetest.CheckFixtureSnapshot(t, snap, sourcetest.FixtureSnapshot("duckdb", "main", duckdbFixtureTypes))
}

func TestDuckDBFixtureValues(t *testing.T) {
	sourcetest.CheckFixtureValues(t, openDuckTest(t, duckFixtureDB(t), source.Options{}), sourcetest.ExactAmount)
}

func TestDuckDBProfileFixture(t *testing.T) {
	d := openDuckTest(t, duckFixtureDB(t), source.Options{})
	snap := sourcetest.Profiled(t, d)
	sourcetest.CheckFixtureProfile(t, snap)
}

func TestDuckDBSnapshotShapes(t *testing.T) {
	p := sourcetest.DuckTempDB(t,
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
	d := openDuckTest(t, p, source.Options{})
	snap := sourcetest.Snapshot(t, d)
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
	wantTypes := []string{"id BIGINT integer notnull", `tags VARCHAR[] array null`, `s STRUCT(k INTEGER) json null`, "ts TIMESTAMP WITH TIME ZONE timestamp notnull"}
	if strings.Join(types, "|") != strings.Join(wantTypes, "|") {
		t.Errorf("columns\n%v\nwant\n%v", types, wantTypes)
	}
	v, _ := snap.Lookup("", "v")
	if len(v.Columns) != 2 || v.Columns[1].Name != "ub" || v.Columns[1].Type != planast.TypeText || v.Comment != "a view" {
		t.Errorf("view v %+v", v)
	}
}

// TestDuckDBProfileCache: profiling the same file again reads nothing.
func TestDuckDBProfileCache(t *testing.T) {
	d := openDuckTest(t, duckFixtureDB(t), source.Options{})
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

// The threat: a list or map column's samples were DuckDB's text ("[a,
// 'b\"c']", "{k=1}") where results write JSON (["a","b\"c"], {"k":1}): a
// host that copied a sample wrote a form no result uses. Samples of
// nested columns are written as results write them.
func TestDuckDBNestedSamplesAsResultsWriteThem(t *testing.T) {
	d := openDuckTest(t, sourcetest.DuckTempDB(t, `CREATE TABLE o (id INTEGER, tags VARCHAR[], m MAP(VARCHAR, INTEGER))`,
		`INSERT INTO o VALUES (1, ['a', 'b"c'], MAP {'k': 1}), (2, [], MAP {})`), source.Options{})
	snap := sourcetest.Profiled(t, d)
	res, err := d.Query(context.Background(), `SELECT tags, m FROM o ORDER BY id`, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"tags", "m"} {
		c, _ := snap.Tables[0].Column(name)
		for _, row := range res.Rows {
			found := false
			for _, s := range c.Profile.SampleValues {
				found = found || reflect.DeepEqual(s, row[i])
			}
			if !found {
				t.Errorf("%s: samples %q lack the result's %q", name, c.Profile.SampleValues, row[i])
			}
		}
	}
}
