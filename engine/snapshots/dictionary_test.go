package snapshots_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/snapshots"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
	"github.com/nl2sql/nl2sql/internal/store"
)

// A rule edited in the documentation table reaches the next open: the
// stored snapshot, whose schema and row counts are unchanged, is not
// reused with the old note.
func TestLoadPicksUpAChangedDictionaryNote(t *testing.T) {
	path := sourcetest.TempDB(t,
		`CREATE TABLE ratings (id INTEGER PRIMARY KEY, rating REAL)`,
		`CREATE TABLE data_dictionary (table_name TEXT, column_name TEXT, note TEXT)`,
		`INSERT INTO data_dictionary VALUES ('ratings', 'rating', 'stars from 1 to 5')`)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l := snapshots.Loader{Store: st, MaxAge: time.Hour, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	load := func() (*schema.Snapshot, string, snapshots.Status) {
		t.Helper()
		src := sourcetest.Open(t, sqlite.OpenSQLite, path, source.Options{})
		snap, version, _, status, err := l.Load(ctx, src)
		if err != nil {
			t.Fatal(err)
		}
		return snap, version, status
	}
	note := func(snap *schema.Snapshot) string {
		tb, _ := snap.Lookup("", "ratings")
		c, _ := tb.Column("rating")
		return c.Comment
	}
	first, v1, _ := load()
	if got := note(first); got != "stars from 1 to 5" {
		t.Fatalf("first open: note %q", got)
	}
	sourcetest.ExecWritable(t, path, `UPDATE data_dictionary SET note = '0 is never a real rating (app < 4.0)'`)
	again, v2, status := load()
	if got := note(again); got != "0 is never a real rating (app < 4.0)" || v2 == v1 || status != snapshots.New {
		t.Errorf("after the note changed: note %q, %s, version changed %v", got, status, v2 != v1)
	}
	if unstored, _, _, _, err := (snapshots.Loader{Log: l.Log}).Load(ctx, sourcetest.Open(t, sqlite.OpenSQLite, path, source.Options{})); err != nil || note(unstored) != note(again) {
		t.Errorf("without a state store: note %q (%v)", note(unstored), err)
	}
}
