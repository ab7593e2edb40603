package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// A newcomer types SQL where `plan run` takes a plan file and reads "open
// SELECT …: no such file". The error must say it is SQL and name the
// command that lifts SQL into a plan.
func TestSQLGivenAsPlanFileNamesFromSQL(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE a (x INTEGER)")
	_, err := runCLI("plan", "run", "--db", db, "--storage", filepath.Join(t.TempDir(), "s"), "SELECT * FROM a")
	e := engine.AsError(err)
	if e == nil || !strings.Contains(e.Hint, "plan from-sql") {
		t.Fatalf("SQL as the plan file: %v, want a hint naming plan from-sql", err)
	}
	if !strings.Contains(e.Msg, "is SQL, not a plan") || strings.Contains(e.Msg, "no such file or directory") {
		t.Errorf("SQL as the plan file: the message %q leads with a missing file", e.Msg)
	}
	// a statement that writes is SQL too, which no plan says
	_, err = runCLI("plan", "check", "--db", db, "--storage", filepath.Join(t.TempDir(), "s"), "DELETE FROM a")
	if e := engine.AsError(err); e == nil || !strings.Contains(e.Hint, "that is SQL, not a plan file") || !strings.Contains(e.Hint, "only read") {
		t.Errorf("DELETE as the plan file: %v, want the SQL hint", err)
	}
	_, err = runCLI("plan", "run", "--db", db, "--storage", filepath.Join(t.TempDir(), "s"), filepath.Join(t.TempDir(), "missing.json"))
	if e := engine.AsError(err); e == nil || strings.Contains(e.Hint, "from-sql") {
		t.Errorf("a missing plan file: %v, want the plan-file hint", err)
	}
}

// A newcomer pastes the plan's JSON where `plan run` and `plan check`
// take a file and reads "open {…}: no such file". The JSON is the plan.
func TestPlanGivenInlineIsThePlan(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE a (x INTEGER)", "INSERT INTO a VALUES (41), (42)")
	plan := ` {"select":[{"expr":{"kind":"column","table":"a","column":"x"}}],"from":[{"table":"a","alias":"a"}],"order_by":[{"expr":{"kind":"column","table":"a","column":"x"},"direction":"desc"}],"limit":1}`
	for _, cmd := range []string{"run", "check"} {
		out, err := runCLI("plan", cmd, "--db", db, "--storage", filepath.Join(t.TempDir(), "s"), plan)
		if err != nil {
			t.Fatalf("plan %s with the plan inline: %v", cmd, err)
		}
		if want := map[string]string{"run": "42", "check": `"x" DESC`}[cmd]; !strings.Contains(out, want) {
			t.Errorf("plan %s with the plan inline printed:\n%s\nwant %s", cmd, out, want)
		}
	}
}

// A question pasted into `plan from-sql` was refused as the SQL statement
// its first word names ("only a SELECT statement can be lifted (this one
// is SHOW)"): the hint says it reads as a question and names `ask`; SQL
// that fails to lift keeps its own hint.
func TestQuestionGivenToFromSQLNamesAsk(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE members (id INTEGER, name TEXT)")
	for _, tc := range []struct {
		text  string
		words bool
	}{
		{"show me the members please", true},
		{"which members joined last year", true},
		{"SELECT nme FROM members", false},
		{"PRAGMA table_info(members)", false},
	} {
		_, err := runCLI("plan", "from-sql", "--db", db, "--storage", filepath.Join(t.TempDir(), "s"), tc.text)
		e := engine.AsError(err)
		if e == nil {
			t.Fatalf("%q lifted", tc.text)
		}
		if got := strings.Contains(e.Hint, "reads as a question in words") && strings.Contains(e.Hint, "nl2sql ask"); got != tc.words {
			t.Errorf("%q: hint %q, question hint %v, want %v", tc.text, e.Hint, got, tc.words)
		}
	}
}
