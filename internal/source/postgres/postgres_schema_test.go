package postgres

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

var pgFixtureTypes = map[string]string{
	"INTEGER": "integer", "TEXT": "text", "BIGINT": "bigint",
	"NUMERIC(12,2)": "numeric(12,2)", "NUMERIC(20,2)": "numeric(20,2)", "DATE": "date",
}

func TestPostgresSnapshotFixture(t *testing.T) {
	f := sourcetest.NewPGFixture(t, sourcetest.PGFixtureScript(t))
	p := openPGTest(t, f.ReadOnly, source.Options{})
	snap := sourcetest.Snapshot(t, p)
	want := sourcetest.FixtureSnapshot("postgres", "public", pgFixtureTypes)
	caseTable := schema.Table{Schema: "public", Name: "Case", Kind: "table", Columns: []schema.Column{
		{Name: "Group", DeclaredType: "integer", Type: planast.TypeInteger, Nullable: true},
		{Name: "group", DeclaredType: "integer", Type: planast.TypeInteger, Nullable: true},
	}}
	want.Tables = append([]schema.Table{caseTable}, want.Tables...)
	want.Role = f.Role // what to grant names it
	sourcetest.CheckFixtureSnapshot(t, snap, want)
	c, _ := snap.LookupTable("public", "Case")
	if col, ok := c.Column("group"); !ok || col.Name != "group" {
		t.Errorf("Column(group) = %+v, %v", col, ok)
	}
	if col, ok := c.Column("Group"); !ok || col.Name != "Group" {
		t.Errorf("Column(Group) = %+v, %v", col, ok)
	}
}

func TestPostgresFixtureValues(t *testing.T) {
	f := sourcetest.NewPGFixture(t, sourcetest.PGFixtureScript(t))
	p := openPGTest(t, f.ReadOnly, source.Options{})
	sourcetest.CheckFixtureValues(t, p, sourcetest.ExactAmount)
	// "Group" and "group" stay distinct.
	res, err := p.Query(context.Background(), `SELECT "Group", "group" FROM "Case"`, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res); string(got) != `{"columns":["Group","group"],"column_types":["integer","integer"],"rows":[[1,10]],"truncated":false}` {
		t.Errorf("Case: %s", got)
	}
}

func TestPostgresProfileFixture(t *testing.T) {
	f := sourcetest.NewPGFixture(t, sourcetest.PGFixtureScript(t))
	p := openPGTest(t, f.ReadOnly, source.Options{})
	snap := sourcetest.Profiled(t, p)
	sourcetest.CheckFixtureProfile(t, snap)
	if got := sourcetest.ProfileJSON(t, snap, "Case", "group"); got != `{"distinct_count":1,"null_fraction":0,"min":10,"max":10,"sample_values":[10],"all_values":true}` {
		t.Errorf("Case.group profile %s", got)
	}
}

func TestPostgresSnapshotShapes(t *testing.T) {
	f := sourcetest.NewPGFixture(t,
		`CREATE SCHEMA sales`,
		`CREATE TYPE mood AS ENUM ('sad', 'happy')`,
		`CREATE DOMAIN money2 AS numeric(10,2)`,
		`CREATE TABLE parent (a integer, b varchar(10), c text, PRIMARY KEY (b, a))`,
		`CREATE TABLE child (x integer, y varchar(10), z double precision, m mood, d money2 NOT NULL, tags text[], j jsonb,
			FOREIGN KEY (y, x) REFERENCES parent (b, a))`,
		`CREATE TABLE sales."Mixed Case" (id bigserial PRIMARY KEY, ts timestamp(3) with time zone NOT NULL,
			parent_b varchar(10), parent_a integer, FOREIGN KEY (parent_b, parent_a) REFERENCES public.parent)`,
		`CREATE VIEW v AS SELECT a, upper(b) AS ub FROM parent`,
		`CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM parent`,
		`CREATE TABLE measures (id integer, at date) PARTITION BY RANGE (at)`,
		`CREATE TABLE measures_2024 PARTITION OF measures FOR VALUES FROM ('2024-01-01') TO ('2025-01-01')`,
		`COMMENT ON TABLE parent IS 'the parents'`,
		`COMMENT ON COLUMN parent.c IS 'free text'`,
		`COMMENT ON VIEW v IS 'a view'`,
		`CREATE SCHEMA hidden`, // no USAGE granted below, after the fixture's grants
		`CREATE TABLE hidden.secret (a integer)`,
	)
	sourcetest.PGExec(t, f.Super, "REVOKE USAGE ON SCHEMA hidden FROM "+f.Role, `CREATE TABLE public.nogrant (a integer)`)
	p := openPGTest(t, f.ReadOnly, source.Options{})
	snap := sourcetest.Snapshot(t, p)
	var names []string
	for _, tb := range snap.Tables {
		names = append(names, tb.Kind+":"+tb.Schema+"."+tb.Name)
	}
	wantNames := []string{"table:public.child", "table:public.measures", "view:public.mv", "table:public.parent", "view:public.v", "table:sales.Mixed Case"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("tables %v, want %v", names, wantNames)
	}
	parent, _ := snap.Lookup("public", "parent")
	if !reflect.DeepEqual(parent.PrimaryKey, []string{"b", "a"}) || parent.Comment != "the parents" {
		t.Errorf("parent %+v", parent)
	}
	if c, _ := parent.Column("c"); c.Comment != "free text" {
		t.Errorf("parent.c %+v", c)
	}
	child, _ := snap.Lookup("public", "child")
	wantFK := []schema.ForeignKey{{Columns: []string{"y", "x"}, RefSchema: "public", RefTable: "parent", RefColumns: []string{"b", "a"}}}
	if !reflect.DeepEqual(child.ForeignKeys, wantFK) {
		t.Errorf("child foreign keys %+v", child.ForeignKeys)
	}
	var types []string
	for _, c := range child.Columns {
		types = append(types, c.Name+" "+c.DeclaredType+" "+string(c.Type)+" "+map[bool]string{true: "null", false: "notnull"}[c.Nullable])
	}
	wantTypes := []string{"x integer integer null", "y character varying(10) text null", "z double precision float null",
		"m mood text null", "d money2 decimal notnull", "tags text[] array null", "j jsonb json null"}
	if strings.Join(types, "|") != strings.Join(wantTypes, "|") {
		t.Errorf("columns\n%v\nwant\n%v", types, wantTypes)
	}
	mc, _ := snap.Lookup("sales", "Mixed Case")
	wantFK = []schema.ForeignKey{{Columns: []string{"parent_b", "parent_a"}, RefSchema: "public", RefTable: "parent", RefColumns: []string{"b", "a"}}}
	if !reflect.DeepEqual(mc.ForeignKeys, wantFK) || !reflect.DeepEqual(mc.PrimaryKey, []string{"id"}) {
		t.Errorf("Mixed Case keys %+v %+v", mc.PrimaryKey, mc.ForeignKeys)
	}
	if c, _ := mc.Column("ts"); c.DeclaredType != "timestamp(3) with time zone" || c.Type != planast.TypeTimestamp || c.Nullable {
		t.Errorf("ts %+v", c)
	}
	v, _ := snap.Lookup("", "v")
	if len(v.Columns) != 2 || v.Columns[1].Name != "ub" || v.Columns[1].Type != planast.TypeText || v.Comment != "a view" {
		t.Errorf("view v %+v", v)
	}
}

// TestPostgresProfileCache: profiling an unchanged database again gives
// the same profile; a committed write is seen by the next profile.
func TestPostgresProfileCache(t *testing.T) {
	f := sourcetest.NewPGFixture(t, sourcetest.PGFixtureScript(t))
	p := openPGTest(t, f.ReadOnly, source.Options{})
	ctx := context.Background()
	profile := func() *schema.Snapshot {
		t.Helper()
		snap, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Profile(ctx, snap); err != nil {
			t.Fatal(err)
		}
		return snap
	}
	first := profile()
	if again := profile(); again.Fingerprint() != first.Fingerprint() {
		t.Error("the second profile differs")
	}
	sourcetest.PGExec(t, f.Super, `INSERT INTO "order" VALUES (3, 1.00, 'mittel', '丙', 3, 'z')`)
	after := profile()
	if tb, _ := after.Lookup("public", "order"); *tb.RowCount != 3 {
		t.Errorf("order row count %d after an insert", *tb.RowCount)
	}
	if got := sourcetest.ProfileJSON(t, after, "order", "größe"); got != `{"distinct_count":3,"null_fraction":0,"sample_values":["groß","klein","mittel"],"all_values":true}` {
		t.Errorf("größe after an insert: %s", got)
	}
}

// A money column is marked in the catalog the validator reads, so that the
// renderer reads it as numeric (render: TestMoneyComputesAsNumeric): ABS,
// ROUND, AVG and comparisons with numbers fail on money itself. A numeric
// column, even under a domain named like money, is not marked.
func TestPostgresMoneyColumnsAreMarked(t *testing.T) {
	f := sourcetest.NewPGFixture(t,
		`CREATE DOMAIN money2 AS numeric(10,2)`,
		`CREATE TABLE pay (id integer, amount money, price numeric(10,2), d money2)`,
		`INSERT INTO pay VALUES (1, 1234.56, 1234.56, 1234.56)`,
	)
	p := openPGTest(t, f.ReadOnly, source.Options{})
	snap, err := p.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	info, ok := snap.LookupTable("public", "pay")
	if !ok {
		t.Fatal("no table pay")
	}
	want := map[string]bool{"id": false, "amount": true, "price": false, "d": false}
	for _, c := range info.Columns {
		if c.Money != want[c.Name] {
			t.Errorf("%s: Money %v, want %v", c.Name, c.Money, want[c.Name])
		}
	}
	// what the renderer writes for ABS(amount) runs and is exact
	res, err := p.Query(context.Background(), `SELECT ABS(CAST("amount" AS NUMERIC)) AS "a" FROM "pay"`, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.Rows); string(got) != `[["1234.56"]]` && string(got) != `[[1234.56]]` {
		t.Errorf("ABS(amount) = %s", got)
	}
}

// The threat: a text[] column's samples were the engine's text
// ('{"a,b","c\"d"}', '{hot,milk}') where results show the array as JSON
// (["a,b","c\"d"]): a host that copied a sample into a literal or a
// comparison wrote a form no result uses. Samples of arrays and JSON
// documents are written as results write them.
func TestPostgresNestedSamplesAsResultsWriteThem(t *testing.T) {
	f := sourcetest.NewPGFixture(t, `CREATE TABLE o (id int, tags text[], doc jsonb)`,
		`INSERT INTO o VALUES (1, ARRAY['a,b', 'c"d'], '{"b": 1, "a": [2]}'), (2, ARRAY['hot', 'milk'], '{"k": 12345678901234567890}')`)
	p := openPGTest(t, f.ReadOnly, source.Options{})
	snap := sourcetest.Profiled(t, p)
	res, err := p.Query(context.Background(), `SELECT tags, doc FROM o ORDER BY id`, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"tags", "doc"} {
		c, _ := snap.Tables[0].Column(name)
		for _, row := range res.Rows {
			if !slices.Contains(c.Profile.SampleValues, row[i]) {
				t.Errorf("%s: samples %q lack the result's %q", name, c.Profile.SampleValues, row[i])
			}
		}
	}
}
