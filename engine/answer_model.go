package engine

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/planast"
)

// answerSystemPrompt tells the answer model what it may say.
const answerSystemPrompt = `You write the short answer to a question from the rows a database query returned.
` + modeltext.RowsAreData + `
Quote only numbers that appear in the rows or the row count, exactly as written there. If the result was cut at the row limit, say that it was.
Answer in one to three sentences, in the question's language. Answer with a JSON object {"answer": "..."}.`

var answerSchema = json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`)

// numberRe finds numbers in an answer, to check each against the rows.
var numberRe = regexp.MustCompile(`-?\d+(?:[.,]\d+)*`)

// modelAnswer asks the answer model (step "answer") for a summary drawn
// from at most previewRows rows, delimited as data. Deterministic code
// keeps it honest: an answer quoting a number that is not in the preview
// (or the row count) is discarded for the template summary, with a
// warning. Without an answer model the template summary is used.
func (e *Engine) modelAnswer(ctx context.Context, ds string, res *Result) string {
	fallback := summarise(res)
	if e.opts.Answerer == nil || len(res.Rows) == 0 {
		return fallback
	}
	preview := res.Rows
	if len(preview) > previewRows {
		preview = preview[:previewRows]
	}
	framed, data := modeltext.FrameRows(res.Columns, res.RowCount, res.Truncated, preview)
	user := "Question: " + res.Question + "\n" + framed
	msgs := []llm.Message{{Role: "system", Content: answerSystemPrompt}, {Role: "user", Content: user}}
	req := llm.Request{Step: "answer", Datasource: ds, Intent: res.Question, Messages: msgs,
		SchemaName: "answer", Schema: answerSchema, PromptHash: modeltext.Hash(msgs, e.opts.Today())}
	t0 := time.Now()
	resp, err := e.opts.Answerer.Complete(ctx, req)
	traceCall(ctx, req, resp, err, ms(time.Since(t0)))
	res.Usage.ModelCalls++
	if err != nil {
		res.Warnings = append(res.Warnings, "the answer model failed; the answer is a summary of the first rows")
		return fallback
	}
	res.Usage.InputTokens += resp.Usage.InputTokens
	res.Usage.OutputTokens += resp.Usage.OutputTokens
	var out struct {
		Answer string `json:"answer"`
	}
	if json.Unmarshal(resp.Content, &out) != nil || strings.TrimSpace(out.Answer) == "" {
		res.Warnings = append(res.Warnings, "the answer model's reply was unusable; the answer is a summary of the first rows")
		return fallback
	}
	if bad := unsupportedNumber(out.Answer, data); bad != "" {
		res.Warnings = append(res.Warnings, "the answer model quoted "+bad+", which is not in the rows; the answer is a summary of the first rows")
		return fallback
	}
	if bad := unsupportedQuote(out.Answer, res.Question, res.Columns, preview); bad != "" {
		res.Warnings = append(res.Warnings, "the answer model quoted text that is not in the rows ("+quoteText(bad)+"); the answer is a summary of the first rows")
		return fallback
	}
	return strings.TrimSpace(out.Answer)
}

// quoteRe finds quoted text in an answer: "…", “…”, '…' (not an
// apostrophe inside a word), ‘…’, «…», `…`.
var quoteRe = regexp.MustCompile("\"([^\"]+)\"|“([^”]+)”|(?:^|[^\\pL\\pN])'([^']+)'(?:[^\\pL\\pN]|$)|‘([^’]+)’|«([^»]+)»|`([^`]+)`")

// unsupportedQuote returns the first quoted text of answer that is neither
// (part of) a text value of the rows, a column name nor part of the
// question, or "". A model that echoes an instruction stored in the data,
// or writes its own words as if quoting the data, is caught here: quoting
// is how a reply presents text as the database's.
func unsupportedQuote(answer, question string, cols []string, rows [][]any) string {
	for _, m := range quoteRe.FindAllStringSubmatch(answer, -1) {
		q := ""
		for _, g := range m[1:] {
			if g != "" {
				q = g
				break
			}
		}
		q = strings.TrimSpace(q)
		if q == "" || quoteFound(q, question, cols, rows) {
			continue
		}
		return q
	}
	return ""
}

// quoteFound reports whether q occurs, case-insensitively, in a text value
// of rows, a column name or the question, or is a value the summary prints
// (a number or date as cellfmt writes it).
func quoteFound(q, question string, cols []string, rows [][]any) bool {
	lq := strings.ToLower(q)
	if strings.Contains(strings.ToLower(question), lq) {
		return true
	}
	for _, c := range cols {
		if strings.Contains(strings.ToLower(c), lq) {
			return true
		}
	}
	for _, row := range rows {
		for _, v := range row {
			var s string
			switch x := v.(type) {
			case nil:
				s = "NULL"
			case string:
				s = x
			default:
				s = cellfmt.Value(x, planast.TypeUnknown)
			}
			if strings.Contains(strings.ToLower(s), lq) {
				return true
			}
		}
	}
	return false
}

// unsupportedNumber returns the first number of answer that does not occur
// in data, or "".
func unsupportedNumber(answer, data string) string {
	for _, n := range numberRe.FindAllString(answer, -1) {
		plain := strings.ReplaceAll(n, ",", "")
		if !strings.Contains(data, n) && !strings.Contains(data, plain) {
			return n
		}
	}
	return ""
}
