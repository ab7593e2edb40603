package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a user adds a table (or drops a column) while the server
// runs. Without a schema check the running server answered from the
// schema it read at start: "there is no table named …" for the new
// table, the engine's bare "no such column" for the dropped one, until a
// restart nobody told them about. And a server that re-read everything on
// every write would re-profile a busy database without end.
func TestSchemaChangedWhileServingIsReadAgain(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = 0
	path := copyChinook(t)
	e := shopEngine(t, path)
	checkSchemaWatch(t, e, func(stmts ...string) { sourcetest.ExecWritable(t, path, stmts...) })
}

// The same on PostgreSQL, through a role that may only read (the new
// table is granted to it by default privileges, as a reporting role's
// usually are).
func TestSchemaChangedWhileServingIsReadAgainOnPostgres(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = 0
	r := pgtest.NewReader(t, "watch")
	pgtest.Exec(t, r.Super, `ALTER DEFAULT PRIVILEGES IN SCHEMA `+r.Name+` GRANT SELECT ON TABLES TO `+r.Role,
		`CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY, "Name" TEXT)`,
		`INSERT INTO "Artist" VALUES (1, 'AC/DC'), (2, 'Accept')`)
	e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
		Datasources: []DatasourceSpec{{ID: "shop", Engine: "postgres", DSN: r.URL.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	checkSchemaWatch(t, e, func(stmts ...string) { pgtest.Exec(t, r.Super, stmts...) })
}

func checkSchemaWatch(t *testing.T, e *Engine, exec func(stmts ...string)) {
	t.Helper()
	ctx := context.Background()
	promo := []byte(`{"select":[{"expr":{"kind":"column","table":"p","column":"code"}}],"from":[{"table":"Promo","alias":"p"}]}`)
	artists := []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`)
	if _, err := e.RunPlan(ctx, "shop", promo); !isIssue(err, "TABLE_NOT_FOUND") {
		t.Fatalf("before the table exists: %v", err)
	}
	before, _ := e.sources.Ready("shop")

	// writes of data alone read nothing again
	exec(`INSERT INTO "Artist" ("ArtistId", "Name") VALUES (9001, 'New Band')`)
	if _, err := e.RunPlan(ctx, "shop", artists); err != nil {
		t.Fatal(err)
	}
	if now, _ := e.sources.Ready("shop"); now != before {
		t.Fatal("a write of data made the server read the datasource again")
	}

	exec(`CREATE TABLE "Promo" (code TEXT, pct INTEGER)`, `INSERT INTO "Promo" VALUES ('SPRING', 10)`)
	res, err := e.RunPlan(ctx, "shop", promo)
	if err != nil {
		t.Fatalf("a table created while the server runs: %v", err)
	}
	if len(res.Rows) != 1 || res.Rows[0][0] != "SPRING" {
		t.Fatalf("rows %v, want [[SPRING]]", res.Rows)
	}

	// a plan that ran before the drop, sent again after it, is checked
	// against the schema of now, not served from what it gave before
	pct := []byte(`{"select":[{"expr":{"kind":"column","table":"p","column":"pct"}}],"from":[{"table":"Promo","alias":"p"}]}`)
	if _, err := e.RunPlan(ctx, "shop", pct); err != nil {
		t.Fatalf("before the drop: %v", err)
	}
	exec(`ALTER TABLE "Promo" DROP COLUMN pct`)
	if _, err := e.RunPlan(ctx, "shop", pct); !isIssue(err, "COLUMN_NOT_FOUND") {
		t.Fatalf("a dropped column: %v, want the plan refused as naming no column", err)
	}
}

// isIssue reports whether err is a refused plan with an issue of code.
func isIssue(err error, code string) bool {
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != CodePlanInvalid {
		return false
	}
	for _, is := range ee.Issues {
		if strings.EqualFold(string(is.Code), code) {
			return true
		}
	}
	return false
}

// While a changed schema is still being read again, a plan naming what
// is new is refused as retryable, saying why, and the other plans are
// answered meanwhile from the schema read before.
func TestPlanDuringReReadSaysRetry(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = 0
	path := copyChinook(t)
	release := make(chan struct{})
	var opens atomic.Int32
	e, err := New(Options{OpenWait: 50 * time.Millisecond,
		Datasources: []DatasourceSpec{{ID: "shop", Engine: "sqlite", Path: path}},
		Open: func(ctx context.Context, spec DatasourceSpec) (Source, error) {
			src, err := openAdapter(ctx, spec)
			if err != nil || opens.Add(1) == 1 {
				return src, err
			}
			return slowSource{src, release}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	ctx := context.Background()
	artists := []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`)
	if _, err := e.sources.Await(ctx, "shop", time.Minute); err != nil { // the first open
		t.Fatal(err)
	}
	sourcetest.ExecWritable(t, path, `CREATE TABLE "Promo" (code TEXT)`, `INSERT INTO "Promo" VALUES ('SPRING')`)
	promo := []byte(`{"select":[{"expr":{"kind":"column","table":"p","column":"code"}}],"from":[{"table":"Promo","alias":"p"}]}`)
	_, err = e.RunPlan(ctx, "shop", promo)
	var ee *Error
	if !errors.As(err, &ee) || !ee.Retryable || !strings.Contains(ee.Hint, "being read again") {
		t.Fatalf("a plan naming the new table while the schema is read again: %v (retryable %v)", err, ee != nil && ee.Retryable)
	}
	if _, err := e.RunPlan(ctx, "shop", artists); err != nil {
		t.Fatalf("another plan during the re-read: %v", err)
	}
	free()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := e.RunPlan(ctx, "shop", promo)
		if err == nil {
			if len(res.Rows) != 1 {
				t.Fatalf("rows %v", res.Rows)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the re-read: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The threat: a server runs for weeks on a database that keeps growing.
// Its profile, read at start, says the orders run up to 2020, so the
// host's schema context gives that range and an empty result blames a
// 2026 filter on data that is in fact there. The rule a restart applies
// (a profile older than its maximum age is read again when the data
// changed) must hold for a server that does not restart, and a server
// whose data did not change must not profile it again.
func TestProfileOlderThanMaxAgeIsReadAgainWhileServing(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = 0
	path := sourcetest.TempDB(t, `CREATE TABLE orders (id INTEGER PRIMARY KEY, placed DATE)`,
		`INSERT INTO orders VALUES (1, '2019-03-01'), (2, '2020-07-15')`)
	e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second, ProfileMaxAge: 200 * time.Millisecond,
		Datasources: []DatasourceSpec{{ID: "shop", Engine: "sqlite", Path: path}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	maxPlaced := func() any {
		snap, err := e.VisibleSnapshot(ctx, "shop")
		if err != nil {
			t.Fatal(err)
		}
		tb, _ := snap.Lookup("main", "orders")
		c, _ := tb.Column("placed")
		return c.Profile.Max
	}
	if got := maxPlaced(); got != "2020-07-15" {
		t.Fatalf("profiled max %v", got)
	}
	first, _ := e.sources.Ready("shop")
	time.Sleep(300 * time.Millisecond)
	maxPlaced()
	if now, _ := e.sources.Ready("shop"); now != first || e.sources.Renewing("shop") {
		t.Fatal("a datasource whose data did not change was profiled again")
	}

	sourcetest.ExecWritable(t, path, `INSERT INTO orders VALUES (3, '2026-11-30')`)
	time.Sleep(300 * time.Millisecond)
	deadline := time.Now().Add(20 * time.Second)
	for maxPlaced() != "2026-11-30" {
		if time.Now().After(deadline) {
			t.Fatalf("after its data changed and its profile aged, the max is still %v", maxPlaced())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A table created a moment after the last schema check is what a plan
// that names it comes for: it is answered at once, not refused until the
// next periodic check (a host that reads "no such table" gives up), even
// when the last check was a moment ago.
func TestNewTableAnsweredBeforeTheNextPeriodicCheck(t *testing.T) {
	defer func(d time.Duration) { schemaCheckEvery = d }(schemaCheckEvery)
	schemaCheckEvery = time.Hour
	path := copyChinook(t)
	e := shopEngine(t, path)
	ctx := context.Background()
	artists := []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`)
	if _, err := e.RunPlan(ctx, "shop", artists); err != nil {
		t.Fatal(err)
	}
	sourcetest.ExecWritable(t, path, `CREATE TABLE "Promo" (code TEXT)`, `INSERT INTO "Promo" VALUES ('SPRING')`)
	promo := []byte(`{"select":[{"expr":{"kind":"column","table":"p","column":"code"}}],"from":[{"table":"Promo","alias":"p"}]}`)
	if res, err := e.RunPlan(ctx, "shop", promo); err != nil || len(res.Rows) != 1 {
		t.Fatalf("a table created after the last check: %v", err)
	}
}

// shopEngine is an engine on a copy of Chinook at path, datasource shop.
func shopEngine(t testing.TB, path string) *Engine {
	t.Helper()
	e, err := New(Options{Open: openAdapter, OpenWait: 30 * time.Second,
		Datasources: []DatasourceSpec{{ID: "shop", Engine: "sqlite", Path: path}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
