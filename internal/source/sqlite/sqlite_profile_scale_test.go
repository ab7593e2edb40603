package sqlite

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// Profiling a big table must not scan it once or twice per column (176 s on
// 10M rows): SQLite reads every row in one statement, then only the
// bounded sample, one statement for the distinct counts and one per
// column for its values.
func TestSQLiteProfileScansOnce(t *testing.T) {
	s := openTest(t, sourcetest.TempDB(t, sourcetest.ProfileFixture...), source.Options{})
	snap := sourcetest.Snapshot(t, s)
	var mu sync.Mutex
	var stmts []string
	profileStatement = func(q string) { mu.Lock(); stmts = append(stmts, q); mu.Unlock() }
	defer func() { profileStatement = nil }()
	if err := s.Profile(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	full := 0
	for _, q := range stmts {
		if !strings.Contains(q, "LIMIT") && !strings.Contains(q, "GROUP BY") && !strings.Contains(q, "DISTINCT") {
			full++
		}
	}
	// 1 full scan, 1 distinct statement, 4 columns' values
	if full != 1 || len(stmts) != 6 {
		t.Errorf("%d statements, %d full scans without a sample:\n%s", len(stmts), full, strings.Join(stmts, "\n"))
	}
}
