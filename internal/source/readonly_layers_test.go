package source

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"
)

// writes are statements that change a database file; every read-only layer
// must refuse each of them on its own.
var writes = []string{
	"CREATE TABLE x (a INTEGER)",
	"INSERT INTO t VALUES (3)",
	"DELETE FROM t",
	"DROP TABLE t",
}

// Read-only holds three times over on SQLite (the mode=ro open, PRAGMA
// query_only, the authorizer) so that a hole in one, say an authorizer gap
// after a driver upgrade, still leaves the user's file unwritten. Each layer
// is tried here without the other two: the open URI alone, then the setup
// pragmas alone on an ordinary read-write connection. TestSQLitePolicy
// covers the authorizer alone.
func TestSQLiteReadOnlyLayers(t *testing.T) {
	p := tempDB(t, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum := fileSum(t, p)
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
			for _, w := range writes {
				if _, err := db.ExecContext(context.Background(), w); err == nil {
					t.Errorf("%s: written through this layer alone", w)
				} else if !strings.Contains(strings.ToLower(err.Error()), "readonly") && !strings.Contains(err.Error(), "read-only") {
					t.Errorf("%s: refused for another reason than read-only: %v", w, err)
				}
			}
		})
	}
	if got := fileSum(t, p); got != sum {
		t.Error("the database file changed")
	}
}

// On PostgreSQL every statement runs in its own BEGIN READ ONLY
// transaction, and the session also defaults to read-only. Behind a
// connection pooler that drops startup parameters, or a role whose
// settings turn the default off, only the explicit READ ONLY transaction
// stands between a writable role (allow_writable_role) and the data: with
// the session default off on every pooled connection, a write sent below
// the lexical gate is still refused and the table keeps its rows.
func TestPostgresReadOnlyTransactionAlone(t *testing.T) {
	f := newPGFixture(t, "CREATE TABLE t (a integer)", "INSERT INTO t VALUES (1), (2)")
	p := openPGTest(t, f.Super, Options{AllowWritableRole: true})
	ctx := context.Background()
	var held []interface{ Release() }
	for range p.pool.Config().MaxConns {
		c, err := p.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Exec(ctx, "SET default_transaction_read_only = off"); err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	for _, c := range held {
		c.Release()
	}
	for _, w := range []string{"WITH d AS (DELETE FROM t RETURNING 1) SELECT count(*) FROM d", "INSERT INTO t VALUES (3)", "CREATE TABLE x (a integer)"} {
		_, err := p.fetch(ctx, w, nil, 10)
		if err == nil {
			t.Errorf("%s: written", w)
			continue
		}
		if se := asError(t, err); se.Code != CodeReadOnly {
			t.Errorf("%s: %v, want %s", w, se, CodeReadOnly)
		}
	}
	if n := pgQueryString(t, f.Super, "SELECT count(*)::text FROM t"); n != "2" {
		t.Errorf("t has %s rows, had 2", n)
	}
}
