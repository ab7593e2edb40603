package cli

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/planast"
)

// The engine's hints speak to an MCP host and name tools. On the command
// line the same advice names the commands that do the same thing.
var toolCommands = strings.NewReplacer(
	"list_datasources", "`nl2sql doctor`",
	"describe_schema", "`nl2sql schema show`",
	"search_schema", "`nl2sql schema show`",
	"get_plan_schema", "`nl2sql schema guide`",
	"check_plan", "`nl2sql plan check`",
	"run_plan", "`nl2sql plan run`",
	"list_verified_queries", "`nl2sql curated validate`",
	"the query's param_schema", "the parameters the verified-queries file declares for the query",
)

// CommandLineError is err as a command other than serve reports it: an
// engine error's hint and message name commands where they named tools,
// and an unavailable datasource's message names the file it looked for
// (resolved against the config file's directory), which the engine's
// message leaves out because MCP clients must not learn the server's
// paths. Other errors are returned as they are.
func CommandLineError(err error) error {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return err
	}
	c := *ee
	c.Hint = toolCommands.Replace(c.Hint)
	if c.Code == engine.CodeNeedsApproval && c.ApprovalID != "" && strings.Contains(c.Hint, "run_approved") {
		// the engine's hint names the tools approve_run and run_approved
		c.Hint = "ask an approver to run `nl2sql approvals approve " + c.ApprovalID + "`, then run it with `nl2sql approvals run " + c.ApprovalID + "`"
	}
	c.Msg = toolCommands.Replace(c.Msg)
	if pe := (*fs.PathError)(nil); c.Code == engine.CodeDatasourceDown && errors.As(err, &pe) && !strings.Contains(c.Msg, pe.Path) {
		c.Msg += ": " + pe.Path
	}
	c.Issues = make([]planast.Issue, len(ee.Issues))
	for i, is := range ee.Issues {
		is.Message, is.Hint = toolCommands.Replace(is.Message), toolCommands.Replace(is.Hint)
		c.Issues[i] = is
	}
	return &c
}
