package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/planast"
)

var testPlan *planast.Query

type budgetOf int

func (b budgetOf) ResultTokenBudget() int { return int(b) }

// refFits and refFitResult are the sizing rule as it was before results
// were encoded once: every candidate result marshalled whole, structured
// content included. The single-pass sizing must keep and cut exactly the
// rows this rule kept and cut, and send the same bytes.
func refFits(r *mcpgo.CallToolResult, budget int) (bool, int) {
	b, err := json.Marshal(r)
	if err != nil {
		return false, 0
	}
	if len(b) <= budget {
		return true, len(b)
	}
	n := Tokens(string(b))
	return n <= budget, n
}

func refResultFor(r *engine.Result, view bool) *mcpgo.CallToolResult {
	res := resultFor(r, view)
	res.RawStructuredContent = nil
	return res
}

func refSentTokens(r *mcpgo.CallToolResult) int {
	b, _ := json.Marshal(r)
	return Tokens(string(b))
}

func refFitResult(eng any, res *engine.Result, binary Binary, view bool) *mcpgo.CallToolResult {
	out := *res
	if binary != BinaryBase64 {
		out.Rows = withPlaceholders(res)
		out.Answer = answerPlaceholders(res.Answer, res.Rows, out.Rows)
	}
	out.Answer = capAnswer(out.Answer)
	if out.Truncated && out.TruncatedReason == "" {
		out.TruncatedReason = TruncatedRowLimit
	}
	budget := target(BudgetOf(eng))
	full := refResultFor(&out, view)
	if ok, _ := refFits(full, budget); ok {
		return full
	}
	all := out.Rows
	base := refSentTokens(refResultFor(cutRows(&out, all, 0, budget), view))
	if base > budget/2 { // the echo goes first (slimmed), as in fitResult
		out = slimmed(out, budget)
		base = refSentTokens(refResultFor(cutRows(&out, all, 0, budget), view))
	}
	n, used := len(all), base
	for i, row := range all {
		b, _ := json.Marshal(row)
		cost := Tokens(string(b)) + Tokens(textLine(row)) + 2
		if view {
			cost += viewRowCost(row, out.ColumnTypes)
		}
		if used+cost > budget {
			n = i
			break
		}
		used += cost
	}
	for range 6 {
		r := refResultFor(cutRows(&out, all, n, budget), view)
		ok, got := refFits(r, budget)
		if ok || n == 0 {
			if !ok {
				return tooLarge(got, budget)
			}
			return r
		}
		next := n * budget / got
		if next >= n {
			next = n - 1
		}
		n = max(next, 0)
	}
	return tooLarge(refSentTokens(refResultFor(cutRows(&out, all, 0, budget), view)), budget)
}

// randomResult is a result of up to 300 rows of mixed values: numbers,
// text with quotes, HTML characters, escapes and non-ASCII, nulls and blobs,
// with a plan whose literals need escaping.
func randomResult(r *rand.Rand) *engine.Result {
	words := []string{"Brazil", "<b>&amp;</b>", `quote "x"`, "tab\there", "naïve café", "日本語のテキスト", "line\nbreak", "\u2028sep", strings.Repeat("long ", 30), ""}
	cols := 1 + r.IntN(5)
	res := &engine.Result{Question: "q " + words[r.IntN(len(words))], Answer: "answer " + words[r.IntN(len(words))], SQL: `SELECT "a" FROM "t" WHERE x = '<&>'`, TraceID: "t1"}
	for c := range cols {
		res.Columns = append(res.Columns, fmt.Sprintf("col%d", c))
		res.ColumnTypes = append(res.ColumnTypes, []planast.Type{planast.TypeText, planast.TypeInteger, planast.TypeFloat, planast.TypeBlob}[r.IntN(4)])
	}
	for range r.IntN(160) {
		row := make([]any, cols)
		for c := range row {
			switch res.ColumnTypes[c] {
			case planast.TypeInteger:
				row[c] = json.Number(fmt.Sprint(r.Int64N(1 << 40)))
			case planast.TypeFloat:
				row[c] = r.Float64() * 1e6
			case planast.TypeBlob:
				row[c] = "AAECAwQFBgcICQoLDA0ODw=="
			default:
				if r.IntN(8) == 0 {
					row[c] = nil
				} else {
					row[c] = words[r.IntN(len(words))]
				}
			}
		}
		res.Rows = append(res.Rows, row)
	}
	res.RowCount = len(res.Rows)
	res.Truncated = r.IntN(4) == 0
	res.Plan = testPlan
	if r.IntN(3) == 0 {
		res.Warnings = []string{"warning <" + words[r.IntN(len(words))] + ">"}
	}
	return res
}

// TestSinglePassSizingCutsAsBefore: a tool result sized from one encoding
// keeps the same rows, says the same about the cut and sends the same
// bytes as the old rule that marshalled every candidate whole — on a few
// thousand random results and budgets from far under to far over their
// size, in both binary modes and with and without the view's _meta.
func TestSinglePassSizingCutsAsBefore(t *testing.T) {
	var err error
	testPlan, err = planast.Decode([]byte(`{"select":[{"expr":{"kind":"column","table":"t","column":"a"},"alias":"<a&b>"}],"from":[{"table":"t","alias":"t"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t","column":"x"},"right":{"kind":"literal","value":"<&> \"q\" \u2028"}}}`), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 11))
	cut, kept, refused := 0, 0, 0
	for i := range 700 {
		res := randomResult(r)
		budget := budgetOf([]int{50, 200, 600, 1500, 4000, 20000}[r.IntN(6)])
		binary := []Binary{BinaryPlaceholder, BinaryBase64}[r.IntN(2)]
		view := r.IntN(3) == 0
		want, _ := json.Marshal(refFitResult(budget, res, binary, view))
		gotRes := fitResult(budget, res, binary, view)
		got, _ := json.Marshal(gotRes)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d (budget %d, %s, view %v): single-pass sizing sent\n%s\nthe two-pass rule sent\n%s", i, budget, binary, view, got, want)
		}
		okNew, nNew := fits(gotRes, int(budget))
		okRef, nRef := refFits(gotRes, int(budget))
		if okNew != okRef || nNew != nRef {
			t.Fatalf("case %d: the guard's check says (%v, %d), the two-pass rule (%v, %d)", i, okNew, nNew, okRef, nRef)
		}
		switch {
		case gotRes.IsError:
			refused++
		case bytes.Contains(got, []byte(`"truncated_reason":"token_budget"`)):
			cut++
		default:
			kept++
		}
	}
	if cut < 50 || kept < 50 || refused == 0 {
		t.Fatalf("the cases do not cover each outcome: %d cut, %d kept whole, %d refused", cut, kept, refused)
	}
	t.Logf("%d cut, %d kept whole, %d refused", cut, kept, refused)
}

// TestJSONStringLenIsMarshalsLength: jsonStringLen agrees with
// encoding/json on every byte alone and in context, on the escapes it
// treats apart, and on random byte strings (invalid UTF-8 included).
func TestJSONStringLenIsMarshalsLength(t *testing.T) {
	cases := []string{"", "plain", "<&>", "\u2028\u2029", "naïve 日本語", "\xff\xfe", "a\xc3", "\x7f\x00\x1f", `"\`}
	for b := range 256 {
		c := string([]byte{byte(b)})
		cases = append(cases, c, "x"+c+"y", c+"é")
	}
	r := rand.New(rand.NewPCG(3, 5))
	for range 3000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		cases = append(cases, string(b), "é"+string(b)+"\u2028")
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonStringLen(s); got != len(want) {
			t.Fatalf("jsonStringLen(%q) = %d, encoding/json writes %d bytes: %s", s, got, len(want), want)
		}
	}
}

// The threat: a plan that pastes the long expression a warning offers
// renders to tens of kilobytes of SQL, and its one-row answer was refused
// as RESULT_TOO_LARGE, the rows being the smallest part of it. What the
// result echoes of the request (the plan, the SQL past its first 2,000
// bytes) goes before any row does, and the result says so and where the
// whole is; a check of such a plan keeps its verdict the same way.
func TestLongSQLIsCutBeforeTheRows(t *testing.T) {
	sql := "SELECT " + strings.Repeat("CASE WHEN x LIKE '__/__/____' THEN 1 END + ", 2000) + "1 AS n"
	res := &engine.Result{Answer: "n 79.", Columns: []string{"n"}, ColumnTypes: []planast.Type{planast.TypeInteger},
		Rows: [][]any{{int64(79)}}, RowCount: 1, SQL: sql, TraceID: "t1", Warnings: []string{}}
	r := fitResult(budgetOf(4000), res, BinaryPlaceholder, false)
	if r.IsError {
		t.Fatalf("a one-row answer with %d bytes of SQL was refused: %v", len(sql), r.Content)
	}
	b, _ := json.Marshal(r.StructuredContent)
	if r.StructuredContent == nil {
		b = []byte(fmt.Sprint(r.RawStructuredContent))
	}
	text := fmt.Sprint(r.Content)
	if !strings.Contains(text, "79") || !strings.Contains(text, "-- … cut: the SQL is") || !strings.Contains(text, "trace t1 holds them whole") {
		t.Errorf("result %s / %s: want the row, the SQL cut with its length, and where the whole is", text, b)
	}
	// a combination's own SQL is short, its datasources' long: the size
	// said is of all of them, not a short SQL "cut" to a longer length
	comb := &engine.Result{Answer: "n 79.", Columns: []string{"n"}, ColumnTypes: []planast.Type{planast.TypeInteger},
		Rows: [][]any{{int64(79)}}, RowCount: 1, SQL: "SELECT n FROM a", TraceID: "t2", Warnings: []string{},
		SubQueries: []engine.SubQuery{{ID: "a", SQL: sql}}}
	r = fitResult(budgetOf(4000), comb, BinaryPlaceholder, false)
	if text := fmt.Sprint(r.Content); !strings.Contains(text, fmt.Sprintf("(%d bytes of SQL in all)", len(sql)+len("SELECT n FROM a"))) {
		t.Errorf("combined result %s: want the SQL of every part counted", text)
	}
}
