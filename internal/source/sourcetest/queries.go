package sourcetest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// NotADatabase writes n repetitions of "not a database " to path: a file
// no engine opens.
func NotADatabase(t *testing.T, path string, n int) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", n)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Snapshotter is what the schema tests need of an adapter.
type Snapshotter interface {
	Snapshot(ctx context.Context) (*schema.Snapshot, error)
}

// Snapshot reads a's snapshot, failing the test on an error.
func Snapshot(t testing.TB, a Snapshotter) *schema.Snapshot {
	t.Helper()
	snap, err := a.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// Profiler is what the profile tests need of an adapter.
type Profiler interface {
	Snapshotter
	Profile(ctx context.Context, snap *schema.Snapshot) error
}

// Profiled reads a's snapshot and profiles it, failing the test on an
// error.
func Profiled(t testing.TB, a Profiler) *schema.Snapshot {
	t.Helper()
	snap := Snapshot(t, a)
	if err := a.Profile(context.Background(), snap); err != nil {
		t.Fatal(err)
	}
	return snap
}

// Refusal is a query an adapter must refuse: with Code, and a message
// containing Msg.
type Refusal struct {
	SQL, Code, Msg string
}

// CheckRefusals runs each case through q with a cap of 10 rows.
func CheckRefusals(t *testing.T, q Querier, cases []Refusal) {
	t.Helper()
	for _, tt := range cases {
		_, err := q.Query(context.Background(), tt.SQL, nil, 10)
		if err == nil {
			t.Errorf("%q: accepted", tt.SQL)
			continue
		}
		se := AsError(t, err)
		if se.Code != tt.Code || !strings.Contains(se.Msg, tt.Msg) {
			t.Errorf("%q: %v, want %s containing %q", tt.SQL, se, tt.Code, tt.Msg)
		}
	}
}

// ValueCase is a query and the column types and rows (as JSON) it must
// return.
type ValueCase struct {
	SQL   string
	Types []planast.Type
	Rows  string
}

// CheckValueCases runs each case through q with a cap of 10 rows; a query
// naming $1 gets the arguments 41 and "x".
func CheckValueCases(t *testing.T, q Querier, cases []ValueCase) {
	t.Helper()
	for _, tt := range cases {
		var args []any
		if strings.Contains(tt.SQL, "$1") {
			args = []any{41, "x"}
		}
		res, err := q.Query(context.Background(), tt.SQL, args, 10)
		if err != nil {
			t.Errorf("%s: %v", tt.SQL, err)
			continue
		}
		rows, err := json.Marshal(res.Rows)
		if err != nil {
			t.Errorf("%s: %v", tt.SQL, err)
			continue
		}
		if string(rows) != tt.Rows || !reflect.DeepEqual(res.ColumnTypes, tt.Types) {
			t.Errorf("%s:\n got %s %v\nwant %s %v", tt.SQL, rows, res.ColumnTypes, tt.Rows, tt.Types)
		}
	}
}

// CheckConcurrentCounts runs sql with the argument i from 16 goroutines at
// once (i from 0 to 15); each must answer one row holding want(i).
func CheckConcurrentCounts(t *testing.T, q Querier, sql string, want func(i int) int64) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := q.Query(context.Background(), sql, []any{i}, 1)
			if err != nil {
				errs <- err
				return
			}
			if res.Rows[0][0] != want(i) {
				errs <- errors.New("wrong count")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// CheckRowLimits checks Options.RowLimit on a table t (a) holding 1, 2 and
// 3: two is the adapter opened with RowLimit 2, three with RowLimit 3. A
// query's cap is the smaller of its own (0: none) and the limit, and a
// result that fits the cap exactly, or is empty, is not truncated.
func CheckRowLimits(t *testing.T, two, three Querier) {
	t.Helper()
	tests := []struct {
		maxRows   int
		rows      int
		truncated bool
	}{
		{0, 2, true},  // Options.RowLimit
		{10, 2, true}, // capped by Options.RowLimit
		{1, 1, true},
		{2, 2, true},
	}
	for _, tt := range tests {
		res, err := two.Query(context.Background(), "SELECT a FROM t ORDER BY a", nil, tt.maxRows)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != tt.rows || res.Truncated != tt.truncated {
			t.Errorf("maxRows %d: %d rows, truncated %v; want %d, %v", tt.maxRows, len(res.Rows), res.Truncated, tt.rows, tt.truncated)
		}
	}
	res, err := three.Query(context.Background(), "SELECT a FROM t", nil, 3)
	if err != nil || len(res.Rows) != 3 || res.Truncated {
		t.Errorf("exact fit: %+v, %v", res, err)
	}
	res, err = three.Query(context.Background(), "SELECT a FROM t WHERE a > 5", nil, 3)
	if err != nil || len(res.Rows) != 0 || res.Rows == nil || res.Truncated || len(res.Columns) != 1 {
		t.Errorf("empty result: %+v, %v", res, err)
	}
}
