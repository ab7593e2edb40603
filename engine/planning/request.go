package planning

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/planschema"
)

//go:embed prompts/plan_system.md
var systemPrompt string

// Question is what the planner is asked about: the datasource and its
// dialect, the question (a sub-query's intent, for a cross-datasource
// question), the schema context retrieved for it and the run date.
type Question struct {
	Datasource, Dialect string
	Text                string
	SchemaContext       string
	Today               string
}

// Prompt builds the planner's messages. The system message is stable
// across questions (providers cache it as a prefix); everything that varies
// (the date, the schema context, the question, errors to fix) is in the user
// message, the date first.
func Prompt(today, dialect, schemaCtx, question string, issues []planast.Issue) []llm.Message {
	var b strings.Builder
	b.WriteString("[TODAY]\n" + today + "\n\n")
	b.WriteString("[DIALECT]\n" + dialect + "\n\n")
	b.WriteString("[SCHEMA]\n" + schemaCtx + "\n\n")
	b.WriteString("[QUESTION]\n" + question + "\n")
	if len(issues) > 0 {
		b.WriteString("\n[ERRORS IN YOUR LAST PLAN]\n")
		for _, is := range issues {
			line, _ := json.Marshal(is)
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return []llm.Message{{Role: "system", Content: systemPrompt}, {Role: "user", Content: b.String()}}
}

// answerSchema is the JSON Schema of the planner's answer, computed once.
var answerSchema = planschema.Answer()

// Request builds the structured call for one planning attempt. The first
// attempt is step "plan"; repairs are "plan_repair" with the attempt number
// as sample, so replay can hold a recorded repair.
func Request(q Question, issues []planast.Issue, attempt int) llm.Request {
	msgs := Prompt(q.Today, q.Dialect, q.SchemaContext, q.Text, issues)
	step := "plan"
	if attempt > 0 {
		step = "plan_repair"
	}
	return llm.Request{
		Step: step, Datasource: q.Datasource, Intent: q.Text, Sample: attempt,
		Messages: msgs, SchemaName: "plan_answer", Schema: answerSchema, PromptHash: modeltext.Hash(msgs, q.Today),
	}
}

// Answer is what the planner returns: a short explanation and a plan.
type Answer struct {
	Reasoning string          `json:"reasoning"`
	Plan      json.RawMessage `json:"plan"`
}

// Decode parses {"reasoning", "plan"} strictly and decodes the plan with
// the language's limits. Every refusal is a *planast.Error, which the
// planner is asked to repair.
func Decode(b json.RawMessage) (*Answer, *planast.Query, error) {
	var ans Answer
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return nil, nil, &planast.Error{Issues: []planast.Issue{{Code: planast.CodeMalformed,
			Message: "the answer must be a JSON object {\"reasoning\": string, \"plan\": object}: " + err.Error()}}}
	}
	if len(ans.Plan) == 0 || string(ans.Plan) == "null" {
		return nil, nil, &planast.Error{Issues: []planast.Issue{{Code: planast.CodeMalformed, Path: "plan", Message: "the answer has no plan"}}}
	}
	plan, err := planast.Decode(ans.Plan, planast.DefaultLimits)
	if err != nil {
		return nil, nil, err
	}
	return &ans, plan, nil
}
