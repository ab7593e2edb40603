package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// TestWritableRoleStillReadOnly: a datasource opened with
// AllowWritableRole (a superuser) still runs what the engine executes in a
// READ ONLY transaction, so SQL that writes is refused and the rows stay.
// allow_writable_role must only relax the startup check, never the
// read-only guarantee a user relies on when pointing nl2sql at a database
// that a superuser can change.
func TestWritableRoleStillReadOnly(t *testing.T) {
	super := pgtest.Schema(t, pgtest.DSN(t))
	pgtest.Exec(t, super, `CREATE TABLE crates (id BIGINT PRIMARY KEY)`, `INSERT INTO crates VALUES (1), (2)`)
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "dev", Engine: "postgres", DSN: super, AllowWritableRole: true}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	ds, err := e.datasource(ctx, "dev")
	if err != nil {
		t.Fatalf("a superuser with AllowWritableRole: %v", err)
	}
	for _, sql := range []string{
		"WITH d AS (DELETE FROM crates RETURNING 1) SELECT count(*) FROM d",
		"WITH d AS (INSERT INTO crates VALUES (3) RETURNING 1) SELECT count(*) FROM d",
	} {
		if _, err := e.execute(ctx, ds, sql); err == nil || AsError(err).Code != CodeReadOnly {
			t.Errorf("%s: %v, want %s", sql, err, CodeReadOnly)
		}
	}
	res, err := e.execute(ctx, ds, "SELECT count(*)::text FROM crates")
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "2" {
		t.Errorf("crates after the attempts: %v %v, want 2 rows", res, err)
	}
}

// A writable role makes the datasource unavailable; a host (or the
// operator reading serve's start line) must learn both ways out: a
// read-only role with the GRANTs it needs, or allow_writable_role /
// --allow-writable-role. list_datasources carries the hint beside the
// reason, and the error of first use (what serve prints at start and a
// tool returns) carries it too.
func TestWritableRoleRefusalNamesBothFixes(t *testing.T) {
	super := pgtest.Schema(t, pgtest.DSN(t))
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "dev", Engine: "postgres", DSN: super}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	both := func(s string) bool {
		return strings.Contains(s, "GRANT SELECT ON ALL TABLES IN SCHEMA") && strings.Contains(s, "GRANT USAGE ON SCHEMA") &&
			strings.Contains(s, "allow_writable_role: true") && strings.Contains(s, "--allow-writable-role")
	}
	openErr := e.OpenDatasource(context.Background(), "dev")
	if openErr == nil || !both(openErr.Error()) {
		t.Errorf("opening as a superuser: %v, want an error naming the GRANTs and allow_writable_role", openErr)
	}
	ls := e.ListDatasources(context.Background())
	if len(ls) != 1 || ls[0].Status != "unavailable" || !strings.Contains(ls[0].Error, "can write") || !both(ls[0].Hint) {
		t.Errorf("listed %+v: want unavailable with the reason and a hint naming both fixes", ls)
	}
}
