package sqlite

import (
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"strings"
	"testing"
	"time"
)

// The threat: SQLite has no COMMENT ON, so a schema's authors describe
// their columns in comments of the CREATE TABLE text ("'POPLATEK TYDNE'
// stands for weekly issuance"). Dropping them leaves the planner and the
// host guessing codes that the database itself explains.
func TestSQLiteColumnCommentsFromDDL(t *testing.T) {
	path := sourcetest.TempDB(t, `CREATE TABLE account (
-- Unique identifier of the account
-- (one per customer)
account_id integer PRIMARY KEY,
frequency text, -- 'POPLATEK TYDNE' stands for weekly issuance
"opened on" date /* when the account was opened */ NOT NULL,
[branch] integer,
amount DECIMAL(10, 2) -- in CZK
  CHECK (amount >= 0 -- never negative
  ),
-- about the key below, not a column
FOREIGN KEY (branch) REFERENCES branch(id)
-- after everything
)`, `CREATE TABLE branch (id integer primary key, name text)`,
		`CREATE VIEW v AS SELECT account_id /* not a column comment */ FROM account`)
	s := openTest(t, path, source.Options{Timeout: 5 * time.Second})
	snap := sourcetest.Snapshot(t, s)
	acc, ok := snap.Lookup("main", "account")
	if !ok {
		t.Fatal("no table account")
	}
	want := map[string]string{
		"account_id": "Unique identifier of the account (one per customer)",
		"frequency":  "'POPLATEK TYDNE' stands for weekly issuance",
		"opened on":  "when the account was opened",
		"branch":     "",
		"amount":     "in CZK",
	}
	for _, c := range acc.Columns {
		if c.Comment != want[c.Name] {
			t.Errorf("%s: comment %q, want %q", c.Name, c.Comment, want[c.Name])
		}
	}
	if br, _ := snap.Lookup("main", "branch"); br != nil {
		for _, c := range br.Columns {
			if c.Comment != "" {
				t.Errorf("branch.%s has comment %q", c.Name, c.Comment)
			}
		}
	}
	// comments are capped, and an unscannable text gives none instead of failing
	long := "CREATE TABLE t (\n-- " + strings.Repeat("x", 3000) + "\na int)"
	if c := ddlComments(long)["a"]; len(c) > maxCommentBytes+len("…") || !strings.HasSuffix(c, "…") {
		t.Errorf("a long comment kept %d bytes", len(c))
	}
	if got := ddlComments("CREATE TABLE t (a int -- x\x00)"); len(got) != 0 {
		t.Errorf("a NUL byte: %v", got)
	}
}
