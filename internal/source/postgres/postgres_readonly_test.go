package postgres

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// On PostgreSQL every statement runs in its own BEGIN READ ONLY
// transaction, and the session also defaults to read-only. Behind a
// connection pooler that drops startup parameters, or a role whose
// settings turn the default off, only the explicit READ ONLY transaction
// stands between a writable role (allow_writable_role) and the data: with
// the session default off on every pooled connection, a write sent below
// the lexical gate is still refused and the table keeps its rows.
func TestPostgresReadOnlyTransactionAlone(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (a integer)", "INSERT INTO t VALUES (1), (2)")
	p := openPGTest(t, f.Super, source.Options{AllowWritableRole: true})
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
		if se := sourcetest.AsError(t, err); se.Code != source.CodeReadOnly {
			t.Errorf("%s: %v, want %s", w, se, source.CodeReadOnly)
		}
	}
	if n := sourcetest.PGQueryString(t, f.Super, "SELECT count(*)::text FROM t"); n != "2" {
		t.Errorf("t has %s rows, had 2", n)
	}
}
