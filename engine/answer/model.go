package answer

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
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

// Completer is the answer model, as the pipeline's Options.Answerer.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// Rows is the result an answer is written from.
type Rows struct {
	Question    string
	Columns     []string
	ColumnTypes []planast.Type
	Rows        [][]any
	RowCount    int
	Truncated   bool
	// LimitZero says the plan itself asked for no rows ("limit": 0), so an
	// empty result says nothing about the data.
	LimitZero bool
	// Skipped is the plan's offset: an empty result after it says only
	// that no more rows than that matched, not that none did.
	Skipped int64
	// OrderedBy are the output columns the plan sorts by, in order, when
	// every order_by key is one; nil otherwise. Rows that lead the result
	// with equal values there share first place, and the summary says so.
	OrderedBy []int
}

// RowsOf is the part of a result the answer step reads.
func RowsOf(r *result.Result) Rows {
	return Rows{Question: r.Question, Columns: r.Columns, ColumnTypes: r.ColumnTypes,
		Rows: r.Rows, RowCount: r.RowCount, Truncated: r.Truncated,
		LimitZero: r.Plan != nil && r.Plan.Limit != nil && *r.Plan.Limit == 0,
		Skipped:   skipped(r.Plan),
		OrderedBy: orderedBy(r.Plan, r.Columns)}
}

// orderedBy maps plan's order_by keys to the output columns that hold
// them: an output alias, or a select item's own expression (the same
// column of the same table); nil when a key is neither, or there is none.
func orderedBy(plan *planast.Query, cols []string) []int {
	if plan == nil || len(plan.OrderBy) == 0 || len(plan.SetOps) > 0 {
		return nil
	}
	var out []int
	for _, o := range plan.OrderBy {
		k := -1
		if c, ok := o.Expr.(*planast.Column); ok {
			for i, it := range plan.Select {
				sc, isCol := it.Expr.(*planast.Column)
				alias := c.Table == "" && strings.EqualFold(it.Alias, c.Column)
				same := isCol && c.Table != "" && sc.Table == c.Table && strings.EqualFold(sc.Column, c.Column)
				if (alias || same) && i < len(cols) {
					k = i
					break
				}
			}
		}
		if k < 0 {
			return nil
		}
		out = append(out, k)
	}
	return out
}

// Reply is what the answer step did: Text is the model's answer, or ""
// when the pipeline must keep its template summary, with Warning saying
// why when a call was made.
type Reply struct {
	Text    string
	Warning string
	Calls   int
	Usage   llm.Usage
}

// Model writes the answer with a model; Trace (optional) records the call.
type Model struct {
	Answerer Completer
	Today    string
	Trace    func(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration)
}

// Answer asks the answer model (step "answer") for a summary drawn from
// at most PreviewRows rows, delimited as data. Deterministic code keeps it honest: an
// answer quoting a number that is not in the preview (or the row count),
// or quoting text the rows do not hold, is discarded with a warning.
// Without an answer model, or without rows, no call is made.
func (m Model) Answer(ctx context.Context, ds string, r Rows) Reply {
	if m.Answerer == nil || len(r.Rows) == 0 {
		return Reply{}
	}
	preview := r.Rows
	if len(preview) > PreviewRows {
		preview = preview[:PreviewRows]
	}
	framed, data := modeltext.FrameRows(r.Columns, r.RowCount, r.Truncated, preview)
	user := "Question: " + r.Question + "\n" + framed
	msgs := []llm.Message{{Role: "system", Content: answerSystemPrompt}, {Role: "user", Content: user}}
	req := llm.Request{Step: "answer", Datasource: ds, Intent: r.Question, Messages: msgs,
		SchemaName: "answer", Schema: answerSchema, PromptHash: modeltext.Hash(msgs, m.Today)}
	t0 := time.Now()
	resp, err := m.Answerer.Complete(ctx, req)
	if m.Trace != nil {
		m.Trace(ctx, req, resp, err, time.Since(t0))
	}
	out := Reply{Calls: 1}
	if err != nil {
		out.Warning = "the answer model failed; the answer is a summary of the first rows"
		return out
	}
	out.Usage = resp.Usage
	var got struct {
		Answer string `json:"answer"`
	}
	if json.Unmarshal(resp.Content, &got) != nil || strings.TrimSpace(got.Answer) == "" {
		out.Warning = "the answer model's reply was unusable; the answer is a summary of the first rows"
		return out
	}
	if bad := unsupportedNumber(got.Answer, data); bad != "" {
		out.Warning = "the answer model quoted " + bad + ", which is not in the rows; the answer is a summary of the first rows"
		return out
	}
	if bad := unsupportedQuote(got.Answer, r.Question, r.Columns, preview); bad != "" {
		out.Warning = "the answer model quoted text that is not in the rows (" + quoteText(bad) + "); the answer is a summary of the first rows"
		return out
	}
	out.Text = strings.TrimSpace(got.Answer)
	return out
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

func skipped(q *planast.Query) int64 {
	if q == nil || q.Offset == nil {
		return 0
	}
	return *q.Offset
}
