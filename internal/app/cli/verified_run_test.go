package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A command-line user whom ask tells that a verified query matches had no
// command to run it: plan run refused run_verified_query's arguments as
// an unknown plan field. ask's text now gives the command, and plan run
// runs the arguments as the tool does (parameters checked, the same rows
// as the MCP tool), refusing a datasource the query does not run on and a
// key run_verified_query does not take.
func TestPlanRunRunsVerifiedQueryArguments(t *testing.T) {
	dir := t.TempDir()
	root, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: st}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + filepath.Join(root, "chinook.sqlite") + "}\n" +
		"curated: " + filepath.Join(root, "curated.yaml") + "\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI("ask", "--config", cfg, "Which customers are in Brazil?")
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "verified query customers_in_country runs with") {
			line = l
		}
	}
	_, cmd, _ := strings.Cut(line, "`")
	cmd, _, _ = strings.Cut(cmd, "`")
	if err != nil || !strings.HasPrefix(cmd, "nl2sql plan run '{") {
		t.Fatalf("ask: %v; no command line for the verified query in\n%s", err, out)
	}
	args := strings.TrimSuffix(strings.TrimPrefix(cmd, "nl2sql plan run '"), "'")
	got, err := runCLI("plan", "run", "--config", cfg, args)
	if err != nil || !strings.HasPrefix(got, "5 rows.") || !strings.Contains(got, "WHERE Country = ?") {
		t.Errorf("plan run %s: %v\n%s", args, err, got)
	}
	if got2, err := runCLI("plan", "run", "--config", cfg, "--datasource", "chinook", args); err != nil || got2 != got {
		t.Errorf("with the query's own datasource: %v\n%s", err, got2)
	}
	for _, c := range []struct {
		args string
		code engine.Code
	}{
		{`{"id":"customers_in_country","params":{}}`, engine.CodeInvalidParams},
		{`{"id":"customers_in_country","params":{"country":"Brazil"},"datasource":"other"}`, engine.CodeDatasourceNotFound},
		{`{"id":"customers_in_country","parms":{"country":"Brazil"}}`, engine.CodeInvalidRequest},
		{`{"id":"no_such_query"}`, engine.CodeVerifiedNotFound},
	} {
		_, err := runCLI("plan", "run", "--config", cfg, c.args)
		var ee *engine.Error
		// the hint names what the command line has, not MCP's fields
		if !errors.As(CommandLineError(err), &ee) || ee.Code != c.code || ee.Hint == "" || strings.Contains(ee.Hint, "param_schema") {
			t.Errorf("plan run %s: %v, want %s with a hint for the command line", c.args, err, c.code)
		}
	}
	// another datasource than the query's: the user meant to choose one
	two := filepath.Join(dir, "two.yaml")
	body = strings.Replace(body, "datasources:\n", "datasources:\n  - {id: copy, engine: sqlite, path: "+filepath.Join(root, "chinook.sqlite")+"}\n", 1)
	if err := os.WriteFile(two, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = runCLI("plan", "run", "--config", two, "--datasource", "copy", args)
	if ee := (*engine.Error)(nil); !errors.As(err, &ee) || ee.Code != engine.CodeVerifiedNotFound || !strings.Contains(ee.Msg, `datasource "copy"`) {
		t.Errorf("verified query on another datasource: %v, want VERIFIED_QUERY_NOT_FOUND naming it", err)
	}
	if _, err := runCLI("plan", "check", "--config", cfg, args); err == nil || !strings.Contains(err.Error(), "run_verified_query's arguments") {
		t.Errorf("plan check of verified arguments: %v", err)
	}
}

// An id one letter off ("customers_in_contry") was told only that no such
// query exists, with a hint naming list_verified_queries, an MCP tool a
// command-line user cannot call. The refusal names the id meant, which
// runs, and the hint a command that lists the ids.
func TestUnknownVerifiedIDSuggests(t *testing.T) {
	dir := t.TempDir()
	root, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: st}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + filepath.Join(root, "chinook.sqlite") + "}\n" +
		"curated: " + filepath.Join(root, "curated.yaml") + "\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := runCLI("plan", "run", "--config", cfg, `{"id":"customers_in_contry","params":{"country":"Brazil"}}`)
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeVerifiedNotFound || !strings.Contains(ee.Msg, `did you mean "customers_in_country"?`) {
		t.Fatalf("misspelt id: %v, want VERIFIED_QUERY_NOT_FOUND naming customers_in_country", err)
	}
	if shown := CommandLineError(err).Error(); strings.Contains(shown, "list_verified_queries") || !strings.Contains(shown, "`nl2sql curated validate`") {
		t.Errorf("%q names the MCP tool, or no command", shown)
	}
	if out, err := runCLI("curated", "validate", "--config", cfg); err != nil || !strings.Contains(out, "customers_in_country") {
		t.Errorf("the hint's command: %v\n%s", err, out)
	}
	if out, err := runCLI("plan", "run", "--config", cfg, `{"id":"customers_in_country","params":{"country":"Brazil"}}`); err != nil || !strings.HasPrefix(out, "5 rows.") {
		t.Errorf("the suggested id: %v\n%s", err, out)
	}
	_, err = runCLI("plan", "run", "--config", cfg, `{"id":"zzz_nothing_like_it"}`)
	if !errors.As(err, &ee) || strings.Contains(ee.Msg, "did you mean") {
		t.Errorf("an id near nothing: %v", err)
	}
}
