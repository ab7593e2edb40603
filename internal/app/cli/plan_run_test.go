package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Threat: without a model, a person at the command line gets a
// plan-it-yourself result that says "call run_plan", an MCP tool, and has
// no way to run the plan they wrote. `plan run` runs it read-only through
// the same engine path, and a plan naming a hidden or missing table is
// refused with the plan's issues, not run.
func TestPlanRun(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	plan := filepath.Join(dir, "plan.json")
	os.WriteFile(plan, []byte(`{"select":[{"expr":{"kind":"column","table":"g","column":"Name"},"alias":"genre"},
	  {"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"tracks"}],
	 "from":[{"table":"Genre","alias":"g"},{"table":"Track","alias":"t"}],
	 "joins":[{"left":"g","right":"t","on":[{"left_column":"GenreId","right_column":"GenreId"}]}],
	 "group_by":[{"kind":"column","column":"genre"}],
	 "order_by":[{"expr":{"kind":"column","column":"tracks"},"direction":"desc"}],"limit":1}`), 0o600)
	out, err := runCLI("plan", "run", "--db", db, "--storage", filepath.Join(dir, "state"), "--json", plan)
	if err != nil {
		t.Fatalf("plan run: %v\n%s", err, out)
	}
	var res struct {
		Rows       [][]any `json:"rows"`
		SubQueries []struct {
			PlanSource string `json:"plan_source"`
		} `json:"sub_queries"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 1 || res.Rows[0][0] != "Rock" || res.Rows[0][1] != float64(1297) || res.SubQueries[0].PlanSource != "supplied" {
		t.Errorf("got %s", out)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"select":[{"expr":{"kind":"column","table":"x","column":"a"},"alias":"a"}],"from":[{"table":"Salaries","alias":"x"}]}`), 0o600)
	out, err = runCLI("plan", "run", "--db", db, "--storage", filepath.Join(dir, "state"), "--json", bad)
	if err == nil || !strings.Contains(out, `"PLAN_INVALID"`) || !strings.Contains(out, "TABLE_NOT_FOUND") {
		t.Errorf("a plan over a missing table: err %v, out %s", err, out)
	}
}

// A result cut at the row limit says so in --json as the MCP tools say it
// (truncated_reason row_limit): a script reading the CLI's JSON could not
// tell a row-limit cut from any other.
func TestPlanRunJSONNamesTheRowLimitCut(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	out, err := runCLI("plan", "run", "--db", db, "--storage", t.TempDir(), "--json",
		`{"select":[{"expr":{"kind":"column","table":"t","column":"Name"}}],"from":[{"table":"Track","alias":"t"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Truncated       bool   `json:"truncated"`
		TruncatedReason string `json:"truncated_reason"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || !r.Truncated || r.TruncatedReason != "row_limit" {
		t.Fatalf("%v: truncated %v, reason %q", err, r.Truncated, r.TruncatedReason)
	}
}

// plan check takes --json as plan run does (a newcomer's `plan check
// --json` was refused as an unknown flag): the check's SQL, columns and
// warnings, for a script to read.
func TestPlanCheckJSON(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	out, err := runCLI("plan", "check", "--db", db, "--storage", t.TempDir(), "--json",
		`{"select":[{"expr":{"kind":"column","table":"g","column":"Name"}}],"from":[{"table":"Genre","alias":"g"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		SQL     string   `json:"sql"`
		Columns []string `json:"columns"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || !strings.Contains(r.SQL, "Genre") || len(r.Columns) != 1 {
		t.Fatalf("%v: %q", err, out)
	}
}

// A refused plan's issues are JSON on stdout only with --json: a person
// reading the text check gets each issue once, in the error on stderr,
// not a JSON document before it; a script asking for JSON gets them all.
func TestPlanCheckRefusedPlanOutput(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	plan := `{"select":[{"expr":{"kind":"column","table":"a","column":"nmae"}},{"expr":{"kind":"column","table":"a","column":"zzz"}}],"from":[{"table":"Artist","alias":"a"}]}`
	out, err := runCLI("plan", "check", "--db", db, "--storage", t.TempDir(), plan)
	if err == nil || out != "" {
		t.Fatalf("text check of a refused plan: stdout %q, err %v", out, err)
	}
	for _, want := range []string{"select[0].expr.column", "nmae", "select[1].expr.column", "zzz"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q: %v", want, err)
		}
	}
	out, err = runCLI("plan", "check", "--db", db, "--storage", t.TempDir(), "--json", plan)
	var r struct {
		Valid  bool `json:"valid"`
		Issues []struct {
			Path string `json:"path"`
		} `json:"issues"`
	}
	if err == nil || json.Unmarshal([]byte(out), &r) != nil || r.Valid || len(r.Issues) != 2 {
		t.Fatalf("--json check of a refused plan: %v, %q", err, out)
	}
}

// The text dry run shows the warnings check_plan and plan run give (a
// newcomer's join of unrelated keys printed bare SQL), as SQL comments so
// the output still runs in a database shell.
func TestPlanCheckTextShowsWarnings(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	out, err := runCLI("plan", "check", "--db", db, "--storage", t.TempDir(),
		`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Customer","alias":"a"},{"table":"Invoice","alias":"b"}],"joins":[{"left":"a","right":"b","on":[{"left_column":"SupportRepId","right_column":"InvoiceId"}]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "SELECT") || !strings.Contains(out, "-- warning: ") || !strings.Contains(out, "foreign key") {
		t.Fatalf("the dry run hides the join warning:\n%s", out)
	}
}
