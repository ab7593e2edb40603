package tools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: the TypeScript SDK client validates structuredContent
// against outputSchema and refuses a result that does not fit, so a host
// would see an error where the server handed it the schema context. Both
// kinds must validate, each against exactly one branch.
func TestAskOutputSchemaKinds(t *testing.T) {
	c := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(askToolOutputSchema))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("ask.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("ask.json")
	if err != nil {
		t.Fatal(err)
	}
	answer := &engine.Result{Question: "q", Answer: "1 row", Columns: []string{"n"}, Rows: [][]any{{1}}, RowCount: 1, SQL: "SELECT 1", ColumnTypes: []planast.Type{"integer"}, Warnings: []string{}, SubQueries: []engine.SubQuery{}}
	hp := &engine.HostPlan{Kind: engine.KindPlanItYourself, Question: "q", Reason: engine.HostReasonNoPlanner, Next: "write a plan",
		Today: "2026-01-02", HostContext: engine.HostContext{Datasource: "chinook", Dialect: "sqlite", SchemaContext: "Artist (1 rows): ArtistId integer pk", Newest: "2025-07-01 in Invoice.InvoiceDate",
			ContextTables: []string{"Artist"}, VerifiedQueries: []engine.HostVerified{{ID: "v", Params: []curated.Param{}, Call: engine.ToolCall{Tool: "run_verified_query", Arguments: map[string]any{"id": "v"}}}}},
		PlanGuide: engine.ToolCall{Tool: "get_plan_schema", Arguments: map[string]any{"form": "guide"}},
		RunPlan:   engine.ToolCall{Tool: "run_plan", Arguments: map[string]any{"datasource": "chinook"}, Missing: []string{"plan"}}}
	host := &engine.Result{Question: "q", HostPlan: hp}
	for name, r := range map[string]*engine.Result{"answer": answer, "plan_it_yourself": host} {
		if err := sch.Validate(asJSON(t, r)); err != nil {
			t.Errorf("%s does not validate: %v", name, err)
		}
	}
	broken := asJSON(t, host).(map[string]any)
	delete(broken, "schema_context")
	if sch.Validate(broken) == nil {
		t.Error("a plan-it-yourself result without schema_context validates")
	}
	if text := AskText(host); !strings.HasPrefix(text, "write a plan\n") || !strings.Contains(text, "ArtistId integer pk") || !strings.Contains(text, `run_verified_query {"id":"v"}`) ||
		!strings.Contains(text, "the newest date the question's tables hold: 2025-07-01 in Invoice.InvoiceDate") {
		t.Errorf("text:\n%s", text)
	}
}

func asJSON(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The threat: a question whose answer is half in another datasource
// ("which town had the most bounced payments" of billing, towns in
// operations): a host reading the text part saw one schema and planned
// over it alone. The related datasource's context is in the text too.
func TestHostPlanTextShowsRelatedDatasources(t *testing.T) {
	hp := &engine.HostPlan{Kind: engine.KindPlanItYourself, Question: "q", Next: "next", Today: "2026-01-02",
		HostContext: engine.HostContext{Datasource: "billing", Dialect: "sqlite", SchemaContext: "payments (2 rows): id integer pk"},
		Related:     []engine.HostRelated{{HostContext: engine.HostContext{Datasource: "ops", Dialect: "duckdb", SchemaContext: "premises (2 rows): town text"}, Description: "Operations"}}}
	text := AskText(&engine.Result{Question: "q", HostPlan: hp})
	if !strings.Contains(text, "related datasource ops (duckdb): Operations") || !strings.Contains(text, "premises (2 rows): town text") {
		t.Errorf("text lacks the related datasource's context:\n%s", text)
	}
}

// The threat: an issue of the whole plan (a plan that is no JSON object)
// printed "UNKNOWN_FIELD at : …", a place a reader looks for and cannot
// find. An issue with no path is said by its code alone.
func TestCheckTextIssueOfTheWholePlan(t *testing.T) {
	text := checkText(CheckPlanOutput{Issues: []planast.Issue{{Code: planast.CodeMalformed, Message: "the plan is not a JSON object"},
		{Code: planast.CodeColumnNotFound, Path: "where.left", Message: "no column x"}}}, "")
	if strings.Contains(text, "at :") || !strings.Contains(text, "1. "+string(planast.CodeMalformed)+": the plan is not a JSON object") ||
		!strings.Contains(text, "2. "+string(planast.CodeColumnNotFound)+" at where.left: no column x") {
		t.Errorf("text:\n%s", text)
	}
}
