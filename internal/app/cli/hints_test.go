package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/planast"
)

// A command-line user told to "call get_plan_schema" or "name a datasource
// from list_datasources" has no such thing to run: errors printed by the
// commands, text and --json alike, name the commands instead, in the hint,
// the message and every issue. Errors that are not the engine's pass as
// they are.
func TestCommandLineErrorsNameCommandsNotTools(t *testing.T) {
	ee := &engine.Error{Code: "PLAN_INVALID", Msg: "see describe_schema", Hint: "get_plan_schema describes the language; check_plan, then run_plan",
		Issues: []planast.Issue{{Code: "X", Path: "select", Message: "m", Hint: "list_datasources names them"}}}
	for name, text := range map[string]string{
		"text": CommandLineError(ee).Error(),
		"json": func() string { b, _ := json.Marshal(jsonError(ee)); return string(b) }(),
	} {
		for _, tool := range []string{"describe_schema", "get_plan_schema", "check_plan", "run_plan", "list_datasources"} {
			if strings.Contains(text, tool) {
				t.Errorf("%s: %q names the tool %s", name, text, tool)
			}
		}
		for _, cmd := range []string{"nl2sql schema show", "nl2sql schema guide", "nl2sql plan check", "nl2sql plan run", "nl2sql doctor"} {
			if !strings.Contains(text, cmd) {
				t.Errorf("%s: %q does not name %s", name, text, cmd)
			}
		}
	}
	if ee.Hint != "get_plan_schema describes the language; check_plan, then run_plan" || ee.Issues[0].Hint != "list_datasources names them" {
		t.Error("the engine's error itself was changed (MCP callers share it)")
	}
	plain := errors.New("open x: no such file")
	if CommandLineError(plain) != plain {
		t.Error("a non-engine error was changed")
	}
}
