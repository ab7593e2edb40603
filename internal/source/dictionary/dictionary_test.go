package dictionary_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/dictionary"
	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// adapter is what the tests need of a datasource.
type adapter interface {
	dictionary.Querier
	Snapshot(ctx context.Context) (*schema.Snapshot, error)
}

// opener builds a database of statements on one engine and opens it.
type opener struct {
	name string
	open func(t *testing.T, stmts ...string) adapter
}

var engines = []opener{
	{"sqlite", func(t *testing.T, stmts ...string) adapter {
		return sourcetest.Open(t, sqlite.OpenSQLite, sourcetest.TempDB(t, stmts...), source.Options{})
	}},
	{"duckdb", func(t *testing.T, stmts ...string) adapter {
		return sourcetest.Open(t, duckdb.OpenDuckDB, sourcetest.DuckTempDB(t, stmts...), source.Options{})
	}},
	{"postgres", func(t *testing.T, stmts ...string) adapter {
		f := sourcetest.NewPGFixture(t, stmts...)
		return sourcetest.Open(t, postgres.OpenPostgres, f.ReadOnly, source.Options{})
	}},
}

// shop is a database whose rules live only in a documentation table.
var shop = []string{
	`CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT, is_test INTEGER)`,
	`CREATE TABLE ratings (id INTEGER PRIMARY KEY, account_id INTEGER, rating REAL)`,
	`CREATE TABLE refunds (id INTEGER PRIMARY KEY, order_code TEXT)`,
	`CREATE TABLE data_dictionary (id INTEGER PRIMARY KEY, table_name TEXT, column_name TEXT, note TEXT)`,
	// the two rules of order_code are stored, and sort by their text, in
	// the other order than their keys: the key orders them
	`INSERT INTO data_dictionary VALUES
		(4, 'refunds', 'order_code', 'and set on refunds before March 2024'),
		(3, 'refunds', 'order_code', 'order_code is ''ORD-'' + zero-padded order id,'),
		(1, 'accounts', 'is_test', 'accounts with an @example.com email are test accounts whatever is_test says'),
		(2, 'Ratings', 'RATING', '0 is never a real rating (app < 4.0)'),
		(5, 'refunds', NULL, 'one row per refund issued'),
		(6, 'drivers', 'name', 'a table this database no longer has')`,
}

// attached reads a's snapshot with the notes of its documentation tables.
func attached(t *testing.T, a adapter) *schema.Snapshot {
	t.Helper()
	snap := sourcetest.Snapshot(t, a)
	dictionary.Attach(context.Background(), snap, a, slog.New(slog.NewTextHandler(io.Discard, nil)))
	return snap
}

// A rule kept only in a documentation table reaches the schema as the
// note of the column it names, on every engine, marked with where it
// came from; the table stays a table.
func TestAttachReadsADocumentationTableOnEachEngine(t *testing.T) {
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			snap := attached(t, e.open(t, shop...))
			from := schema.Relation{Schema: snap.Default(), Name: "data_dictionary"}
			for _, want := range []struct{ table, col, note string }{
				{"accounts", "is_test", "accounts with an @example.com email are test accounts whatever is_test says"},
				{"ratings", "rating", "0 is never a real rating (app < 4.0)"},
				{"refunds", "order_code", "order_code is 'ORD-' + zero-padded order id, and set on refunds before March 2024"},
			} {
				c := sourcetest.Column(t, snap, want.table, want.col)
				if c.Comment != want.note || c.CommentFrom == nil || *c.CommentFrom != from {
					t.Errorf("%s.%s: note %q from %v, want %q from %v", want.table, want.col, c.Comment, c.CommentFrom, want.note, from)
				}
			}
			if tb, _ := snap.Lookup("", "refunds"); tb.Comment != "one row per refund issued" || tb.CommentFrom == nil {
				t.Errorf("refunds: table note %q from %v", tb.Comment, tb.CommentFrom)
			}
			if c := sourcetest.Column(t, snap, "accounts", "email"); c.Comment != "" || c.CommentFrom != nil {
				t.Errorf("accounts.email has a note no row gave it: %q", c.Comment)
			}
			want := []schema.Dictionary{{Schema: snap.Default(), Name: "data_dictionary", TableColumn: "table_name", ColumnColumn: "column_name", NoteColumn: "note"}}
			if len(snap.Dictionaries) != 1 || snap.Dictionaries[0] != want[0] {
				t.Errorf("dictionaries %+v, want %+v", snap.Dictionaries, want)
			}
			if _, ok := snap.Lookup("", "data_dictionary"); !ok {
				t.Error("the documentation table is no longer a table of the snapshot")
			}
		})
	}
}

// The database's own comment is what its owners declared: a row of a
// documentation table does not replace it.
func TestAttachKeepsARealComment(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		snap := attached(t, engines[0].open(t, append(shop,
			"CREATE TABLE reviews (id INTEGER PRIMARY KEY,\n stars INTEGER -- stars from 1 to 5\n)",
			`INSERT INTO data_dictionary VALUES (7, 'reviews', 'stars', 'stars are never zero here')`)...))
		if c := sourcetest.Column(t, snap, "reviews", "stars"); c.Comment != "stars from 1 to 5" || c.CommentFrom != nil {
			t.Errorf("reviews.stars: %q from %v, want its DDL comment", c.Comment, c.CommentFrom)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		snap := attached(t, engines[2].open(t, append(shop,
			`COMMENT ON COLUMN ratings.rating IS 'stars from 1 to 5'`,
			`COMMENT ON TABLE refunds IS 'refunds as the payment provider reports them'`)...))
		if c := sourcetest.Column(t, snap, "ratings", "rating"); c.Comment != "stars from 1 to 5" || c.CommentFrom != nil {
			t.Errorf("ratings.rating: %q from %v, want its COMMENT ON", c.Comment, c.CommentFrom)
		}
		if tb, _ := snap.Lookup("", "refunds"); tb.Comment != "refunds as the payment provider reports them" || tb.CommentFrom != nil {
			t.Errorf("refunds: %q from %v, want its COMMENT ON", tb.Comment, tb.CommentFrom)
		}
		if c := sourcetest.Column(t, snap, "accounts", "is_test"); c.CommentFrom == nil {
			t.Error("accounts.is_test, which has no COMMENT ON, got no note")
		}
	})
}

// A table that names tables is no documentation table unless it also
// holds prose, about few rows per object: an audit log's rows would
// otherwise become every table's note.
func TestAttachLeavesOtherTablesThatNameTables(t *testing.T) {
	base := []string{
		`CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT)`,
	}
	for _, tc := range []struct {
		name  string
		stmts []string
	}{
		{"an audit log of actions", []string{
			`CREATE TABLE audit_log (id INTEGER PRIMARY KEY, table_name TEXT, action TEXT, changed_at TEXT)`,
			`INSERT INTO audit_log VALUES (1, 'accounts', 'INSERT', '2024-01-01 10:00:00'), (2, 'orders', 'UPDATE', '2024-01-02 11:00:00'),
				(3, 'orders', 'DELETE', '2024-01-03 12:00:00')`,
		}},
		{"a log that says what changed", []string{
			`CREATE TABLE change_log (id INTEGER PRIMARY KEY, table_name TEXT, description TEXT)`,
			`INSERT INTO change_log VALUES (1, 'orders', 'status set to shipped'), (2, 'orders', 'status set to paid'),
				(3, 'orders', 'status set to shipped'), (4, 'orders', 'status set to refunded'),
				(5, 'accounts', 'email changed by support'), (6, 'accounts', 'email changed by support'),
				(7, 'accounts', 'email changed by its owner'), (8, 'orders', 'status set to paid')`,
		}},
		{"names that are mostly no table", []string{
			`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, description TEXT)`,
			`INSERT INTO products VALUES (1, 'orders', 'a box to keep orders in'), (2, 'desk lamp', 'a lamp for a desk'),
				(3, 'chair', 'a chair with wheels'), (4, 'pen', 'a blue pen that writes')`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := attached(t, engines[0].open(t, append(base, tc.stmts...)...))
			for _, tb := range snap.Tables {
				if tb.Comment != "" {
					t.Errorf("%s got the note %q", tb.Name, tb.Comment)
				}
				for _, c := range tb.Columns {
					if c.Comment != "" {
						t.Errorf("%s.%s got the note %q", tb.Name, c.Name, c.Comment)
					}
				}
			}
			if len(snap.Dictionaries) != 0 {
				t.Errorf("dictionaries %+v", snap.Dictionaries)
			}
		})
	}
}

// The other shapes a documentation table takes: no declared types
// (SQLite), "table.column" in one column, a note column named otherwise,
// and several of them, the first read giving an object its note.
func TestAttachReadsOtherShapes(t *testing.T) {
	snap := attached(t, engines[0].open(t,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, total REAL)`,
		`CREATE TABLE glossary (field, definition, updated_by)`,
		`INSERT INTO glossary VALUES ('orders.status', 'shipped means handed to the courier', 'ana'),
			('ORDERS.total', 'includes the delivery fee', 'ana')`,
		`CREATE TABLE table_notes (entity TEXT, remarks TEXT)`,
		`INSERT INTO table_notes VALUES ('orders', 'one row per order placed in the app'),
			('orders.status', 'a second note, from a later table')`,
	))
	for col, want := range map[string]string{"status": "shipped means handed to the courier", "total": "includes the delivery fee"} {
		if c := sourcetest.Column(t, snap, "orders", col); c.Comment != want || c.CommentFrom == nil || c.CommentFrom.Name != "glossary" {
			t.Errorf("orders.%s: %q from %v, want %q from glossary", col, c.Comment, c.CommentFrom, want)
		}
	}
	if tb, _ := snap.Lookup("", "orders"); tb.Comment != "one row per order placed in the app" || tb.CommentFrom == nil || tb.CommentFrom.Name != "table_notes" {
		t.Errorf("orders: %q from %v", tb.Comment, tb.CommentFrom)
	}
	if len(snap.Dictionaries) != 2 || snap.Dictionaries[0].Name != "glossary" || snap.Dictionaries[0].NoteColumn != "definition" ||
		snap.Dictionaries[1].Name != "table_notes" || snap.Dictionaries[1].ColumnColumn != "" {
		t.Errorf("dictionaries %+v", snap.Dictionaries)
	}
}

// The same data gives the same snapshot, byte for byte, and a note longer
// than a comment may be is cut.
func TestAttachIsDeterministicAndBounded(t *testing.T) {
	long := strings.Repeat("a long rule ", 200)
	a := engines[0].open(t, append(shop, `INSERT INTO data_dictionary VALUES (8, 'accounts', 'email', '`+long+`')`)...)
	one, two := attached(t, a), attached(t, a)
	if one.Fingerprint() != two.Fingerprint() {
		t.Error("two reads of the same data differ")
	}
	c := sourcetest.Column(t, one, "accounts", "email")
	if len(c.Comment) > schema.MaxCommentBytes+len("…") || !strings.HasSuffix(c.Comment, "…") {
		t.Errorf("a note of %d bytes kept %d: %q…", len(long), len(c.Comment), c.Comment[:40])
	}
}

// failing fails every query.
type failing struct{}

func (failing) Query(context.Context, string, []any, int) (*source.Result, error) {
	return nil, errors.New("disk I/O error")
}

// A documentation table that cannot be read leaves the snapshot as it
// was introspected, and says so in the log.
func TestAttachFailureLeavesTheSnapshot(t *testing.T) {
	snap := sourcetest.Snapshot(t, engines[0].open(t, shop...))
	before := snap.Fingerprint()
	var log bytes.Buffer
	dictionary.Attach(context.Background(), snap, failing{}, slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if snap.Fingerprint() != before {
		t.Error("a failed read changed the snapshot")
	}
	if !strings.Contains(log.String(), "disk I/O error") {
		t.Errorf("the failure is not logged: %s", log.String())
	}
}

// hanging answers no query before its context ends.
type hanging struct{}

func (hanging) Query(ctx context.Context, _ string, _ []any, _ int) (*source.Result, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// A database that never answers holds the open up no longer than the
// read's time limit, and leaves the snapshot as introspected.
func TestAttachGivesUpAfterItsTimeLimit(t *testing.T) {
	defer dictionary.SetBudget(50 * time.Millisecond)()
	snap := sourcetest.Snapshot(t, engines[0].open(t, shop...))
	before := snap.Fingerprint()
	var log bytes.Buffer
	start := time.Now()
	dictionary.Attach(context.Background(), snap, hanging{}, slog.New(slog.NewTextHandler(&log, nil)))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Attach took %v against a limit of 50ms", took)
	}
	if snap.Fingerprint() != before || !strings.Contains(log.String(), "took too long") {
		t.Errorf("snapshot changed %v; log: %s", snap.Fingerprint() != before, log.String())
	}
}
