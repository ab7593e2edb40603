package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/postgres"

	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// `ask --db <superuser DSN>` is refused with a hint naming
// --allow-writable-role, and with the flag it opens and hands the question
// over; the flag without --db is refused, not silently ignored.
func TestAllowWritableRoleFlag(t *testing.T) {
	super := pgtest.Schema(t, pgtest.DSN(t))
	pgtest.Exec(t, super, `CREATE TABLE crates (id BIGINT PRIMARY KEY, port TEXT NOT NULL)`)
	q := "Which port did each crate go to?"

	out, err := runCLI("ask", "--db", "dev="+super, "--storage", t.TempDir(), "--json", q)
	var failed struct {
		Error struct{ Code, Hint string } `json:"error"`
	}
	if err == nil || json.Unmarshal([]byte(out), &failed) != nil || !strings.Contains(failed.Error.Hint, "--allow-writable-role") {
		t.Errorf("without the flag: err %v, stdout %q", err, out)
	}

	out, err = runCLI("ask", "--db", "dev="+super, "--allow-writable-role", "--storage", t.TempDir(), "--json", q)
	var handed struct{ Kind, Datasource string }
	if err != nil || json.Unmarshal([]byte(out), &handed) != nil || handed.Kind != "plan_it_yourself" || handed.Datasource != "dev" {
		t.Errorf("with the flag: err %v, stdout %q", err, out)
	}

	if _, err := runCLI("ask", "--allow-writable-role", "--json", q); err == nil || !strings.Contains(err.Error(), "goes with --db") {
		t.Errorf("the flag without --db: %v", err)
	}
}

// doctor refuses the same superuser DSN; its line must carry the same hint
// as ask's error, or the operator is left without the way out.
func TestDoctorWritableRoleHint(t *testing.T) {
	super := pgtest.Schema(t, pgtest.DSN(t))
	pgtest.Exec(t, super, `CREATE TABLE crates (id BIGINT PRIMARY KEY)`)
	out, err := runCLI("doctor", "--db", "dev="+super, "--storage", t.TempDir())
	if err == nil || !strings.Contains(out, "datasource dev (postgres): FAILED: DATASOURCE_UNAVAILABLE: the database role can write") ||
		!strings.Contains(out, "hint: "+postgres.WritableRoleHint) {
		t.Errorf("err %v\n%s", err, out)
	}
}
