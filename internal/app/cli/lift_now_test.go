package cli

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: date('now', '-30 days'), the first thing a SQLite user
// writes for "the last 30 days", did not lift ("date() with modifiers"),
// and date('now') against a text column of dates lifted to a plan the
// validator refused (text against date). Whole days and the start of a
// month or year lift, and the lifted plan counts what SQLite itself
// counts with the SQL, over text and DATETIME columns alike; months and
// years stay refused (SQLite runs past a month's end where DATE_ADD stops).
func TestRelativeSQLiteDatesLiftToTheirMeaning(t *testing.T) {
	today := time.Now().UTC()
	var rows []string
	for i := range 120 {
		d := today.AddDate(0, 0, -i)
		rows = append(rows, fmt.Sprintf("(%d, '%s', '%s 12:00:00')", i, d.Format("2006-01-02"), d.Format("2006-01-02")))
	}
	db := sourcetest.TempDB(t, "CREATE TABLE ev (id INTEGER PRIMARY KEY, d TEXT, dt DATETIME)", "INSERT INTO ev VALUES "+strings.Join(rows, ", "))
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	storage := filepath.Join(t.TempDir(), "s")
	for _, where := range []string{
		"d >= date('now', '-30 days')",
		"d >= date('now', 'start of month')",
		"d < date(dt, '+1 day')",
		"dt >= date('now', '-7 days')",
		"dt >= datetime('now', '-45 days', 'start of month')",
		"d > date('now', 'start of year', '+10 days')",
	} {
		q := "SELECT COUNT(*) AS n FROM ev WHERE " + where
		var want int64
		if err := conn.QueryRow(q).Scan(&want); err != nil {
			t.Fatal(err)
		}
		plan, err := runCLI("plan", "from-sql", "--db", db, "--storage", storage, q)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		file := filepath.Join(t.TempDir(), "p.json")
		os.WriteFile(file, []byte(plan), 0o600)
		out, err := runCLI("plan", "run", "--db", db, "--storage", storage, "--json", file)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		var res struct{ Rows [][]any }
		if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Rows) != 1 {
			t.Fatalf("%s: %v %s", where, err, out)
		}
		if got := fmt.Sprint(res.Rows[0][0]); got != fmt.Sprint(want) {
			t.Errorf("%s: the lifted plan counts %s, SQLite %d", where, got, want)
		}
	}
	if _, err := runCLI("plan", "from-sql", "--db", db, "--storage", storage, "SELECT id FROM ev WHERE d > date('now', '-1 month')"); err == nil || !strings.Contains(err.Error(), `modifier "-1 month"`) {
		t.Errorf("a month modifier: %v, want it refused naming the modifier", err)
	}
}
