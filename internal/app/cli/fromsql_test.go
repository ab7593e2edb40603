package cli

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
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
	// where SQLite has a spelling that lifts, the hint names it instead
	// of sending the user to rewrite the SQL blind
	_, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, "SELECT InvoiceId FROM Invoice WHERE CAST(BillingCity AS date) > '2024-01-01'")
	var ee *engine.Error
	if !errors.As(err, &ee) || !strings.Contains(ee.Hint, "date(x)") {
		t.Errorf("CAST AS DATE on SQLite: %v, want a hint naming date(x)", err)
	}
	if out, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, "SELECT count(*) AS n FROM Invoice WHERE BillingCity > date('2024-02-01')"); err != nil {
		t.Errorf("a text column against date('…') on SQLite: %v\n%s", err, out)
	}
}

// A person who runs SQL text as a plan from the command line is pointed at
// the command that lifts it, which a host over MCP is not told about.
func TestPlanRunOfSQLTextNamesFromSQL(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(t.TempDir(), "state")
	file := filepath.Join(t.TempDir(), "q.sql")
	if err := os.WriteFile(file, []byte("SELECT Name FROM Artist"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := runCLI("plan", "run", "--db", db, "--storage", state, file)
	var ee *engine.Error
	if !errors.As(err, &ee) || !strings.Contains(ee.Hint, "nl2sql plan from-sql") || !strings.Contains(ee.Hint, "get_plan_schema") {
		t.Errorf("plan run of SQL text: %v, want a hint naming get_plan_schema and nl2sql plan from-sql", err)
	}
}

// Threat: a person with the SQL in a file, or in a pipe, must quote it
// into one shell argument, as `plan run -` spares them for plans; "-"
// was lifted as the SQL text "-". `plan from-sql -` reads stdin, and gives
// the plan the SQL as an argument gives.
func TestFromSQLReadsStdin(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(t.TempDir(), "state")
	const sql = "SELECT Name\nFROM Artist\nWHERE ArtistId = 1\n"
	fromArg, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, sql)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stdin, want string
		code              engine.Code
	}{
		{"the SQL", sql, fromArg, ""},
		{"the SQL after a byte order mark", "\xef\xbb\xbf" + sql, fromArg, ""},
		{"nothing", " \n", "", engine.CodeInvalidRequest},
		{"SQL the plan language cannot say", "SELECT GROUP_CONCAT(Name) FROM Artist", "", CodePlanUnsupported},
	} {
		var out bytes.Buffer
		root := newRoot(slog.New(slog.DiscardHandler), &out)
		root.SetIn(strings.NewReader(c.stdin))
		root.SetArgs([]string{"plan", "from-sql", "--db", db, "--storage", state, "-"})
		err := root.Execute()
		var ee *engine.Error
		switch {
		case c.code == "" && (err != nil || out.String() != c.want):
			t.Errorf("%s on stdin: %v\n%s\nwant, as from the argument,\n%s", c.name, err, out.String(), c.want)
		case c.code != "" && (!errors.As(err, &ee) || ee.Code != c.code || ee.Hint == ""):
			t.Errorf("%s on stdin: %v, want %s with a hint", c.name, err, c.code)
		}
	}
}

// A saved query that opens with a comment ("-- paid orders") was read as
// an unknown flag, and the usage that followed said nothing of how to pass
// it: the error names the argument and both ways that work (-- before it,
// or stdin), and those ways lift it. A statement that is no query (PRAGMA)
// says only a SELECT lifts, not PostgreSQL's syntax error.
func TestFromSQLStartingWithACommentSaysHowToPassIt(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(t.TempDir(), "state")
	sql := "-- every artist\nSELECT Name FROM Artist"
	_, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, sql)
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Msg, `"-- every artist"`) ||
		!strings.Contains(ee.Hint, "put -- before it") || !strings.Contains(ee.Hint, "stdin with -") {
		t.Errorf("SQL opening with a comment: %v, want INVALID_REQUEST naming it, with -- and stdin in the hint", err)
	}
	if out, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, "--", sql); err != nil || !strings.Contains(out, `"Name"`) {
		t.Errorf("the hint's -- way: %v\n%s", err, out)
	}
	// a real unknown flag keeps its own error
	if _, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, "--bogus", "SELECT 1"); err == nil || !strings.Contains(err.Error(), "unknown flag: --bogus") {
		t.Errorf("--bogus: %v", err)
	}
	for _, sql := range []string{"PRAGMA table_info(Artist)", "ATTACH DATABASE 'x.db' AS x"} {
		_, err := runCLI("plan", "from-sql", "--db", db, "--storage", state, sql)
		if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "only a SELECT statement can be lifted") {
			t.Errorf("%s: %v, want only a SELECT statement can be lifted", sql, err)
		}
	}
}

// Threat: a SQLite boolean column holding 'yes' and 'true' beside 1 and 0
// reads them as false in SQLite's own SQL (`WHERE is_public` counts 3)
// and as true in a plan (5): lifting the SQL silently changed its answer.
// The lift says so, with the spellings and the count; SQL that does not
// read the column is told nothing.
func TestFromSQLSaysBooleansSpeltAsTextReadAsTrue(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE events (id INTEGER PRIMARY KEY, city TEXT, is_public BOOLEAN)",
		"INSERT INTO events VALUES (1, 'Paris', 1), (2, 'Lyon', 0), (3, 'Paris', 'yes'), (4, 'Nice', 'true'), (5, 'Lyon', 'no'), (6, 'Nice', 1), (7, 'Paris', NULL)")
	lift := liftStderr(t, db)
	want := `warning: "events"."is_public" holds 3 values spelt as text; the plan reads 'true' and 'yes' as true, where this SQL on SQLite reads them as false`
	for _, sql := range []string{"SELECT COUNT(*) FROM events WHERE is_public", "SELECT city, SUM(is_public = 1) FROM events GROUP BY city"} {
		if got := lift(sql); !strings.Contains(got, want) {
			t.Errorf("plan from-sql %q: stderr %q, want %q", sql, got, want)
		}
	}
	if got := lift("SELECT COUNT(*) FROM events WHERE city = 'Paris'"); got != "" {
		t.Errorf("SQL that never reads is_public: stderr %q, want nothing", got)
	}
}

// Threat: SQLite's LIKE ignores case for A–Z alone; the lifted plan for
// every letter, so 'анна%' matched 'Анна Каренина', a row the user's own
// SQLite left out, and nothing said the answer changed. The lift says so
// of a pattern with such letters, and of no other.
func TestFromSQLSaysLikeFoldsEveryLetter(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE riders (id INTEGER PRIMARY KEY, full_name TEXT)",
		"INSERT INTO riders VALUES (1, 'Zoë Ångström'), (2, 'Анна Каренина'), (3, 'Ann Lee')")
	lift := liftStderr(t, db)
	if got := lift("SELECT full_name FROM riders WHERE full_name LIKE 'анна%'"); !strings.Contains(got, "letters beyond A–Z") || !strings.Contains(got, `"анна%"`) {
		t.Errorf("stderr %q: want the pattern named and the wider match said", got)
	}
	if got := lift("SELECT full_name FROM riders WHERE full_name LIKE 'ann%'"); got != "" {
		t.Errorf("a pattern of A–Z alone: stderr %q, want nothing", got)
	}
}

// liftStderr lifts SQL over db with plan from-sql and returns what it
// says on stderr (the plan goes to stdout).
func liftStderr(t *testing.T, db string) func(sql string) string {
	state := filepath.Join(t.TempDir(), "state")
	return func(sql string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		root := newRoot(slog.New(slog.DiscardHandler), &out)
		root.SetErr(&errOut)
		root.SetArgs([]string{"plan", "from-sql", "--db", db, "--storage", state, sql})
		if err := root.Execute(); err != nil {
			t.Fatalf("plan from-sql %q: %v", sql, err)
		}
		return errOut.String()
	}
}

// A PostgreSQL user lifting a query that reads instants in a local zone
// gets the plan's AT_TIME_ZONE: the snapshot tells a timestamptz column
// (an instant) from a timestamp without zone, whose AT TIME ZONE means
// the inverse and is refused saying what to write.
func TestFromSQLReadsTimestamptzColumnsAsInstants(t *testing.T) {
	dsn := pgtest.Schema(t, pgtest.DSN(t))
	pgtest.Exec(t, dsn, "CREATE TABLE visits (id integer PRIMARY KEY, starts_at timestamptz, booked_at timestamp(3) without time zone)")
	state := filepath.Join(t.TempDir(), "state")
	lift := func(sql string) (string, error) {
		return runCLI("plan", "from-sql", "--db", dsn, "--allow-writable-role", "--storage", state, sql)
	}
	for _, sql := range []string{
		"SELECT starts_at AT TIME ZONE 'Europe/London' AS local FROM visits",
		"SELECT timezone('Europe/London', starts_at) AS local FROM visits",
		"SELECT (booked_at AT TIME ZONE 'UTC') AT TIME ZONE 'Europe/London' AS local FROM visits",
	} {
		out, err := lift(sql)
		if err != nil || !strings.Contains(out, `"AT_TIME_ZONE"`) || !strings.Contains(out, `"Europe/London"`) {
			t.Errorf("plan from-sql %q: %v\n%s", sql, err, out)
		}
	}
	_, err := lift("SELECT booked_at AT TIME ZONE 'Europe/London' AS local FROM visits")
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != CodePlanUnsupported || !strings.Contains(ee.Hint, "AT TIME ZONE 'UTC') AT TIME ZONE z") {
		t.Errorf("AT TIME ZONE of a timestamp without zone: %v, want %s with a hint naming the UTC form", err, CodePlanUnsupported)
	}
}
