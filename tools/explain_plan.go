package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// Explainer is what explain_plan needs of the engine.
type Explainer interface {
	Explain(ctx context.Context, req engine.AskRequest) (*engine.Explanation, error)
}

var explainOutputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "question": {"type": "string"},
    "datasource": {"type": "string"},
    "dialect": {"type": "string"},
    "tables": {"type": "array", "items": {"type": "string"}},
    "reasoning": {"type": "string"},
    "plan": {"type": "object"},
    "columns": {"type": "array", "items": {"type": "string"}},
    "column_types": {"type": "array", "items": {"type": "string"}},
    "sql": {"type": "string"},
    "plan_source": {"type": "string"},
    "rejected_attempts": {"type": "array", "items": {"type": "object"}},
    "usage": {"type": "object"}
  },
  "required": ["question", "datasource", "plan", "sql", "rejected_attempts"]
}`)

// ExplainPlanTool describes the explain_plan tool.
func ExplainPlanTool() mcpgo.Tool {
	return readOnlyTool("explain_plan", "Explain a question's plan",
		"Show how a question would be answered without running anything: the tables retrieved, the validated plan, the SQL it renders to, and any refused attempts with their errors. Needs a model configured on the server (it plans the question); without one it fails with NO_PLANNER: write the plan yourself (get_plan_schema) and call check_plan, which validates and renders it without running.",
		askInputSchema,
		explainOutputSchema)
}

// ExplainPlanHandler answers explain_plan calls.
func ExplainPlanHandler(eng Explainer) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args AskArgs
		if bad := bindStrict(req, &args, askShape); bad != nil {
			return bad, nil
		}
		ex, err := eng.Explain(ctx, engine.AskRequest{Question: args.Question, Datasource: args.Datasource})
		if err != nil {
			return errorResult(err), nil
		}
		return FitStructured(eng, ex, ExplanationText(ex)), nil
	}
}

// ExplanationText renders an explanation for people.
func ExplanationText(ex *engine.Explanation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "datasource %s (%s); tables in context: %s\n", ex.Datasource, ex.Dialect, strings.Join(ex.Tables, ", "))
	for _, a := range ex.Rejected {
		fmt.Fprintf(&b, "attempt %d refused:\n", a.Attempt)
		for _, is := range a.Issues {
			fmt.Fprintf(&b, "  %s: %s\n", is.Headline(), is.Message)
		}
	}
	if ex.Reasoning != "" {
		fmt.Fprintf(&b, "reasoning: %s\n", ex.Reasoning)
	}
	plan, _ := json.MarshalIndent(ex.Plan, "", "  ")
	fmt.Fprintf(&b, "plan:\n%s\nSQL (not run):\n%s\n", plan, ex.SQL)
	return b.String()
}
