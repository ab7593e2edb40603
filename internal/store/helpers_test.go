package store

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// TestMain runs a child role instead of the tests when the test binary was
// re-executed by a multi-process test (see process_test.go).
func TestMain(m *testing.M) {
	if role := os.Getenv(childRoleEnv); role != "" {
		os.Exit(runChild(role))
	}
	os.Exit(m.Run())
}

// chinookPath is Chinook's snapshot, profiled, as internal/source built it
// from examples/chinook/chinook.sqlite (indented JSON).
const chinookPath = "testdata/chinook.snapshot.json"

var chinookOnce = sync.OnceValues(func() ([]byte, error) { return os.ReadFile(chinookPath) })

// chinook returns a fresh copy of Chinook's snapshot, profile values in the
// result encoding (int64, float64, string, bool).
func chinook(tb testing.TB) *schema.Snapshot {
	tb.Helper()
	b, err := chinookOnce()
	if err != nil {
		tb.Fatal(err)
	}
	snap, err := decodeSnapshot(b)
	if err != nil {
		tb.Fatal(err)
	}
	return snap
}

// clone deep-copies snap through its canonical JSON.
func clone(tb testing.TB, snap *schema.Snapshot) *schema.Snapshot {
	tb.Helper()
	c, err := decodeSnapshot(canonicalJSON(snap))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// withRowCount returns a copy of snap whose table name has n rows.
func withRowCount(tb testing.TB, snap *schema.Snapshot, table string, n int64) *schema.Snapshot {
	tb.Helper()
	c := clone(tb, snap)
	t, ok := c.Lookup("", table)
	if !ok {
		tb.Fatalf("no table %s", table)
	}
	t.RowCount = &n
	return c
}

// small is a tiny profiled snapshot with every kind of profile value.
func small(ds string) *schema.Snapshot {
	n := int64(3)
	return &schema.Snapshot{
		Datasource: ds,
		Dialect:    schema.DialectSQLite,
		Tables: []schema.Table{
			{Schema: "main", Name: "a", Kind: schema.KindView,
				Columns: []schema.Column{{Name: "id", DeclaredType: "INTEGER", Type: "integer"}}},
			{Schema: "main", Name: "t", Kind: schema.KindTable, RowCount: &n,
				Columns: []schema.Column{
					{Name: "id", DeclaredType: "INTEGER", Type: "integer", Profile: &schema.ColumnProfile{
						DistinctCount: 3, Min: int64(1), Max: int64(1<<53 - 1),
						SampleValues: []any{int64(1), int64(2), int64(1<<53 - 1)}, AllValues: true}},
					{Name: "x", DeclaredType: "REAL", Type: "float", Nullable: true, Profile: &schema.ColumnProfile{
						DistinctCount: 2, NullFraction: 1.0 / 3, Min: -2.5, Max: 1e21,
						SampleValues: []any{-2.5, 0.1, 1e21, 3.0, math.Copysign(0, -1), nil, 5e-324, math.MaxFloat64, int64(math.MinInt64)}}},
					{Name: "s", DeclaredType: "TEXT", Type: "text", Profile: &schema.ColumnProfile{
						DistinctCount: 3, SampleValues: []any{"12", "a\"b", "\u00e9<>&", true, "9007199254740993", "line\u2028sep\x00\x1f\\/", "\U0001F600 \u202e"}}},
				}},
		},
	}
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// open opens a store in a fresh temporary directory, closed at cleanup.
func open(tb testing.TB, opts ...Option) *Store {
	tb.Helper()
	s, err := Open(context.Background(), tb.TempDir(), opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// count runs a COUNT query (? placeholders, rebound for PostgreSQL).
func count(tb testing.TB, s *Store, query string, args ...any) int {
	tb.Helper()
	var n int
	if err := s.db.QueryRow(s.q(query), args...).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// codeOfErr returns err's *Error code, "" for nil, and fails for any other
// error type.
func codeOfErr(tb testing.TB, err error) string {
	tb.Helper()
	if err == nil {
		return ""
	}
	var se *Error
	if !errors.As(err, &se) {
		tb.Fatalf("error %T is not *store.Error: %v", err, err)
	}
	return se.Code
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
