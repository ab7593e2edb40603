package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A failed `ask --json` prints the typed error on stdout: code, message,
// hint and, for NEEDS_APPROVAL, the approval id a script needs next.
func TestJSONError(t *testing.T) {
	err := &engine.Error{Code: engine.CodeNeedsApproval, Msg: "a rule requires approval", Hint: "ask an approver", ApprovalID: "apr_1"}
	b, _ := json.Marshal(jsonError(err))
	want := `{"error":{"code":"NEEDS_APPROVAL","message":"a rule requires approval","hint":"ask an approver","retryable":false,"approval_id":"apr_1"}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// A config that does not load is CONFIG_INVALID on stdout too, with the
// file and key in the message.
func TestAskJSONConfigError(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(cfg, []byte("datasources:\n  - {id: chinook, engine: sqlite, path: x.sqlite, row_limt: 5}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI("ask", "--config", cfg, "--json", "How many customers are there?")
	var got struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err == nil || json.Unmarshal([]byte(out), &got) != nil || got.Error.Code != "CONFIG_INVALID" || !strings.Contains(got.Error.Message, "row_limt") {
		t.Errorf("err %v, stdout %q", err, out)
	}
}

// Bad command lines are refused with the typed error, its hint naming
// what to use, before anything runs: an unknown datasource for index, a
// config that lists none (the hint names the file the user edits, not
// the default's name), an --html file that could not be written after
// the query ran, and a cache clear of a mistyped store that created it
// empty and said "removed 0 cached plans".
func TestBadCommandLinesRefusedUpFront(t *testing.T) {
	dir := t.TempDir()
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "one.yaml")
	empty := filepath.Join(dir, "empty.yaml")
	for p, body := range map[string]string{
		cfg:   "storage: {path: st}\ndatasources:\n  - {id: music, engine: sqlite, path: " + db + "}\n",
		empty: "storage: {path: st}\ndatasources: []\n",
	} {
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	plan := `{"from":[{"table":"Genre","alias":"g"}],"select":[{"expr":{"kind":"column","table":"g","column":"Name"}}],"limit":3}`
	cases := []struct {
		name string
		args []string
		code engine.Code
		want []string
	}{
		{"index names no configured datasource", []string{"index", "--config", cfg, "--datasource", "nope"},
			engine.CodeDatasourceNotFound, []string{`there is no datasource "nope"`, "use one of: music"}},
		{"config lists no datasource", []string{"ask", "--config", empty, "how many genres"},
			engine.CodeDatasourceNotFound, []string{"no datasource is configured", "datasources: in " + filepath.Base(empty)}},
		{"html into a missing directory", []string{"plan", "run", "--config", cfg, "--html", filepath.Join(dir, "no", "page.html"), plan},
			engine.CodeInvalidRequest, []string{"does not exist"}},
		{"html names a directory", []string{"plan", "run", "--config", cfg, "--html", dir, plan},
			engine.CodeInvalidRequest, []string{"is a directory", filepath.Join(dir, "result.html")}},
		{"cache clear of a mistyped store", []string{"cache", "clear", "--db", db, "--storage", filepath.Join(dir, "nostore")},
			engine.CodeInvalidRequest, []string{"no state store at " + filepath.Join(dir, "nostore"), "--storage"}},
		{"trace show in a mistyped store", []string{"trace", "show", "abc", "--db", db, "--storage", filepath.Join(dir, "nostore")},
			engine.CodeInvalidRequest, []string{"no state store at " + filepath.Join(dir, "nostore")}},
		{"ask html into a missing directory", []string{"ask", "--config", cfg, "--html", filepath.Join(dir, "no", "page.html"), "how many genres"},
			engine.CodeInvalidRequest, []string{"does not exist"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runCLI(c.args...)
			var ee *engine.Error
			if !errors.As(err, &ee) || ee.Code != c.code {
				t.Fatalf("err %v (%T), want code %s", err, err, c.code)
			}
			text := ee.Msg + " (hint: " + ee.Hint + ")"
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("error %q lacks %q", text, w)
				}
			}
			if out != "" {
				t.Errorf("printed before refusing (the error is said once, nothing ran): %q", out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "nostore")); err == nil {
		t.Error("cache clear created the store it was to clear")
	}
	// the plan itself runs once the page can be written
	page := filepath.Join(dir, "page.html")
	if out, err := runCLI("plan", "run", "--config", cfg, "--html", page, plan); err != nil || !strings.Contains(out, "3 rows") {
		t.Fatalf("valid run: %v %q", err, out)
	}
	if _, err := os.Stat(page); err != nil {
		t.Error(err)
	}
}

// eval without --db-root names the flag it lacks, not an empty directory.
func TestEvalWithoutDBRootNamesTheFlag(t *testing.T) {
	for _, measure := range []string{"execution", "retrieval", "routing"} {
		if _, err := runCLI("eval", "--measure", measure, "--spider", "questions.json"); err == nil || !strings.Contains(err.Error(), "--db-root DIR") {
			t.Errorf("%s: %v", measure, err)
		}
	}
}

// A mistyped subcommand of a group (plan runn, trace shwo) printed the
// group's help and exited 0, and a script read that as done. It is an
// error naming the word and the nearest command; a group alone still
// prints its help.
func TestUnknownSubcommandIsAnError(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{"plan runn", `unknown command "runn" for "nl2sql plan"; did you mean run?`},
		{"trace shwo", `did you mean show?`},
		{"cache clr", `unknown command "clr" for "nl2sql cache"`},
		// a flag after the typo is the group's flag error: the word is the fault
		{"plan rn --db x.db p.json", `unknown command "rn" for "nl2sql plan"; did you mean run?`},
	} {
		if _, err := runCLI(strings.Fields(c.args)...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
	}
	if out, err := runCLI("plan"); err != nil || !strings.Contains(out, "Available Commands") {
		t.Errorf("plan alone: %v %q", err, out)
	}
}

// A trace of a plan the host or a person wrote has no planner call to
// replay; the hint said to clear the cache and ask again, which without a
// model never records one. It points at the plan's own rerun.
func TestReplayOfASuppliedPlanPointsAtPlanRun(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	out, err := runCLI("plan", "run", "--json", "--db", db, "--storage", dir,
		`{"from":[{"table":"Genre","alias":"g"}],"select":[{"expr":{"kind":"column","table":"g","column":"Name"}}],"limit":1}`)
	var r struct {
		TraceID string `json:"trace_id"`
	}
	if err != nil || json.Unmarshal([]byte(out), &r) != nil || r.TraceID == "" {
		t.Fatalf("plan run: %v %q", err, out)
	}
	_, err = runCLI("trace", "replay", "--db", db, "--storage", dir, r.TraceID)
	var ee *engine.Error
	if !errors.As(err, &ee) || !strings.Contains(ee.Hint, "nl2sql plan run") || strings.Contains(ee.Hint, "cache clear") {
		t.Errorf("replay of a supplied plan: %v", err)
	}
}

// A benchmark run with --limit -3 or --split train ran every question and
// exited 0: the user measured something else than they asked, with
// nothing said. Each bad flag is refused with the values it takes, all of
// them in one error, not one per run.
func TestEvalRefusesBadFlagsAllAtOnce(t *testing.T) {
	_, err := runCLI("eval", "--spider", "questions.json", "--engine", "oracle", "--limit", "-3", "--split", "train", "--measure", "retrieval", "--planner", "gpt")
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || ee.Hint == "" {
		t.Fatalf("bad eval flags: %v, want INVALID_REQUEST with a hint", err)
	}
	for _, w := range []string{"--db-root DIR", `--engine is sqlite, duckdb or postgres, not "oracle"`, "--limit is a number of questions", "not -3",
		`--split is tuning or heldout`, `not "train"`, `--planner is oracle, replay or live, not "gpt"`} {
		if !strings.Contains(ee.Msg, w) {
			t.Errorf("%q lacks %q", ee.Msg, w)
		}
	}
	for _, args := range [][]string{
		{"--split", "tuning"}, // execution runs every database
		{"--measure", "speed"},
		{"--limit", "-1", "--measure", "routing"},
	} {
		if _, err := runCLI(append([]string{"eval", "--spider", "q.json", "--db-root", t.TempDir()}, args...)...); !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest {
			t.Errorf("eval %q: %v, want INVALID_REQUEST", args, err)
		}
	}
}
