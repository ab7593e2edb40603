package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// driftDB is a datasource whose schema a test changes behind the
// engine's back: an engine on it, and a way to run statements on it as
// its owner.
type driftDB struct {
	e    *Engine
	exec func(stmts ...string)
}

// driftEngines are the engines whose schema another process may change
// while the server runs. PostgreSQL needs NL2SQL_TEST_PG_DSN; without it
// its case skips.
var driftEngines = []struct {
	name string
	open func(t *testing.T) driftDB
}{
	{"sqlite", func(t *testing.T) driftDB {
		path := copyChinook(t)
		return driftDB{shopEngine(t, path), func(stmts ...string) { sourcetest.ExecWritable(t, path, stmts...) }}
	}},
	{"postgres", func(t *testing.T) driftDB {
		r := pgtest.NewReader(t, "drift")
		pgtest.Exec(t, r.Super, `ALTER DEFAULT PRIVILEGES IN SCHEMA `+r.Name+` GRANT SELECT ON TABLES TO `+r.Role,
			`CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY, "Name" TEXT)`,
			`INSERT INTO "Artist" VALUES (1, 'AC/DC')`)
		e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
			Datasources: []DatasourceSpec{{ID: "shop", Engine: "postgres", DSN: r.URL.String()}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return driftDB{e, func(stmts ...string) { pgtest.Exec(t, r.Super, stmts...) }}
	}},
}

var (
	artistPlan = []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`)
	promoPlan  = []byte(`{"select":[{"expr":{"kind":"column","table":"p","column":"code"}}],"from":[{"table":"Promo","alias":"p"}]}`)
)

// The threat: a user creates a table and asks about it a moment later,
// within the periodic check's interval. Refused as unknown, the host
// tells them the table does not exist, which it does.
func TestTableCreatedAfterTheSnapshotIsAnsweredAtOnce(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = time.Hour // no periodic check helps
	for _, eng := range driftEngines {
		t.Run(eng.name, func(t *testing.T) {
			db := eng.open(t)
			ctx := context.Background()
			if _, err := db.e.RunPlan(ctx, "shop", artistPlan); err != nil {
				t.Fatal(err)
			}
			db.exec(`CREATE TABLE "Promo" (code TEXT)`, `INSERT INTO "Promo" VALUES ('SPRING')`)
			res, err := db.e.RunPlan(ctx, "shop", promoPlan)
			if err != nil {
				t.Fatalf("a table created after the snapshot: %v", err)
			}
			if len(res.Rows) != 1 || res.Rows[0][0] != "SPRING" {
				t.Fatalf("rows %v, want [[SPRING]]", res.Rows)
			}
			// and one never created is still refused, not retried for ever
			ghost := []byte(`{"select":[{"expr":{"kind":"column","table":"g","column":"x"}}],"from":[{"table":"Ghost","alias":"g"}]}`)
			_, err = db.e.RunPlan(ctx, "shop", ghost)
			if !isIssue(err, "TABLE_NOT_FOUND") {
				t.Fatalf("a table that does not exist: %v", err)
			}
			checkHonest(t, err)
		})
	}
}

// The threat: a table is dropped after the snapshot was read. The plan
// naming it passes validation and fails in the database; an error that
// says "send the request again" while marked not retryable leaves a
// client guessing, and one marked retryable whose retry meets the same
// stale snapshot loops it. The error must be retryable, and the request
// sent again at once must get the definite answer: the table is gone.
func TestDroppedTableErrorIsRetryableAndTheRetryIsDefinite(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = time.Hour
	for _, eng := range driftEngines {
		t.Run(eng.name, func(t *testing.T) {
			db := eng.open(t)
			ctx := context.Background()
			db.exec(`CREATE TABLE "Promo" (code TEXT)`, `INSERT INTO "Promo" VALUES ('SPRING')`)
			if _, err := db.e.RunPlan(ctx, "shop", promoPlan); err != nil {
				t.Fatal(err)
			}
			db.exec(`DROP TABLE "Promo"`)
			_, err := db.e.RunPlan(ctx, "shop", promoPlan)
			var ee *Error
			if !errors.As(err, &ee) || !ee.Retryable || !strings.Contains(ee.Hint, "send the request again") {
				t.Fatalf("a table dropped after the snapshot: %v (retryable %v), want retryable, saying to send it again", err, ee != nil && ee.Retryable)
			}
			checkHonest(t, err)
			_, err = db.e.RunPlan(ctx, "shop", promoPlan)
			if !isIssue(err, "TABLE_NOT_FOUND") {
				t.Fatalf("the request sent again at once: %v, want the table named as not found", err)
			}
			checkHonest(t, err)
			if errors.As(err, &ee); ee.Retryable {
				t.Fatalf("a table that is gone, refused as retryable: %v", err)
			}
		})
	}
}

// checkHonest fails when err's hint and its retryable flag disagree: a
// hint telling the caller to send the request (or plan) again on an error
// not marked retryable, or a retryable one that does not say so.
func checkHonest(t *testing.T, err error) {
	t.Helper()
	var ee *Error
	if !errors.As(err, &ee) {
		t.Fatalf("%v is not an *Error", err)
	}
	again := strings.Contains(ee.Hint, "send the request again") || strings.Contains(ee.Hint, "send the plan again")
	if again != ee.Retryable {
		t.Fatalf("hint %q with retryable %v", ee.Hint, ee.Retryable)
	}
}
