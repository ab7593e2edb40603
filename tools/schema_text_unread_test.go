package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// Threat: describe_schema showed bikes.purchased (DATETIME) with the range
// 2021-02-10..2023-07-07 and a note of its Unix times only, and
// stations.opened_on (DATE) with its range alone, while each holds a date
// written '15/01/2024' or '01/03/2021' that a plan reads as NULL: a host
// took the range's end for the latest date. The line must say how many
// values the range leaves out, with one of them, and name the Unix times
// once. The profile is SQLite's own, of a real file.
func TestSnapshotTextNamesDatesTheRangeLeavesOut(t *testing.T) {
	path := sourcetest.TempDB(t,
		"CREATE TABLE bikes (id INTEGER PRIMARY KEY, purchased DATETIME)",
		"INSERT INTO bikes VALUES (1, '2022-05-01 00:00:00'), (2, '2021-02-10'), (3, 1640995200), (4, 1672531200), (5, '2023-07-07T12:00:00'), (6, '15/01/2024')",
		"CREATE TABLE stations (id INTEGER PRIMARY KEY, opened_on DATE)",
		"INSERT INTO stations VALUES (1, '2019-04-01'), (2, '01/03/2021'), (3, '2021-03-01'), (4, NULL)",
		"CREATE TABLE rides (id INTEGER PRIMARY KEY, started_on DATE)",
		"INSERT INTO rides VALUES (1, '2024-01-01'), (2, '2024-02-01')")
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, "bikes", path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Profile(ctx, snap); err != nil {
		t.Fatal(err)
	}
	text := SnapshotText(snap)
	line := func(col string) string {
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), col+" ") {
				return l
			}
		}
		t.Fatalf("no line of %s in %s", col, text)
		return ""
	}
	for _, c := range []struct {
		col, want, once string
	}{
		{"purchased", `(1 other value is not an ISO date or timestamp, such as "15/01/2024": read as NULL and outside the range)`, "Unix"},
		{"opened_on", `(1 value is not an ISO date, such as "01/03/2021": read as NULL and outside the range)`, "read as NULL"},
		{"started_on", "", "read as NULL"},
	} {
		l := line(c.col)
		if !strings.Contains(l, c.want) {
			t.Errorf("line %q: want %q", l, c.want)
		}
		if n := strings.Count(l, c.once); n > 1 || c.want == "" && n > 0 {
			t.Errorf("line %q: %q said %d times", l, c.once, n)
		}
	}
}
