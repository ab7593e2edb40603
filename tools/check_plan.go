package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/nl2sql/nl2sql/internal/plural"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// PlanChecker is what check_plan needs of the engine.
type PlanChecker interface {
	CheckPlan(ctx context.Context, datasource string, plan []byte, dialect string) (*engine.PlanCheck, error)
}

// CheckPlanOutput is check_plan's structured output. An invalid plan is a
// successful check: valid is false and issues lists what to fix, so a
// client can loop on check_plan without treating its own draft as a tool
// failure.
type CheckPlanOutput struct {
	Valid bool `json:"valid"`
	*engine.PlanCheck
	Issues []planast.Issue `json:"issues"`
}

var checkPlanOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "valid": {"type": "boolean", "description": "True when the plan validated and rendered; false when issues lists why not (an invalid plan is not isError)."},
    "datasource": {"type": "string"},
    "dialect": {"type": "string"},
    "plan": {"type": ["object", "null"], "description": "The validated plan, names in the catalog's spelling (row filters of your role applied)."},
    "columns": {"type": "array", "items": {"type": "string"}},
    "column_types": {"type": "array", "items": {"type": "string"}},
    "sql": {"type": "string", "description": "The SQL run_plan would run for this plan (nothing was run)."},
    "definitions": {"type": "array", "items": {"type": "object"}},
    "issues": {"type": "array", "items": {"type": "object", "properties": {"code": {"type": "string"}, "path": {"type": "string"}, "message": {"type": "string"}, "hint": {"type": "string"}}, "required": ["code", "path", "message"]}},
    "warnings": {"type": "array", "items": {"type": "string"}},
    "sql_notes": {"type": "array", "items": {"type": "string"}}
  },
  "required": ["valid", "issues"]
}`)

// CheckOutput is the check of what PlanChecker.CheckPlan returned: a plan
// the engine refused is a check too (valid false, its issues, the
// datasource and dialect it was checked for); any other error is returned
// as it is. check_plan and `nl2sql plan check --json` both print it, so a
// script written against one reads the other.
func CheckOutput(pc *engine.PlanCheck, err error) (CheckPlanOutput, error) {
	if err == nil {
		return CheckPlanOutput{Valid: true, PlanCheck: pc, Issues: []planast.Issue{}}, nil
	}
	e := engine.AsError(err)
	if e.Code != engine.CodePlanInvalid {
		return CheckPlanOutput{}, err
	}
	if pc == nil {
		pc = &engine.PlanCheck{Columns: []string{}, Types: []planast.Type{}, Warnings: []string{}, SQLNotes: []string{}}
	}
	return CheckPlanOutput{Valid: false, PlanCheck: pc, Issues: e.Issues}, nil
}

// CheckPlanTool describes check_plan.
func CheckPlanTool() mcpgo.Tool {
	return readOnlyTool("check_plan", "Check a plan without running it",
		"Dry run of run_plan: decode and validate a query plan against the schema and your access, and render its SQL, without executing anything. Returns valid, the SQL, the output columns and types, and typed issues (code, path, message, hint) to fix when the plan is refused. An invalid plan is a successful check, not a tool error: isError stays false and valid is false, and the text starts with INVALID PLAN.",
		runPlanInputSchema, checkPlanOutputSchema)
}

// CheckPlanHandler answers check_plan calls.
func CheckPlanHandler(eng PlanChecker) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args RunPlanArgs
		if bad := bindStrict(req, &args, runPlanShape); bad != nil {
			return bad, nil
		}
		if len(args.Plan) == 0 || string(args.Plan) == "null" {
			return invalidRequest("the plan is missing", "send "+runPlanShape), nil
		}
		if args.Binary != "" {
			return invalidRequest(`check_plan takes no "binary" argument (it returns no rows)`, "send "+runPlanShape), nil
		}
		pc, err := eng.CheckPlan(ctx, args.Datasource, PlanObject(args.Plan), "")
		out, cerr := CheckOutput(pc, err)
		if cerr != nil {
			return errorResult(cerr), nil
		}
		if !out.Valid {
			if out.Datasource == "" {
				out.Datasource = args.Datasource
			}
			return FitStructured(eng, out, checkText(out, engine.AsError(err).Hint)), nil
		}
		if r := FitStructured(eng, out, checkText(out, "")); !r.IsError {
			return r, nil
		}
		// the plan echoed back, then the SQL past its first kilobytes, go
		// before the check is refused: the verdict and the warnings are
		// what a host checks for
		slim := *pc
		slim.Plan = nil
		slim.Warnings = append(append([]string{}, pc.Warnings...), "the validated plan is left out of this check to fit the result budget")
		out.PlanCheck = &slim
		if r := FitStructured(eng, out, checkText(out, "")); !r.IsError {
			return r, nil
		}
		slim.SQL = cutSQL(pc.SQL)
		slim.Warnings[len(slim.Warnings)-1] = fmt.Sprintf("the validated plan is left out of this check, and its SQL (%d bytes) cut, to fit the result budget", len(pc.SQL))
		return FitStructured(eng, out, checkText(out, "")), nil
	}
}

func checkText(out CheckPlanOutput, hint string) string {
	var b strings.Builder
	if !out.Valid {
		// the verdict leads: this result is not isError (a refused draft is
		// a successful check), so a host skimming the text must not read it
		// as a pass
		fmt.Fprintf(&b, "INVALID PLAN: %s; nothing was run\n", plural.Count(len(out.Issues), "issue", "issues"))
		for i, is := range out.Issues {
			fmt.Fprintf(&b, "%d. %s: %s\n", i+1, is.Headline(), is.Message)
			if is.Hint != "" {
				fmt.Fprintf(&b, "   hint: %s\n", is.Hint)
			}
		}
		if hint != "" {
			b.WriteString("hint: " + hint + "\n")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "the plan is valid for %s (%s); nothing was run\n\nSQL:\n%s\n\ncolumns:\n", out.Datasource, out.Dialect, out.SQL)
	for i, c := range out.Columns {
		fmt.Fprintf(&b, "  %s %s\n", c, out.Types[i])
	}
	b.WriteString(warningsText(out.Warnings))
	for _, n := range out.SQLNotes {
		b.WriteString("note on the SQL: " + cellfmt.Text(n) + "\n")
	}
	return b.String()
}
