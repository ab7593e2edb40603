package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/store"
)

// The threat: every restart of a server over a PostgreSQL database counted
// the rows of every table before its first answer (a database has no
// file whose state says it was not written), so a big database kept the
// first question waiting for minutes, or failed it as still indexing. A
// restart whose schema version is the one recorded answers from the
// stored snapshot at once (SnapshotPresumed) and counts the rows in the
// background; rows written meanwhile are still found, and the profile
// follows them.
func TestPostgresRestartAnswersBeforeCountingRows(t *testing.T) {
	r := pgtest.NewReader(t, "presume")
	pgtest.Exec(t, r.Super, `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)`,
		`INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'c')`,
		`GRANT SELECT ON items TO `+r.Role)
	dir := t.TempDir()
	open := func() *Engine {
		st, err := store.Open(context.Background(), filepath.Join(dir, "state"))
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second, Store: st, IndexDir: filepath.Join(dir, "indexes"),
			Datasources: []DatasourceSpec{{ID: "shop", Engine: "postgres", DSN: r.URL.String()}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close(); st.Close() })
		return e
	}
	rows := func(ds *datasource) int64 {
		t.Helper()
		tb, ok := ds.snap.Lookup("", "items")
		if !ok || tb.RowCount == nil {
			t.Fatalf("the snapshot has no counted table items: %+v", ds.snap.Tables)
		}
		return *tb.RowCount
	}
	first := open()
	if rep := first.Refresh(context.Background(), "shop"); rep.Error != "" || rep.Snapshot == SnapshotPresumed {
		t.Fatalf("the first open: %+v (want a full check)", rep)
	}
	first.Close()

	pgtest.Exec(t, r.Super, `INSERT INTO items VALUES (4, 'd'), (5, 'e')`) // rows written while it was stopped
	e := open()
	ds, err := e.sources.Await(context.Background(), "shop", 0) // the open alone: no call has started the check yet
	if err != nil {
		t.Fatal(err)
	}
	if ds.status != SnapshotPresumed || rows(ds) != 3 {
		t.Fatalf("the restart opened with status %q and %d rows, counting the rows before answering (want %q, the 3 stored)", ds.status, rows(ds), SnapshotPresumed)
	}
	// a typo while the rows are counted is a typo: the schema is as
	// stored, so no "changed, send it again" that a client would retry
	// forever
	_, err = e.RunPlan(context.Background(), "shop", []byte(`{"from":[{"table":"items","alias":"i"}],"select":[{"expr":{"kind":"column","table":"i","column":"nmae"},"alias":"n"}]}`))
	if ee := AsError(err); ee == nil || ee.Code != CodePlanInvalid || ee.Retryable || strings.Contains(ee.Hint, "changed") {
		t.Errorf("a column typo on the presumed snapshot: %+v: want PLAN_INVALID, not retryable, no schema change claimed", ee)
	}
	res, err := e.RunPlan(context.Background(), "shop", []byte(`{"from":[{"table":"items","alias":"i"}],"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}]}`))
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != int64(5) {
		t.Fatalf("the presumed snapshot answered %v, %v: want the 5 rows the table holds", res, err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ds, _ = e.sources.Ready("shop"); ds.status != SnapshotPresumed && rows(ds) == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the presumed snapshot was never checked: status %q, %d rows counted (want 5)", ds.status, rows(ds))
		}
	}
	if rep := open().Refresh(context.Background(), "shop"); rep.Error != "" || rep.Snapshot == SnapshotPresumed {
		t.Errorf("nl2sql index presumed the snapshot: %+v (it must check in full)", rep)
	}
}
