package sqlite

import (
	"context"
	"reflect"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// sqliteFixtureTypes: SQLite reports the script's declared types as written.
var sqliteFixtureTypes = map[string]string{
	"INTEGER": "INTEGER", "TEXT": "TEXT", "BIGINT": "BIGINT",
	"NUMERIC(12,2)": "NUMERIC(12,2)", "NUMERIC(20,2)": "NUMERIC(20,2)", "DATE": "DATE",
}

func TestSnapshotFixture(t *testing.T) {
	s := openTest(t, sourcetest.FixtureDB(t), source.Options{})
	sourcetest.CheckFixtureSnapshot(t, sourcetest.Snapshot(t, s), sourcetest.FixtureSnapshot("sqlite", "main", sqliteFixtureTypes))
}

// SQLite's NUMERIC affinity stored n.amount's 12345678901234567.89 as the
// integer 12345678901234568 (and 0.10 as the real 0.1, -1.00 as the
// integer -1); a column declared with a scale shows its values at that
// scale, as the exact engines return them (0.10, -1.00,
// 12345678901234568.00).
func TestFixtureValues(t *testing.T) {
	sourcetest.CheckFixtureValues(t, openTest(t, sourcetest.FixtureDB(t), source.Options{}), `"12345678901234568.00"`)
}

func TestSnapshotChinook(t *testing.T) {
	s := openTest(t, sourcetest.SharedPath(t, "data/chinook/Chinook_Sqlite.sqlite"), source.Options{})
	snap := sourcetest.Snapshot(t, s)
	var names []string
	for _, tb := range snap.Tables {
		names = append(names, tb.Name)
	}
	wantNames := []string{"Album", "Artist", "Customer", "Employee", "Genre", "Invoice", "InvoiceLine", "MediaType", "Playlist", "PlaylistTrack", "Track"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("tables %v, want %v", names, wantNames)
	}
	pt, _ := snap.Lookup("main", "PlaylistTrack")
	if !reflect.DeepEqual(pt.PrimaryKey, []string{"PlaylistId", "TrackId"}) {
		t.Errorf("PlaylistTrack key %v", pt.PrimaryKey)
	}
	inv, _ := snap.Lookup("main", "Invoice")
	if c, _ := inv.Column("InvoiceDate"); c.Type != planast.TypeTimestamp || c.DeclaredType != "DATETIME" || c.Nullable {
		t.Errorf("InvoiceDate %+v", c)
	}
	if c, _ := inv.Column("Total"); c.Type != planast.TypeDecimal || c.DeclaredType != "NUMERIC(10,2)" {
		t.Errorf("Total %+v", c)
	}
	emp, _ := snap.Lookup("main", "Employee")
	wantFK := []schema.ForeignKey{{Columns: []string{"ReportsTo"}, RefSchema: "main", RefTable: "Employee", RefColumns: []string{"EmployeeId"}}}
	if !reflect.DeepEqual(emp.ForeignKeys, wantFK) {
		t.Errorf("Employee foreign keys %+v", emp.ForeignKeys)
	}
	track, _ := snap.Lookup("main", "Track")
	if len(track.ForeignKeys) != 3 {
		t.Errorf("Track foreign keys %+v", track.ForeignKeys)
	}
	// The same database gives the same fingerprint.
	again, err := s.Snapshot(context.Background())
	if err != nil || again.Fingerprint() != snap.Fingerprint() {
		t.Errorf("second snapshot differs: %v", err)
	}
}

func TestSnapshotShapes(t *testing.T) {
	p := sourcetest.TempDB(t,
		`CREATE TABLE parent (a INTEGER, b TEXT, c TEXT, PRIMARY KEY (b, a))`,
		`CREATE TABLE child (x INTEGER, y TEXT, z REAL GENERATED ALWAYS AS (x * 2) VIRTUAL,
			FOREIGN KEY (y, x) REFERENCES parent)`,
		`CREATE TABLE "WithoutRowid" (k TEXT PRIMARY KEY NOT NULL, v) WITHOUT ROWID`,
		`CREATE VIEW v AS SELECT a, upper(b) AS ub FROM parent`,
		`CREATE VIRTUAL TABLE docs USING fts5(body)`,
		`CREATE INDEX parent_c ON parent (c)`,
		`CREATE TABLE seq (id INTEGER PRIMARY KEY AUTOINCREMENT)`,
	)
	s := openTest(t, p, source.Options{})
	snap := sourcetest.Snapshot(t, s)
	var names []string
	for _, tb := range snap.Tables {
		names = append(names, tb.Kind+":"+tb.Name)
	}
	// No sqlite_sequence, no FTS shadow tables (docs_data, docs_idx, …).
	wantNames := []string{"table:WithoutRowid", "table:child", "table:docs", "table:parent", "table:seq", "view:v"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("tables %v, want %v", names, wantNames)
	}
	parent, _ := snap.Lookup("", "parent")
	if !reflect.DeepEqual(parent.PrimaryKey, []string{"b", "a"}) {
		t.Errorf("parent key %v", parent.PrimaryKey)
	}
	child, _ := snap.Lookup("", "child")
	wantFK := []schema.ForeignKey{{Columns: []string{"y", "x"}, RefSchema: "main", RefTable: "parent", RefColumns: []string{"b", "a"}}}
	if !reflect.DeepEqual(child.ForeignKeys, wantFK) {
		t.Errorf("child foreign keys %+v", child.ForeignKeys)
	}
	if len(child.Columns) != 3 || child.Columns[2].Name != "z" || child.Columns[2].Type != planast.TypeFloat {
		t.Errorf("child columns %+v (want the generated column z)", child.Columns)
	}
	wr, _ := snap.Lookup("", "withoutrowid")
	if c, _ := wr.Column("k"); c.Nullable {
		t.Errorf("WithoutRowid.k %+v", c)
	}
	if c, _ := wr.Column("v"); !c.Nullable || c.Type != planast.TypeUnknown {
		t.Errorf("WithoutRowid.v %+v", c)
	}
	v, _ := snap.Lookup("", "v")
	if len(v.Columns) != 2 || v.Columns[0].Type != planast.TypeInteger || v.Columns[1].Name != "ub" || v.Columns[1].Type != planast.TypeUnknown {
		t.Errorf("view v columns %+v", v.Columns)
	}
	docs, _ := snap.Lookup("", "docs")
	if len(docs.Columns) != 1 || docs.Columns[0].Name != "body" {
		t.Errorf("docs columns %+v (hidden columns must be left out)", docs.Columns)
	}
}

func TestSnapshotSkipsBrokenView(t *testing.T) {
	p := sourcetest.TempDB(t,
		`CREATE TABLE t (a INTEGER)`,
		`CREATE VIEW good AS SELECT a FROM t`,
		`CREATE VIEW bad AS SELECT a FROM gone`,
	)
	s := openTest(t, p, source.Options{})
	snap := sourcetest.Snapshot(t, s)
	if _, ok := snap.Lookup("", "bad"); ok {
		t.Error("a view over a missing table is in the snapshot")
	}
	if _, ok := snap.Lookup("", "good"); !ok {
		t.Error("the good view is missing")
	}
}

// TestProfileFixture profiles the hostile schema: quoted, spaced, reserved
// and non-ASCII names must reach SQLite quoted, and values keep the result
// encoding.
func TestProfileFixture(t *testing.T) {
	s := openTest(t, sourcetest.FixtureDB(t), source.Options{})
	snap := sourcetest.Profiled(t, s)
	tests := []struct {
		table, column, want string
	}{
		{"order", "größe", `{"distinct_count":2,"null_fraction":0,"sample_values":["groß","klein"],"all_values":true}`},
		{"order", `a"b`, `{"distinct_count":2,"null_fraction":0,"sample_values":["x","y"],"all_values":true}`},
		{"order", "unit price", `{"distinct_count":2,"null_fraction":0,"min":0.10,"max":9.99,"sample_values":[0.10,9.99],"all_values":true}`},
		{"Order Items", "Qty", `{"distinct_count":3,"null_fraction":0,"min":3,"max":5,"sample_values":[3,4,5],"all_values":true}`},
		{"n", "big", `{"distinct_count":3,"null_fraction":0,"min":"-9007199254740993","max":"9007199254740993",` +
			`"sample_values":["-9007199254740993",0,"9007199254740993"],"all_values":true}`},
		{"n", "name", `{"distinct_count":2,"null_fraction":0.3333333333333333,"sample_values":["","null"],"all_values":true}`},
		{"n", "code", `{"distinct_count":3,"null_fraction":0,"sample_values":["00123","123","true"],"all_values":true,"cast_nulls":[{"to":"float","invalid":1,"invalid_example":"true"}]}`},
		{"n", "day", `{"distinct_count":3,"null_fraction":0,"min":"1974-03-01","max":"2024-02-29",` +
			`"sample_values":["1974-03-01","1999-12-31","2024-02-29"],"all_values":true}`},
	}
	for _, tt := range tests {
		if got := sourcetest.ProfileJSON(t, snap, tt.table, tt.column); got != tt.want {
			t.Errorf("%s.%s profile\n got %s\nwant %s", tt.table, tt.column, got, tt.want)
		}
	}
}

// The threat: SQLite declares no type for a view's computed column, so a
// host planner read "revenue unknown; invoices unknown" for a SUM and a
// COUNT and could not tell a number from a text, and the validator asked
// for a cast of every one. A computed column takes the type its values
// have in the view's first rows; one whose values are of several kinds,
// or that has none, stays unknown rather than guessed.
func TestSnapshotTypesComputedViewColumns(t *testing.T) {
	p := sourcetest.TempDB(t,
		`CREATE TABLE inv (id INTEGER PRIMARY KEY, carrier TEXT, amount REAL, shipped TEXT, delivered TEXT)`,
		`INSERT INTO inv VALUES (1, 'Blitz', 10.5, '2024-01-01', '2024-01-03'), (2, 'Blitz', 4, '2024-01-02', '2024-01-02'),
			(3, '東京運送', 7.25, '2024-02-01', NULL)`,
		`CREATE VIEW revenue AS SELECT carrier, SUM(amount) AS revenue, COUNT(*) AS invoices, upper(carrier) AS shout,
			julianday(delivered) - julianday(shipped) AS days, CASE WHEN id = 1 THEN 'one' ELSE id END AS mixed,
			NULL AS nada, id * 2 AS dbl FROM inv GROUP BY carrier, id`,
	)
	s := openTest(t, p, source.Options{})
	snap := sourcetest.Snapshot(t, s)
	v, _ := snap.Lookup("", "revenue")
	want := map[string]planast.Type{"carrier": planast.TypeText, "revenue": planast.TypeFloat, "invoices": planast.TypeInteger,
		"shout": planast.TypeText, "days": planast.TypeFloat, "mixed": planast.TypeUnknown, "nada": planast.TypeUnknown,
		"dbl": planast.TypeInteger}
	for name, typ := range want {
		if c, ok := v.Column(name); !ok || c.Type != typ {
			t.Errorf("view column %s: %+v, want type %s", name, c, typ)
		}
	}
}
