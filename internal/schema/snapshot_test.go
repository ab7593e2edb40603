package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

func testSnapshot() *Snapshot {
	n := int64(3)
	return &Snapshot{
		Datasource: "shop",
		Dialect:    DialectPostgres,
		Tables: []Table{
			{Schema: "public", Name: "Case", Kind: KindTable, Columns: []Column{
				{Name: "Group", Type: planast.TypeInteger, Nullable: true},
				{Name: "group", Type: planast.TypeInteger, Nullable: true},
			}},
			{Schema: "public", Name: "order", Kind: KindTable, RowCount: &n,
				Columns:    []Column{{Name: "select", DeclaredType: "integer", Type: planast.TypeInteger}},
				PrimaryKey: []string{"select"}},
			{Schema: "public", Name: "users", Kind: KindTable, Columns: []Column{{Name: "id", Type: planast.TypeInteger}}},
			{Schema: "sales", Name: "order", Kind: KindTable, Columns: []Column{{Name: "id", Type: planast.TypeInteger}},
				ForeignKeys: []ForeignKey{{Columns: []string{"id"}, RefSchema: "public", RefTable: "order", RefColumns: []string{"select"}}}},
			{Schema: "sales", Name: "Users", Kind: KindView, Columns: []Column{{Name: "id", Type: planast.TypeInteger}}},
			{Schema: "sales", Name: "CASE", Kind: KindTable},
			{Schema: "hr", Name: "staff", Kind: KindTable},
			{Schema: "sales", Name: "staff", Kind: KindTable},
		},
	}
}

func TestLookup(t *testing.T) {
	s := testSnapshot()
	tests := []struct {
		schema, name string
		want         string // "schema.name" or "" for no match
	}{
		{"public", "order", "public.order"},
		{"sales", "order", "sales.order"},
		{"", "order", "public.order"}, // two schemas: the default one, as search_path reads it
		{"", "users", "public.users"}, // exact beats the case-insensitive sales.Users
		{"", "Users", "sales.Users"},  // exact
		{"", "USERS", "public.users"}, // two case-insensitive matches: the default schema's
		{"PUBLIC", "ORDER", "public.order"},
		{"public", "Case", "public.Case"},
		{"", "case", "public.Case"}, // public.Case and sales.CASE
		{"sales", "case", "sales.CASE"},
		{"", "staff", ""},                  // two schemas, neither the default: ambiguous
		{"", "sales.staff", "sales.staff"}, // as PlanName writes it
		{"", "SALES.Order", "sales.order"}, // case-insensitively too
		{"sales", "sales.staff", ""},       // a schema given: the name is the name
		{"", "nope.staff", ""},
		{"public", "nope", ""},
		{"nope", "order", ""},
	}
	for _, tt := range tests {
		tb, ok := s.Lookup(tt.schema, tt.name)
		got := ""
		if ok {
			got = tb.Schema + "." + tb.Name
		}
		if got != tt.want {
			t.Errorf("Lookup(%q, %q) = %q, want %q", tt.schema, tt.name, got, tt.want)
		}
	}
	var nilSnap *Snapshot
	if _, ok := nilSnap.Lookup("", "x"); ok {
		t.Error("nil snapshot found a table")
	}
}

func TestLookupTableInfo(t *testing.T) {
	s := testSnapshot()
	var cat planast.Catalog = s
	info, ok := cat.LookupTable("sales", "order")
	if !ok {
		t.Fatal("sales.order not found")
	}
	want := &planast.TableInfo{
		Schema: "sales", Name: "order",
		Columns:     []planast.ColumnInfo{{Name: "id", Type: planast.TypeInteger}},
		ForeignKeys: []planast.ForeignKeyInfo{{Columns: []string{"id"}, RefSchema: "public", RefTable: "order", RefColumns: []string{"select"}}},
	}
	if !reflect.DeepEqual(info, want) {
		t.Errorf("LookupTable = %+v, want %+v", info, want)
	}
	// The copy is independent of the snapshot.
	info.ForeignKeys[0].Columns[0] = "changed"
	if s.Tables[3].ForeignKeys[0].Columns[0] != "id" {
		t.Error("TableInfo shares slices with the snapshot")
	}
	// Distinct "Group" and "group" columns stay distinct.
	c, _ := cat.LookupTable("public", "Case")
	if col, ok := c.Column("group"); !ok || col.Name != "group" {
		t.Errorf("Column(group) = %+v, %v", col, ok)
	}
	if _, ok := c.Column("GROUP"); ok {
		t.Error("Column(GROUP) should be ambiguous")
	}
}

func TestTableColumn(t *testing.T) {
	tb := testSnapshot().Tables[0]
	tests := []struct {
		name string
		want string
	}{{"Group", "Group"}, {"group", "group"}, {"GROUP", ""}, {"x", ""}}
	for _, tt := range tests {
		c, ok := tb.Column(tt.name)
		got := ""
		if ok {
			got = c.Name
		}
		if got != tt.want {
			t.Errorf("Column(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	a := testSnapshot()
	fa := a.Fingerprint()
	if len(fa) != 64 || strings.Trim(fa, "0123456789abcdef") != "" {
		t.Fatalf("Fingerprint = %q, want 64 lower-case hex digits", fa)
	}
	// Same content in another table order: same fingerprint, input untouched.
	b := testSnapshot()
	b.Tables[0], b.Tables[5] = b.Tables[5], b.Tables[0]
	if fb := b.Fingerprint(); fb != fa {
		t.Errorf("order changed the fingerprint: %s vs %s", fb, fa)
	}
	if b.Tables[0].Name != "CASE" {
		t.Error("Fingerprint reordered its receiver")
	}
	// Any content change changes it, profile included.
	c := testSnapshot()
	c.Tables[2].Columns[0].Profile = &ColumnProfile{DistinctCount: 1}
	if c.Fingerprint() == fa {
		t.Error("a profile change kept the fingerprint")
	}
	d := testSnapshot()
	d.Tables[1].Columns[0].Nullable = true
	if d.Fingerprint() == fa {
		t.Error("a nullability change kept the fingerprint")
	}
}

func TestSnapshotJSON(t *testing.T) {
	s := &Snapshot{Datasource: "d", Dialect: DialectSQLite, Tables: []Table{{
		Schema: "main", Name: "t", Kind: KindTable,
		Columns: []Column{{Name: "a", DeclaredType: "TEXT", Type: planast.TypeText, Nullable: true,
			Profile: &ColumnProfile{DistinctCount: 2, NullFraction: 0.5, SampleValues: []any{"x", "y"}, AllValues: true}}},
	}}}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"datasource":"d","dialect":"sqlite","tables":[{"schema":"main","name":"t","kind":"table","columns":[{"name":"a","declared_type":"TEXT","type":"text","nullable":true,"profile":{"distinct_count":2,"null_fraction":0.5,"sample_values":["x","y"],"all_values":true}}]}]}`
	if string(b) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", b, want)
	}
	var back Snapshot
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Fingerprint() != s.Fingerprint() {
		t.Error("JSON round trip changed the fingerprint")
	}
}
