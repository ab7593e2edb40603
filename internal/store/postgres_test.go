package store

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// TestPostgresMigrationsMatchSQLite: both backends have the same schema
// history (versions and names), so SchemaVersion means one thing.
func TestPostgresMigrationsMatchSQLite(t *testing.T) {
	if len(pgMigrations) != len(migrations) {
		t.Fatalf("%d PostgreSQL migrations, %d SQLite", len(pgMigrations), len(migrations))
	}
	for i := range migrations {
		if pgMigrations[i].version != migrations[i].version || pgMigrations[i].name != migrations[i].name {
			t.Errorf("migration %d: postgres %d %s, sqlite %d %s", i, pgMigrations[i].version, pgMigrations[i].name,
				migrations[i].version, migrations[i].name)
		}
	}
	if err := checkMigrations(pgMigrations); err != nil {
		t.Error(err)
	}
}

// TestPostgresReplicas: replicas opening one PostgreSQL store at once
// migrate it once; putting the same snapshot from all of them at once
// stores one row and exactly one put reports created; a plan one caches
// is a hit on the other.
func TestPostgresReplicas(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Schema(t, pgtest.DSN(t))
	const replicas = 4
	stores := make([]*Store, replicas)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() {
			s, err := OpenPostgres(ctx, dsn)
			if err != nil {
				t.Error(err)
				return
			}
			stores[i] = s
		})
	}
	wg.Wait()
	for _, s := range stores {
		if s == nil {
			t.FailNow()
		}
		defer s.Close()
	}
	a, b := stores[0], stores[1]
	if n := count(t, a, `SELECT count(*) FROM schema_migrations`); n != SchemaVersion() {
		t.Fatalf("%d migrations recorded by %d replicas, want %d", n, replicas, SchemaVersion())
	}

	if created := putConcurrently(t, stores, 16); created != 1 {
		t.Errorf("%d puts reported created, want 1", created)
	}
	if n := count(t, a, `SELECT count(*) FROM snapshots`); n != 1 {
		t.Errorf("%d snapshot rows, want 1", n)
	}
	if err := b.Check(ctx); err != nil {
		t.Error(err)
	}

	key := PlanKey{Intent: "albums per artist", Datasource: "chinook", SchemaVersion: "v1", Today: "2026-03-01"}
	if err := a.PutPlan(ctx, key, []byte(`{"from":[]}`)); err != nil {
		t.Fatal(err)
	}
	if plan, ok, err := b.GetPlan(ctx, key); err != nil || !ok || string(plan) != `{"from":[]}` {
		t.Errorf("replica B: plan %q ok=%v err=%v", plan, ok, err)
	}
	if st, _, _ := a.PlanStats(ctx, key); st.Hits != 1 {
		t.Errorf("replica A sees %d hits, want 1", st.Hits)
	}
	if a.Backend() != "postgres" || a.Ping(ctx) != nil {
		t.Errorf("Backend %q, Ping %v", a.Backend(), a.Ping(ctx))
	}
}

func TestPostgresErrors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name, dsn, code, msg string
	}{
		{"empty", " ", CodeInvalid, "DSN is empty"},
		{"malformed", "postgres://u:s3cret@[::1", CodeInvalid, "not a PostgreSQL DSN"},
		{"unreachable", "postgres://u:s3cret@127.0.0.1:1/db?connect_timeout=2", CodeUnavailable, "postgres://u@127.0.0.1:1/db"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := OpenPostgres(ctx, c.dsn, WithBusyTimeout(3*time.Second))
			if codeOfErr(t, err) != c.code || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %s containing %q", err, c.code, c.msg)
			}
			if err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("the message shows the password: %v", err)
			}
		})
	}

	dsn := pgtest.Schema(t, pgtest.DSN(t))
	s, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := s.PutSnapshot(ctx, small("x"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("tampered body", func(t *testing.T) {
		if _, err := s.db.Exec(`UPDATE snapshots SET body = convert_to(replace(convert_from(body, 'UTF8'), '"t"', '"u"'), 'UTF8')`); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Snapshot(ctx, "x", v); codeOfErr(t, err) != CodeCorrupt {
			t.Errorf("tampered read: %v", err)
		}
		if err := s.Check(ctx); codeOfErr(t, err) != CodeCorrupt {
			t.Errorf("Check of a tampered store: %v", err)
		}
	})
	t.Run("written by a newer build", func(t *testing.T) {
		if _, err := s.db.Exec(`INSERT INTO schema_migrations VALUES ($1, 'future', 0)`, SchemaVersion()+1); err != nil {
			t.Fatal(err)
		}
		_, err := OpenPostgres(ctx, dsn)
		if codeOfErr(t, err) != CodeTooNew {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		s.Close()
		if err := s.Ping(ctx); codeOfErr(t, err) != CodeUnavailable {
			t.Errorf("Ping after Close: %v", err)
		}
	})
}
