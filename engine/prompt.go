package engine

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/planast"
)

//go:embed prompts/plan_system.md
var planSystemPrompt string

// planPrompt builds the planner's messages. The system message is stable
// across questions (providers cache it as a prefix); everything that varies
// (the date, the schema context, the question, errors to fix) is in the user
// message, the date first.
func planPrompt(today, dialect, schemaCtx, question string, issues []planast.Issue) []llm.Message {
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
	return []llm.Message{{Role: "system", Content: planSystemPrompt}, {Role: "user", Content: b.String()}}
}
