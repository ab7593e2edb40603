package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/tools"
)

// A person who mistypes the plan's path, or hands `plan run` a data dump,
// gets a typed error with a hint, not a bare message; and `ask --html`
// without a model still hands the planning over (exit 0), writing no page
// because nothing ran.
func TestPlanInputAndHTMLHandover(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(dir, "state")
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(strings.Repeat(" ", 5<<20)+"{}"), 0o600)
	for _, c := range []struct {
		file string
		code engine.Code
	}{
		{filepath.Join(dir, "missing.json"), engine.CodeInvalidRequest},
		{dir, engine.CodeInvalidRequest}, // a directory opens, then fails to read
		{big, "PLAN_TOO_LARGE"},
		{"", engine.CodeInvalidRequest}, // a $(…) that printed nothing
	} {
		_, err := runCLI("plan", "run", "--db", db, "--storage", state, c.file)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Code != c.code || ee.Hint == "" {
			t.Errorf("plan run %s: %v, want %s with a hint", filepath.Base(c.file), err, c.code)
		}
		if c.file == "" && (ee == nil || !strings.Contains(ee.Msg, "empty")) {
			t.Errorf("plan run of an empty argument: %v, want it said to be empty", err)
		}
	}
	page := filepath.Join(dir, "view.html")
	out, err := runCLI("ask", "--db", db, "--storage", state, "--html", page, "How many tracks are there?")
	if err != nil || !strings.Contains(out, "plan run") {
		t.Fatalf("ask --html without a model: %v\n%s", err, out)
	}
	if _, err := os.Stat(page); !os.IsNotExist(err) {
		t.Errorf("a page was written for a handover: %v", err)
	}
}

// The threat: a plan typed in a terminal of another encoding holds a byte
// that is not UTF-8; JSON decoding read it as U+FFFD and the plan ran
// comparing with a value nobody typed. It is refused, naming the byte,
// from an argument and from a file; and an inline JSON array is read as
// the JSON it is (not as a file path that does not exist).
func TestPlanInputThatIsNotUTF8OrNotAnObject(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(dir, "state")
	plan := `{"select":[{"expr":{"kind":"literal","value":"caf` + "\xe9" + `"},"alias":"x"}]}`
	file := filepath.Join(dir, "latin1.json")
	os.WriteFile(file, []byte(plan), 0o600)
	for _, arg := range []string{plan, file} {
		_, err := runCLI("plan", "run", "--db", db, "--storage", state, arg)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Msg, "not valid UTF-8 (byte 0xe9") || ee.Hint == "" {
			t.Errorf("a plan with a Latin-1 byte: %v", err)
		}
	}
	// a lone surrogate escape read as U+FFFD and ran against the data on
	// the command line, while the MCP server refused it
	lone := `{"select":[{"expr":{"kind":"literal","value":"\ud800"},"alias":"x"}]}`
	for _, cmd := range []string{"check", "run"} {
		_, err := runCLI("plan", cmd, "--db", db, "--storage", state, lone)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest || !strings.Contains(ee.Msg, `\ud800 is half a surrogate pair`) {
			t.Errorf("plan %s with a lone surrogate: %v", cmd, err)
		}
	}
	_, err := runCLI("plan", "run", "--db", db, "--storage", state, "[]")
	if err == nil || strings.Contains(err.Error(), "cannot read the plan file") || !strings.Contains(err.Error(), "array") {
		t.Errorf("plan run '[]': %v, want the JSON read and refused as no plan object", err)
	}
}

// JSON that is not an object (null, 42, "x", true) given where a plan goes
// is JSON, not a file name: "open null: no such file" sent the user
// looking for a file they never meant. The error says it is neither, for
// plan run and plan check; a file of that name is still read as the file.
func TestPlanArgumentThatIsJSONButNoObject(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(dir, "state")
	t.Chdir(dir)
	for _, cmd := range []string{"run", "check"} {
		for _, arg := range []string{"null", "42", `"x"`, "true", " 7 ", "[1,2,3]", "[]"} {
			_, err := runCLI("plan", cmd, "--db", db, "--storage", state, arg)
			var ee *engine.Error
			if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest ||
				!strings.Contains(ee.Msg, "neither a plan file") || !strings.Contains(ee.Msg, "nor a JSON object plan") || strings.Contains(ee.Msg, "open ") {
				t.Errorf("plan %s %q: %v", cmd, arg, err)
			}
		}
	}
	// a file named 42 holding a plan is that plan
	if err := os.WriteFile(filepath.Join(dir, "42"), []byte(`{"select":[{"expr":{"kind":"literal","value":7},"alias":"x"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLI("plan", "run", "--db", db, "--storage", state, "42"); err != nil || !strings.Contains(out, "7") {
		t.Errorf("plan run of the file 42: %v %q", err, out)
	}
}

// A person writing a plan file at the command line reads the same guide
// (rules and worked plans) the host gets from get_plan_schema.
func TestSchemaGuideIsTheHostGuide(t *testing.T) {
	out, err := runCLI("schema", "guide")
	if err != nil || strings.TrimSpace(out) != strings.TrimSpace(tools.PlanGuide) || !strings.Contains(out, `"kind"`) {
		t.Errorf("schema guide: %v\n%.300s", err, out)
	}
}

// A plan file saved by a Windows editor starts with a UTF-8 byte order
// mark; `plan check` and `plan run` read it, from a file and from stdin,
// instead of failing on "invalid character 'ï'".
func TestPlanFileWithByteOrderMark(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	state := filepath.Join(dir, "state")
	plan := "\xef\xbb\xbf" + `{"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],"limit":1}`
	file := filepath.Join(dir, "plan.json")
	os.WriteFile(file, []byte(plan), 0o600)
	for _, cmd := range []string{"check", "run"} {
		if out, err := runCLI("plan", cmd, "--db", db, "--storage", state, file); err != nil {
			t.Errorf("plan %s of a file with a BOM: %v\n%s", cmd, err, out)
		}
	}
	b, err := readInput(strings.NewReader(plan), "-")
	if err != nil || string(b) != plan[3:] {
		t.Errorf("stdin with a BOM reads %q, %v", b, err)
	}
}

// An empty stdin (a pipe from a command that printed nothing) says the
// plan is missing, not that JSON ended after 0 bytes.
func TestEmptyStdinHoldsNoPlan(t *testing.T) {
	for _, in := range []string{"", " \n"} {
		_, err := readInput(strings.NewReader(in), "-")
		var ee *engine.Error
		// in a pipe whose first command failed, this second error must
		// send the user back to the first one
		if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "stdin holds no plan: it is empty, as when the command piped into this one failed") {
			t.Errorf("stdin %q: %v", in, err)
		}
	}
}

// A refused plan's error says PLAN_INVALID once: "PLAN_INVALID: invalid
// plan: PLAN_MALFORMED: …" said it twice before naming the issue.
func TestRefusedPlanSaysItIsInvalidOnce(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	_, err := runCLI("plan", "run", "--db", db, "--storage", t.TempDir(), `{"select":[}`)
	if err == nil || !strings.HasPrefix(CommandLineError(err).Error(), "PLAN_INVALID: PLAN_MALFORMED: plan is not valid JSON") {
		t.Errorf("got %v", err)
	}
}
