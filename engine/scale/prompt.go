package scale

import (
	"encoding/json"
	"strings"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// strategyBlock is what a strategy adds to the end of the planner's user
// message ("" for plain, whose prompt is the single call's).
func strategyBlock(strategy string) string {
	switch strategy {
	case StrategyReasoning:
		return "\n[APPROACH]\nBefore writing the plan, reason step by step in \"reasoning\": which tables hold the facts the question asks about, " +
			"which join paths connect them, which filters and literal values the question implies, and which aggregation and ordering answer it. " +
			"Then write the plan that follows from that reasoning.\n"
	case StrategyDecompose:
		return "\n[APPROACH]\nFirst break the question into the smallest sub-questions it depends on and list them in \"reasoning\", " +
			"each with the tables and columns that answer it. Then compose one plan (use CTEs where a sub-question is a separate step) " +
			"that answers the whole question.\n"
	}
	return ""
}

// revisionBlock asks for a revised plan given a reviewed plan and its
// critique.
func revisionBlock(sql string, cr CritiqueReport) string {
	return "\n[REVIEW OF AN EARLIER PLAN]\nAn earlier plan ran as:\n" + sql + "\nA reviewer found this problem (" + cr.ErrorClass + "): " +
		cr.FixHint + "\nWrite a corrected plan.\n"
}

// Error classes a critique may name: a closed set.
var critiqueClasses = []string{"wrong_join", "missing_filter", "wrong_aggregation", "value_mismatch", "evidence_ignored", "other", "none"}

const selectorSystem = "You compare two candidate SQL answers to one question over one database. " +
	"You see the question, the schema context, and for each candidate its SQL, row count and first rows. " +
	"Decide which candidate answers the question correctly and completely; prefer the one whose rows answer exactly what was asked. " +
	modeltext.RowsAreData + " " +
	"Answer with JSON: {\"winner\": \"A\" or \"B\", \"reason\": one sentence}."

const critiqueSystem = "You review one SQL answer to a question over a database: its SQL, row count and first rows. " +
	modeltext.RowsAreData + " " +
	"Say whether it answers the question. If it does not, name the error class (wrong_join, missing_filter, wrong_aggregation, " +
	"value_mismatch, evidence_ignored, other) and give a one-sentence fix hint. If it does, use error class \"none\". " +
	"Answer with JSON: {\"verdict\": \"correct\" or \"incorrect\", \"error_class\": …, \"fix_hint\": …}."

const routerSystem = "You judge how hard a question is to answer with one SQL query over the given schema. " +
	"Easy: one or two tables, a plain filter, count or listing. Hard: several joins, nested aggregation, ratios, comparisons between groups, " +
	"or ambiguous wording. Answer with JSON: {\"difficulty\": \"easy\" or \"hard\"}."

var (
	selectorSchema = json.RawMessage(`{"type":"object","properties":{"winner":{"type":"string","enum":["A","B"]},"reason":{"type":"string"}},"required":["winner","reason"],"additionalProperties":false}`)
	critiqueSchema = json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string","enum":["correct","incorrect"]},"error_class":{"type":"string","enum":["` +
		strings.Join(critiqueClasses, `","`) + `"]},"fix_hint":{"type":"string"}},"required":["verdict","error_class","fix_hint"],"additionalProperties":false}`)
	routerSchema = json.RawMessage(`{"type":"object","properties":{"difficulty":{"type":"string","enum":["easy","hard"]}},"required":["difficulty"],"additionalProperties":false}`)
)

// selectorPreviewRows is how many rows of a result a selector or critic sees.
const selectorPreviewRows = 5

// resultPreview is a candidate's SQL and its first rows as prompt text,
// the rows framed as data exactly as the answer prompt frames them.
func resultPreview[P any](c *cand[P]) string {
	n := len(c.rows.Rows)
	framed, _ := modeltext.FrameRows(c.rows.Columns, n, c.rows.Truncated, c.rows.Rows[:min(n, selectorPreviewRows)])
	return "SQL:\n" + c.sql + "\nResult (first rows):\n" + framed + "\n"
}

// auxRequest builds a scaling call (selector, critic, router): a fixed
// system message, the date, schema context and question, then extra.
func (s *Run[P]) auxRequest(step string, sample int, system, schemaName string, schema json.RawMessage, extra string) llm.Request {
	q := s.q
	user := "[TODAY]\n" + q.Today + "\n\n[SCHEMA]\n" + q.SchemaContext + "\n\n[QUESTION]\n" + q.Text + "\n" + extra
	msgs := []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}}
	return llm.Request{Step: step, Datasource: q.Datasource, Intent: q.Text, Sample: sample, Messages: msgs,
		SchemaName: schemaName, Schema: schema, PromptHash: modeltext.Hash(msgs, q.Today)}
}
