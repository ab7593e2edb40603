package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/store"
)

// The threat: a database file with a damaged page was listed "ready",
// and every query of it failed with "the database file is corrupt" marked
// retryable, so a client sent it again and again and a person read two
// contradicting messages (restore it; it may pass by itself). A damaged
// file is listed unavailable with the restore hint, with or without a
// state store, and its error is not retryable; a lock still is.
func TestCorruptDatabaseIsUnavailableAndNotRetryable(t *testing.T) {
	rows := make([]string, 0, 400)
	for i := range 400 {
		rows = append(rows, fmt.Sprintf("(%d, '%s')", i, strings.Repeat("note ", 20)))
	}
	for _, stored := range []bool{false, true} {
		t.Run(fmt.Sprintf("store=%v", stored), func(t *testing.T) {
			path := sourcetest.TempDB(t, "CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT)",
				"INSERT INTO orders VALUES "+strings.Join(rows, ", "))
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			// page 1 (the schema) stays whole; a leaf of orders does not
			if _, err := f.WriteAt([]byte(strings.Repeat("\xff", 64)), 3*4096); err != nil {
				t.Fatal(err)
			}
			f.Close()
			opts := Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "shop", Engine: "sqlite", Path: path}}}
			if stored {
				st, err := store.Open(context.Background(), t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				opts.Store = st
			}
			e, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			ctx := context.Background()
			ds := e.ListDatasources(ctx)
			if len(ds) != 1 || ds[0].Status != "unavailable" || !strings.Contains(ds[0].Error, "corrupt") || !strings.Contains(ds[0].Hint, "good copy") {
				t.Errorf("listed as %+v, want unavailable: corrupt, with the restore hint", ds)
			}
			_, err = e.RunPlan(ctx, "shop", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}]}`))
			var ee *Error
			if !errors.As(err, &ee) || ee.Code != CodeDatasourceDown {
				t.Fatalf("run_plan: %v, want %s", err, CodeDatasourceDown)
			}
			if ee.Retryable {
				t.Errorf("a corrupt file is marked retryable (%q): sending it again fails the same way", ee.Msg)
			}
		})
	}
}

// The other side: a lock held by another process passes by itself, so the
// same request is worth sending again, and the error says so.
func TestLockedDatabaseIsRetryable(t *testing.T) {
	path := sourcetest.TempDB(t, "CREATE TABLE orders (id INTEGER PRIMARY KEY)", "INSERT INTO orders VALUES (1)")
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "shop", Engine: "sqlite", Path: path, Timeout: 400 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	plan := []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}]}`)
	if _, err := e.RunPlan(ctx, "shop", plan); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")
	_, err = e.RunPlan(ctx, "shop", plan)
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodeDatasourceDown || !ee.Retryable {
		t.Fatalf("run_plan on a locked file: %v (retryable %v), want %s, retryable", err, ee != nil && ee.Retryable, CodeDatasourceDown)
	}
}
