package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Read-only holds three times over on SQLite (the mode=ro open, PRAGMA
// query_only, the authorizer) so that a hole in one, say an authorizer gap
// after a driver upgrade, still leaves the user's file unwritten. Each layer
// is tried here without the other two: the open URI alone, then the setup
// pragmas alone on an ordinary read-write connection. TestSQLitePolicy
// covers the authorizer alone.
func TestSQLiteReadOnlyLayers(t *testing.T) {
	p := sourcetest.TempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum := sourcetest.FileSum(t, p)
	layers := []struct {
		name, dsn string
		setup     []string
	}{
		{"open mode alone", sqliteDSN(p), nil},
		{"setup pragmas alone", "file:" + p, sqliteSetup(time.Second)},
	}
	for _, l := range layers {
		t.Run(l.name, func(t *testing.T) {
			db, err := sql.Open("sqlite", l.dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1) // the pragmas hold per connection
			for _, s := range l.setup {
				if _, err := db.Exec(s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			for _, w := range sourcetest.Writes {
				if _, err := db.ExecContext(context.Background(), w); err == nil {
					t.Errorf("%s: written through this layer alone", w)
				} else if !strings.Contains(strings.ToLower(err.Error()), "readonly") && !strings.Contains(err.Error(), "read-only") {
					t.Errorf("%s: refused for another reason than read-only: %v", w, err)
				}
			}
		})
	}
	if got := sourcetest.FileSum(t, p); got != sum {
		t.Error("the database file changed")
	}
}
