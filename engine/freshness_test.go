package engine

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/snapshots"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/store"
)

// tallySource counts the catalog reads and queries an open makes, and
// names the tables it profiles.
type tallySource struct {
	Source
	t *tally
}

type tally struct {
	snapshots, queries atomic.Int64
	mu                 sync.Mutex
	profiled           []string
}

func (c tallySource) Snapshot(ctx context.Context) (*schema.Snapshot, error) {
	c.t.snapshots.Add(1)
	return c.Source.Snapshot(ctx)
}

func (c tallySource) Query(ctx context.Context, q string, args []any, maxRows int) (*source.Result, error) {
	c.t.queries.Add(1)
	return c.Source.Query(ctx, q, args, maxRows)
}

func (c tallySource) Profile(ctx context.Context, snap *schema.Snapshot) error {
	c.t.mu.Lock()
	for _, tb := range snap.Tables {
		c.t.profiled = append(c.t.profiled, tb.Name)
	}
	c.t.mu.Unlock()
	return c.Source.Profile(ctx, snap)
}

func (c tallySource) StateToken(ctx context.Context) (string, error) {
	return c.Source.(snapshots.Tokener).StateToken(ctx)
}

// copyChinook copies the Chinook database into a temporary directory, so a
// test may write to it.
func copyChinook(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chinook.sqlite")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// freshnessRun opens the datasource at path in a new engine on the state
// kept in dir (a restart) and reports what loading it did, how many
// introspections and queries the source saw, and the snapshot served.
type freshnessRun struct {
	status             SnapshotStatus
	snapshots, queries int64
	profiled           []string
	snap               *schema.Snapshot
	version            string
}

func openFresh(t *testing.T, dir, path string) freshnessRun {
	t.Helper()
	return openFreshOn(t, dir, "sqlite", path)
}

func openFreshOn(t *testing.T, dir, engine, path string) freshnessRun {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var tl tally
	e, err := New(Options{Datasources: []DatasourceSpec{{ID: "chinook", Engine: engine, Path: path}},
		Store: st, IndexDir: filepath.Join(dir, "indexes"), ProfileMaxAge: time.Hour,
		Open: func(ctx context.Context, spec DatasourceSpec) (Source, error) {
			src, err := openAdapter(ctx, spec)
			if err != nil {
				return nil, err
			}
			return tallySource{src, &tl}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ds, err := e.sources.Await(ctx, "chinook", 0)
	if err != nil {
		t.Fatal(err)
	}
	return freshnessRun{status: ds.status, snapshots: tl.snapshots.Load(), queries: tl.queries.Load(), profiled: tl.profiled,
		snap: ds.snap, version: ds.version}
}

func rowCount(t *testing.T, snap *schema.Snapshot, table string) int64 {
	t.Helper()
	tb, ok := snap.Lookup("", table)
	if !ok || tb.RowCount == nil {
		t.Fatalf("no row count for %s", table)
	}
	return *tb.RowCount
}

// A restart on an unchanged database serves the stored snapshot without
// introspecting it or counting a single table; any write to it (rows
// added, the schema changed, in rollback or WAL mode) is seen on the next
// start, so the cheap check never serves stale row counts or a stale
// schema.
func TestRestartSeesEveryChangeWithoutCountingUnchangedSources(t *testing.T) {
	for _, wal := range []bool{false, true} {
		name := "rollback journal"
		if wal {
			name = "WAL"
		}
		t.Run(name, func(t *testing.T) {
			path, dir := copyChinook(t), t.TempDir()
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1) // in WAL mode, the open writer keeps its log
			exec := func(q string) {
				t.Helper()
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if wal {
				exec(`PRAGMA journal_mode=WAL`)
				exec(`PRAGMA wal_autocheckpoint=0`)
			}
			first := openFresh(t, dir, path)
			if first.status != SnapshotNew {
				t.Fatalf("first open: %s", first.status)
			}
			genres := rowCount(t, first.snap, "Genre")

			again := openFresh(t, dir, path)
			if again.status != SnapshotReused || again.snapshots != 0 || again.queries != 0 {
				t.Fatalf("restart on an unchanged database: %s with %d introspections and %d queries, want reused with none",
					again.status, again.snapshots, again.queries)
			}

			exec(`INSERT INTO Genre (GenreId, Name) VALUES (1001, 'Chiptune')`)
			added := openFresh(t, dir, path)
			if added.status == SnapshotReused && added.snapshots == 0 {
				t.Fatal("a row added was not noticed: the stored snapshot was served without a check")
			}
			if got := rowCount(t, added.snap, "Genre"); got != genres+1 {
				t.Fatalf("Genre has %d rows after one was added to %d", got, genres)
			}

			exec(`ALTER TABLE Genre ADD COLUMN Mood TEXT`)
			changed := openFresh(t, dir, path)
			tb, ok := changed.snap.Lookup("", "Genre")
			if !ok {
				t.Fatal("no Genre")
			}
			if _, ok := tb.Column("Mood"); !ok {
				t.Fatalf("a column added was not noticed (%s)", changed.status)
			}

			if after := openFresh(t, dir, path); after.status != SnapshotReused || after.snapshots != 0 || after.queries != 0 {
				t.Fatalf("restart after the change was recorded: %s with %d introspections and %d queries",
					after.status, after.snapshots, after.queries)
			}
		})
	}
}

// The stored index is keyed by the snapshot the retrieval sees, which the
// semantic layer annotates: editing the semantic file (a new synonym) on
// an unchanged database rebuilds the index, or retrieval would miss the
// new words until the data changed.
func TestSemanticEditRebuildsStoredIndex(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sem := filepath.Join(dir, "semantic.yaml")
	open := func(body string) IndexReport {
		t.Helper()
		if err := os.WriteFile(sem, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return restartOn(t, dir, DatasourceSpec{ID: "chinook", Engine: "sqlite", Path: abs, Semantic: sem}, time.Hour)
	}
	v1 := "tables:\n  - name: Genre\n    synonyms: [style]\n"
	v2 := "tables:\n  - name: Genre\n    synonyms: [style, flavour of music]\n"
	if first := open(v1); !first.IndexBuilt {
		t.Fatalf("first open did not build: %+v", first)
	}
	if same := open(v1); same.IndexBuilt || same.Snapshot != SnapshotReused {
		t.Fatalf("restart with the same semantic file rebuilt: %+v", same)
	}
	if edited := open(v2); !edited.IndexBuilt {
		t.Fatalf("the semantic file changed but the stored index was reused: %+v", edited)
	}
}

// A change to a few tables of a big catalog profiles those tables only:
// the others keep their stored profiles, and the snapshot served is the
// one a full profile of the changed database gives, byte for byte.
func TestSchemaChangeProfilesOnlyChangedTables(t *testing.T) {
	path, dir := copyChinook(t), t.TempDir()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if first := openFresh(t, dir, path); first.status != SnapshotNew || len(first.profiled) < 11 {
		t.Fatalf("first open: %s, profiled %v", first.status, first.profiled)
	}
	for _, q := range []string{`ALTER TABLE Genre ADD COLUMN Mood TEXT`, `INSERT INTO MediaType (MediaTypeId, Name) VALUES (99, 'Wax cylinder')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	changed := openFresh(t, dir, path)
	slices.Sort(changed.profiled)
	if !slices.Equal(changed.profiled, []string{"Genre", "MediaType"}) {
		t.Fatalf("after a column was added to Genre and a row to MediaType, profiled %v, want Genre and MediaType", changed.profiled)
	}
	full := openFresh(t, t.TempDir(), path)
	if len(full.profiled) < 11 || full.version != changed.version {
		t.Fatalf("the partly profiled snapshot is %s, a full profile gives %s", changed.version, full.version)
	}
}

// A snapshot that kept stored profiles counts as old as they are: the age
// rule must still re-profile the tables it kept, or a table whose rows
// changed in place (same count) would keep its stale profile forever as
// long as some other table changes now and then.
func TestPartialProfileKeepsTheOldestAge(t *testing.T) {
	path, dir := copyChinook(t), t.TempDir()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	openFresh(t, dir, path)
	st, err := store.Open(context.Background(), filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, before, err := st.LatestSnapshot(context.Background(), "chinook")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if _, err := db.Exec(`INSERT INTO MediaType (MediaTypeId, Name) VALUES (99, 'Wax cylinder')`); err != nil {
		t.Fatal(err)
	}
	if run := openFresh(t, dir, path); !slices.Equal(run.profiled, []string{"MediaType"}) {
		t.Fatalf("profiled %v, want MediaType alone", run.profiled)
	}
	_, after, err := st.LatestSnapshot(context.Background(), "chinook")
	if err != nil {
		t.Fatal(err)
	}
	if after.Version == before.Version || !after.ProfiledAt.Equal(before.ProfiledAt) {
		t.Fatalf("profiled at %v after a partial profile, want the kept profiles' %v", after.ProfiledAt, before.ProfiledAt)
	}
}

// The same for a DuckDB file: a restart on an unchanged file neither
// introspects nor counts, and a row added or a column added by another
// process in between is seen.
func TestRestartSeesDuckDBChanges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.duckdb")
	write := func(qs ...string) {
		t.Helper()
		db, err := sql.Open("duckdb", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range qs {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	write(`CREATE TABLE Genre (GenreId INTEGER PRIMARY KEY, Name VARCHAR)`, `INSERT INTO Genre VALUES (1, 'Rock'), (2, 'Jazz')`)
	state := t.TempDir()
	if first := openFreshOn(t, state, "duckdb", path); first.status != SnapshotNew {
		t.Fatalf("first open: %s", first.status)
	}
	if again := openFreshOn(t, state, "duckdb", path); again.status != SnapshotReused || again.snapshots != 0 || again.queries != 0 {
		t.Fatalf("restart on an unchanged file: %s with %d introspections and %d queries", again.status, again.snapshots, again.queries)
	}
	write(`INSERT INTO Genre VALUES (3, 'Chiptune')`)
	if added := openFreshOn(t, state, "duckdb", path); rowCount(t, added.snap, "Genre") != 3 {
		t.Fatalf("a row added was not noticed (%s)", added.status)
	}
	write(`ALTER TABLE Genre ADD COLUMN Mood VARCHAR`)
	changed := openFreshOn(t, state, "duckdb", path)
	if tb, ok := changed.snap.Lookup("", "Genre"); !ok {
		t.Fatal("no Genre")
	} else if _, ok := tb.Column("Mood"); !ok {
		t.Fatalf("a column added was not noticed (%s)", changed.status)
	}
}
