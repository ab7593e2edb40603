package cli

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A person lifting SQL the plan language cannot say, or SQL that is not a
// valid query, gets the error every other command gives: a code a script
// can branch on and a hint saying what to do, not a bare "lift: ..." line.
func TestFromSQLErrorsAreTyped(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(t.TempDir(), "state")
	for _, c := range []struct {
		sql  string
		code engine.Code
	}{
		{"SELECT GROUP_CONCAT(Name) FROM Artist", CodePlanUnsupported},
		{"SELECT nope FROM Artist", engine.CodeInvalidRequest},
		{"SELECT FROM WHERE", engine.CodeInvalidRequest},
	} {
		_, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, c.sql)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Code != c.code || ee.Hint == "" {
			t.Errorf("plan from-sql %q: %v, want %s with a hint", c.sql, err, c.code)
		}
	}
	if out, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, "SELECT Name FROM Artist"); err != nil {
		t.Errorf("plan from-sql of a plain query: %v\n%s", err, out)
	}
}
