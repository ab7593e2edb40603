package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/planast"
)

// A host caps what one tool result may hold (Claude Code: about 25,000
// tokens); a result over its cap is dropped whole, so the caller loses the
// answer rather than a tail of rows. Every nl2sql tool result and resource
// therefore fits a token budget, counted in o200k_base tokens
// (schemactx.ContextTokens, the project's one tokenizer) over the result as
// sent: its JSON, structured content and text part together.
//
// Rows are what grows: FitResult keeps the leading rows that fit and says
// so (truncated, truncated_reason "token_budget", query_row_count, and a
// line in the text). Anything else that would not fit (a huge list) is
// refused by FitStructured with RESULT_TOO_LARGE and a hint rather than
// sent to be dropped.

// Truncation reasons of engine.Result.TruncatedReason.
const (
	TruncatedRowLimit    = "row_limit"
	TruncatedTokenBudget = "token_budget"
)

// CodeResultTooLarge refuses a result that cannot be cut to its budget.
const CodeResultTooLarge engine.Code = "RESULT_TOO_LARGE"

// Budgeter is an engine with a configured result budget
// (engine.Engine.ResultTokenBudget, config results.token_budget).
type Budgeter interface {
	ResultTokenBudget() int
}

// BudgetOf is eng's result budget in tokens: its configured one, else
// config.DefaultResultTokens.
func BudgetOf(eng any) int {
	if b, ok := eng.(Budgeter); ok && b.ResultTokenBudget() > 0 {
		return b.ResultTokenBudget()
	}
	return config.DefaultResultTokens
}

// Tokens counts s in o200k_base. A token is at least one byte, so a
// string of at most n bytes counts at most n tokens: callers skip the
// tokenizer when the byte length already fits.
func Tokens(s string) int { return schemactx.ContextTokens(s) }

// target is what a result is cut to: 3% under the budget, for what the
// count cannot see — the JSON-RPC envelope around the result, and a client
// that re-encodes the JSON with its keys in another order before counting.
func target(budget int) int { return budget - budget*3/100 }

// MaxAnswerBytes caps the answer text of a result with rows: the answer
// is a short summary, and one drawn from long values (the engine's
// summary quotes the first rows' values as stored) would otherwise crowd
// the rows out of the budget.
const MaxAnswerBytes = 4000

func capAnswer(a string) string {
	if len(a) <= MaxAnswerBytes {
		return a
	}
	cut := MaxAnswerBytes
	for cut > 0 && !utf8.RuneStart(a[cut]) {
		cut--
	}
	return a[:cut] + "… (answer cut: it passed " + thousands.Sprintf("%d", MaxAnswerBytes) + " bytes)"
}

// answerPlaceholders replaces, in an answer drawn from the first rows, each
// blob value those rows carry (old) by its placeholder (now).
func answerPlaceholders(answer string, old, now [][]any) string {
	for r := 0; r < len(old) && r < 20; r++ {
		for i, v := range old[r] {
			if s, ok := v.(string); ok && len(s) >= 16 && now[r][i] != v && strings.Contains(answer, s) {
				answer = strings.ReplaceAll(answer, s, now[r][i].(string))
			}
		}
	}
	return answer
}

// sentTokens counts a tool result as it goes on the wire (its JSON).
func sentTokens(r *mcpgo.CallToolResult) int {
	b, err := json.Marshal(r)
	if err != nil {
		return 0
	}
	return Tokens(string(b))
}

// structured is mcpgo.NewToolResultStructured(v, text) with v encoded once:
// RawStructuredContent holds v's JSON, which mcp-go sends as it is and
// fits measures without encoding v again; StructuredContent keeps v for
// in-process readers (middleware, tests). Nothing may change v after.
func structured(v any, text string) *mcpgo.CallToolResult {
	b, err := json.Marshal(v)
	return structuredJSON(v, b, err, text)
}

// structuredJSON is structured with v's JSON already encoded (b, or err).
func structuredJSON(v any, b []byte, err error, text string) *mcpgo.CallToolResult {
	res := mcpgo.NewToolResultStructured(v, text)
	if err == nil {
		res.RawStructuredContent = b
	}
	return res
}

// wireLen is len(json.Marshal(r)) without copying r's structured content:
// json.Marshal output is already compact and HTML-escaped, which is what
// encoding/json makes of a json.RawMessage, so the content's bytes add
// exactly their length.
func wireLen(r *mcpgo.CallToolResult) (int, error) {
	if n, ok := textResultLen(r); ok {
		return n, nil
	}
	if len(r.RawStructuredContent) == 0 {
		b, err := json.Marshal(r)
		return len(b), err
	}
	c := *r
	c.RawStructuredContent = json.RawMessage("0")
	b, err := json.Marshal(&c)
	return len(b) - 1 + len(r.RawStructuredContent), err
}

// textEnvelope is the JSON of a result holding one empty text content
// and structured content "0": what textResultLen adds its parts to.
var textEnvelope = func() int {
	b, err := json.Marshal(&mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent("")}, RawStructuredContent: json.RawMessage("0")})
	if err != nil {
		panic(err)
	}
	return len(b)
}()

// textResultLen is wireLen without encoding anything, for the shape of
// nearly every result (one text content, raw structured content, nothing
// else): the envelope's length, the content's bytes, and the text's length
// as encoding/json writes it (jsonStringLen). ok is false for any other
// shape.
func textResultLen(r *mcpgo.CallToolResult) (n int, ok bool) {
	if r.Meta != nil || r.ResultType != "" || r.IsError || len(r.InputRequests) > 0 || r.RequestState != "" ||
		len(r.RawStructuredContent) == 0 || len(r.Content) != 1 {
		return 0, false
	}
	tc, ok := r.Content[0].(mcpgo.TextContent)
	if !ok || tc.Annotations != nil || tc.Meta != nil || tc.Type != "text" {
		return 0, false
	}
	// the envelope holds "" and 0 where the text's quoted form and the
	// structured content go
	return textEnvelope - 1 + len(r.RawStructuredContent) + jsonStringLen(tc.Text) - 2, true
}

// jsonStringLen is len(json.Marshal(s)): the quotes, each byte that
// needs no escape, two bytes for the short escapes (\", \\, \b, \f, \n,
// \r, \t), six for \u00XX (other control bytes, and <, > and &, which
// encoding/json escapes for HTML), six for each byte of invalid UTF-8
// (\ufffd) and for U+2028 and U+2029; other characters as their bytes.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			n += int(asciiJSONLen[b])
			i++
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if (c == utf8.RuneError && size == 1) || c == '\u2028' || c == '\u2029' {
			n += 6
		} else {
			n += size
		}
		i += size
	}
	return n
}

// asciiJSONLen is how many bytes encoding/json writes for each ASCII byte
// inside a string: jsonStringLen's table, looked up once a byte on every
// result's text.
var asciiJSONLen = func() (t [utf8.RuneSelf]uint8) {
	for b := range t {
		switch {
		case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
			t[b] = 2
		case b < 0x20 || b == '<' || b == '>' || b == '&':
			t[b] = 6
		default:
			t[b] = 1
		}
	}
	return t
}()

// fits reports whether r fits budget, tokenizing only when its bytes do
// not already prove it.
func fits(r *mcpgo.CallToolResult, budget int) (bool, int) {
	n, err := wireLen(r)
	if err != nil {
		return false, 0
	}
	if n <= budget {
		return true, n
	}
	b, err := json.Marshal(r)
	if err != nil {
		return false, 0
	}
	n = Tokens(string(b))
	return n <= budget, n
}

// FitStructured is the result of a tool whose output has no rows to cut
// (lists, search hits, a plan check, an answer kind without rows): v as
// structured content with text, when it fits eng's budget; else a
// RESULT_TOO_LARGE error result naming the size and the budget.
func FitStructured(eng any, v any, text string) *mcpgo.CallToolResult {
	res := structured(v, text)
	budget := target(BudgetOf(eng))
	if ok, n := fits(res, budget); !ok {
		return tooLarge(n, budget)
	}
	return res
}

func tooLarge(n, budget int) *mcpgo.CallToolResult {
	return errorResult(&engine.Error{Code: CodeResultTooLarge,
		Msg:  fmt.Sprintf("the result would be %d tokens, over this server's %d-token result budget", n, budget),
		Hint: "narrow the request (a filter, a datasource, fewer columns); the operator sets results.token_budget in nl2sql.yaml"})
}

// Binary says how blob values appear in a tool result.
type Binary string

// Binary modes: a placeholder with the size and a short hash (the
// default: base64 of a few kilobytes of bytes is thousands of tokens a
// model cannot read), or the exact bytes as standard base64.
const (
	BinaryPlaceholder Binary = "placeholder"
	BinaryBase64      Binary = "base64"
)

// FitResult is the tool result of a result with rows (ask, run_plan,
// run_verified_query, run_approved): blob values shown as placeholders
// unless binary is BinaryBase64, then the leading rows that fit eng's
// token budget, with truncated, truncated_reason and query_row_count set
// when rows were cut and the text saying how many rows it holds of how
// many the query returned. res is not changed.
//
// Counting is linear in the rows kept: the result without rows is counted
// once, then each row's JSON and its text line once, stopping at the first row past the budget; the assembled
// result is then counted once to verify, and cut further in the rare case
// the estimate was short (JSON escaping of the text part).
func FitResult(eng any, res *engine.Result, binary Binary) *mcpgo.CallToolResult {
	return fitResult(eng, res, binary, false)
}

// NameTruncation sets a cut result's truncated_reason when nothing named
// it yet: the query stopped at the row limit (a budget cut names itself).
// Every surface that prints a result whole (the tools, the CLI's --json)
// says why its rows end.
func NameTruncation(res *engine.Result) {
	if res.Truncated && res.TruncatedReason == "" {
		res.TruncatedReason = TruncatedRowLimit
	}
}

// fitResult is FitResult, with the result view's _meta when view is set.
func fitResult(eng any, res *engine.Result, binary Binary, view bool) *mcpgo.CallToolResult {
	out := *res
	if binary != BinaryBase64 {
		out.Rows = withPlaceholders(res)
		out.Answer = answerPlaceholders(res.Answer, res.Rows, out.Rows)
	}
	out.Answer = capAnswer(out.Answer)
	NameTruncation(&out)
	budget := target(BudgetOf(eng))
	full := resultFor(&out, view)
	if ok, _ := fits(full, budget); ok {
		return full
	}
	all := out.Rows
	if base := sentTokens(resultFor(cutRows(&out, all, 0, budget), view)); base > budget/2 {
		// the echo of the plan and its SQL, not the rows, is what is large
		// (a long CASE pasted from a warning renders to kilobytes of SQL):
		// it goes before any row does, or a one-row answer is refused
		out = slimmed(out, budget)
	}
	n := estimateRows(&out, all, budget, view)
	for range 6 {
		cut := cutRows(&out, all, n, budget)
		r := resultFor(cut, view)
		ok, got := fits(r, budget)
		if ok || n == 0 {
			if !ok {
				return tooLarge(got, budget)
			}
			return r
		}
		// over by an estimate's error: shrink in proportion, at least one row
		next := n * budget / got
		if next >= n {
			next = n - 1
		}
		n = max(next, 0)
	}
	return tooLarge(sentTokens(resultFor(cutRows(&out, all, 0, budget), view)), budget)
}

// maxEchoSQL is how much of the SQL a result too large for its budget
// keeps.
const maxEchoSQL = 2000

// slimmed is out without its plans and with its SQL cut to maxEchoSQL
// bytes: what it echoes of the request, which the trace keeps whole.
func slimmed(out engine.Result, budget int) engine.Result {
	cut := cutSQL
	// the SQL of every part counts: a combination's own SQL is short and
	// its datasources' may be long
	n := len(out.SQL)
	out.SQL, out.Plan = cut(out.SQL), nil
	subs := make([]engine.SubQuery, len(out.SubQueries))
	for i, sq := range out.SubQueries {
		n += len(sq.SQL)
		sq.SQL, sq.Plan = cut(sq.SQL), nil
		subs[i] = sq
	}
	out.SubQueries = subs
	out.Warnings = append(append([]string{}, out.Warnings...), fmt.Sprintf(
		"the plans are left out of this result and each SQL past %d bytes is cut there (%d bytes of SQL in all), to fit the %d-token result budget; the rows are whole, and a plan you sent is the one that ran (trace %s holds them whole for the server's operator: nl2sql trace show)",
		maxEchoSQL, n, budget, out.TraceID))
	return out
}

// cutSQL is sql cut to maxEchoSQL bytes (on a character boundary), saying
// how long it was.
func cutSQL(sql string) string {
	if len(sql) <= maxEchoSQL {
		return sql
	}
	i := maxEchoSQL
	for i > 0 && !utf8.RuneStart(sql[i]) {
		i--
	}
	return sql[:i] + fmt.Sprintf("\n-- … cut: the SQL is %d bytes", len(sql))
}

// cutRows is out holding only the first n of rows, marked as cut by the
// token budget when n < len(rows).
func cutRows(out *engine.Result, rows [][]any, n, budget int) *engine.Result {
	c := *out
	c.Rows = rows[:n]
	if n < len(rows) {
		c.QueryRowCount = len(rows)
		c.RowCount = n
		c.Truncated = true
		c.TruncatedReason = TruncatedTokenBudget
		c.Warnings = append(append([]string{}, out.Warnings...), fmt.Sprintf(
			"the result holds the first %d of the %d rows the query returned: the rest would pass the %d-token result budget; add a filter or an aggregate, or select fewer columns",
			n, len(rows), budget))
	}
	return &c
}

// estimateRows counts how many leading rows fit budget: the result
// without rows (and its text) once, then row by row.
func estimateRows(out *engine.Result, rows [][]any, budget int, view bool) int {
	base := sentTokens(resultFor(cutRows(out, rows, 0, budget), view))
	used := base
	for i, row := range rows {
		b, _ := json.Marshal(row)
		cost := Tokens(string(b)) + Tokens(textLine(row)) + 2
		if view {
			cost += viewRowCost(row, out.ColumnTypes)
		}
		if used+cost > budget {
			return i
		}
		used += cost
	}
	return len(rows)
}

// textLine approximates a row's line in the text table (tabwriter pads
// cells; the padding is spaces, which o200k_base merges cheaply).
func textLine(row []any) string {
	s := ""
	for _, v := range row {
		s += cell(v, planast.TypeUnknown, CellWidth(len(row))) + "  "
	}
	return s
}

// withPlaceholders returns res's rows with each value of a blob column
// replaced by BinaryPlaceholderText of its bytes; rows without blob columns
// are shared, not copied.
func withPlaceholders(res *engine.Result) [][]any {
	var blobs []int
	for i, t := range res.ColumnTypes {
		if t == "blob" {
			blobs = append(blobs, i)
		}
	}
	if len(blobs) == 0 {
		return res.Rows
	}
	rows := make([][]any, len(res.Rows))
	for r, row := range res.Rows {
		c := append([]any(nil), row...)
		for _, i := range blobs {
			if i >= len(c) {
				continue
			}
			if s, ok := c[i].(string); ok {
				// internal/source encodes bytes as standard base64 (its value rule)
				if b, err := base64.StdEncoding.DecodeString(s); err == nil {
					c[i] = BinaryPlaceholderText(b)
				}
			}
		}
		rows[r] = c
	}
	return rows
}

// BinaryPlaceholderText is how a binary value appears in a tool result:
// cellfmt.Binary, the placeholder every human rendering shows, e.g.
// "<binary 2,048 bytes sha256:1a2b3c4d>".
func BinaryPlaceholderText(b []byte) string { return cellfmt.Binary(b) }

var thousands = message.NewPrinter(language.English)

// BudgetGuard is the last check every tool result passes on its way out
// (mcp.NewServer installs it): a result over eng's budget that its tool
// did not cut — a tool added without FitResult or FitStructured — becomes
// RESULT_TOO_LARGE instead of a result the host would drop. Results that
// already fit pass unchanged; the check is one byte count for most.
func BudgetGuard(eng any) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := next(ctx, req)
			if err != nil || res == nil {
				return res, err
			}
			budget := BudgetOf(eng)
			if ok, n := fits(res, budget); !ok {
				return tooLarge(n, budget), nil
			}
			return res, nil
		}
	}
}
