package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: SQLite stores '15/01/2024' in a DATE column, an epoch
// 1705312800 or 'yesterday' in a DATETIME one, 'abc' in a REAL one (whose
// cast to text is otherwise refused: engines print numbers differently);
// a plan reads them as NULL,
// as every other engine must (none could store them), and the warning
// says so, but a user asking "which rows hold a bad date?" to mend them
// could not see one: a cast to text read NULL too. The column cast to text
// shows the text stored for those values (the others as their type reads
// them), with no warning that they read as NULL, and the bare column's
// warning says so.
func TestCastToTextShowsValuesTheTypeCannotRead(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE m (id INTEGER PRIMARY KEY, d DATE, ts DATETIME, f REAL)",
		"INSERT INTO m VALUES (1, '2024-01-20', '2024-01-15T10:00:00+05:30', 1.5), (2, '15/01/2024', 1705312800, 'abc'), (3, NULL, 'yesterday', NULL)")
	e := airEngine(t, db, nil)
	ctx := context.Background()
	col := func(c string) string { return `{"kind":"column","table":"m","column":"` + c + `"}` }
	res, err := e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":`+col("id")+`},{"expr":{"kind":"cast","type":"text","expr":`+col("d")+`},"alias":"d"},{"expr":{"kind":"cast","type":"text","expr":`+col("ts")+`},"alias":"ts"},{"expr":{"kind":"cast","type":"text","expr":`+col("f")+`},"alias":"f"}],"from":[{"table":"m","alias":"m"}],"order_by":[{"expr":`+col("id")+`}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[1 2024-01-20 2024-01-15 04:30:00 1.5] [2 15/01/2024 1705312800 abc] [3 <nil> yesterday <nil>]]" {
		t.Errorf("rows %s: want the stored text of the values the type cannot read, the others as it reads them", got)
	}
	if w := warningWith(res.Warnings, "read them as NULL"); w != "" {
		t.Errorf("the cast to text is warned of reading them as NULL: %q", w)
	}
	bare, err := e.RunPlan(ctx, "air", []byte(`{"select":[{"expr":`+col("d")+`}],"from":[{"table":"m","alias":"m"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if w := warningWith(bare.Warnings, "read them as NULL"); !strings.Contains(w, "cast to text shows them as stored") {
		t.Errorf("the bare column's warnings %q: want the way to see them named", bare.Warnings)
	}
}

// COUNT of a column whose stored values its type cannot read counts
// fewer rows than the same SQL in SQLite itself ("how many orders were
// shipped": 134 where 234 hold a date or a Unix time), and a warning
// that listed sums, averages and comparisons read as if the count were
// safe: it names COUNT.
func TestCountOfValuesReadAsNullIsWarned(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE m (id INTEGER PRIMARY KEY, ts DATETIME)",
		"INSERT INTO m VALUES (1, '2024-01-15 10:00:00'), (2, 1705312800), (3, 'yesterday'), (4, NULL)")
	e := airEngine(t, db, nil)
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[{"kind":"column","table":"m","column":"ts"}]},"alias":"shipped"}],"from":[{"table":"m","alias":"m"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows); got != "[[1]]" {
		t.Errorf("rows %s: want the one value a timestamp column reads", got)
	}
	if w := warningWith(res.Warnings, "read them as NULL"); !strings.Contains(w, "COUNT") {
		t.Errorf("warnings %q: want the count named among what leaves those values out", res.Warnings)
	}
}
