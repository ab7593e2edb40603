package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/scale"
	"github.com/tiktoken-go/tokenizer"
)

// The scaling tests replay engine/testdata/scale/recordings (written by
// gen.py there): seven candidates for one question that disagree — two
// count albums (right), three count tracks (wrong), one filters everything
// away (empty), one names a column that does not exist and has no recorded
// repair (error) — and the selector's verdicts.

const scaleQ = "Which artist has released the most albums?"

func scaleEngine(t *testing.T, cfg ScaleConfig, selector Planner, traceDir string) *Engine {
	t.Helper()
	rp, err := llm.OpenReplay(filepath.Join("testdata", "scale", "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	return scaleEngineWith(t, rp, cfg, selector, traceDir)
}

func scaleEngineWith(t *testing.T, planner Planner, cfg ScaleConfig, selector Planner, traceDir string) *Engine {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000}},
		Planner:     planner, Selector: selector, Scaling: cfg, TraceDir: traceDir,
		Today: func() string { return "2026-01-15" },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// sevenCandidates is plain ×2, reasoning ×2, decompose ×3.
func sevenCandidates(tournament bool, refinements int) ScaleConfig {
	return ScaleConfig{Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 2}, {Name: scale.StrategyReasoning, Samples: 2},
		{Name: scale.StrategyDecompose, Samples: 3}}, Tournament: tournament, MaxRefinements: refinements}
}

// stable drops the two fields that differ between runs.
func stable(t *testing.T, r *Result) []byte {
	t.Helper()
	c := *r
	c.Timings, c.TraceID = Timings{}, ""
	b, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type bucketShape struct {
	size       int
	strategies string
	empty, err bool
}

func bucketShapes(bs []scale.BucketReport) []bucketShape {
	var out []bucketShape
	for _, b := range bs {
		out = append(out, bucketShape{b.Size, strings.Join(b.Strategies, ","), b.Empty, b.Error})
	}
	return out
}

// Disagreeing candidates: the tournament picks the albums bucket though the
// tracks bucket is larger; the trace shows the buckets; two runs on two
// engines are byte-identical.
func TestScaleReplayDisagreeingCandidates(t *testing.T) {
	ctx := context.Background()
	wantBuckets := []bucketShape{{2, "plain,reasoning", false, false}, {3, "plain,reasoning,decompose", false, false},
		{1, "decompose", true, false}, {1, "decompose", false, true}}
	cases := []struct {
		name        string
		cfg         ScaleConfig
		selection   string
		rows        string
		calls       int
		wantBuckets []bucketShape
	}{
		// 7 candidates + 1 repair attempt (no recording: error) + 3 selector pairs
		{"tournament", sevenCandidates(true, 0), "tournament", `[["Iron Maiden",21]]`, 11, wantBuckets},
		{"majority", sevenCandidates(false, 0), "majority", `[["Iron Maiden",213]]`, 8, wantBuckets},
		// + 3 critiques, 2 revisions (both count albums and join bucket 0)
		{"critique and revision", sevenCandidates(true, 1), "tournament", `[["Iron Maiden",21]]`, 16,
			[]bucketShape{{4, "plain,reasoning,revision", false, false}, {3, "plain,reasoning,decompose", false, false},
				{1, "decompose", true, false}, {1, "decompose", false, true}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, dir2 := t.TempDir(), t.TempDir()
			e1, e2 := scaleEngine(t, tc.cfg, nil, dir), scaleEngine(t, tc.cfg, nil, dir2)
			r1, err := e1.Ask(ctx, AskRequest{Question: scaleQ})
			if err != nil {
				t.Fatal(err)
			}
			r2, err := e2.Ask(ctx, AskRequest{Question: scaleQ})
			if err != nil {
				t.Fatal(err)
			}
			e1.FlushTraces()
			e2.FlushTraces()
			if b1, b2 := stable(t, r1), stable(t, r2); !bytes.Equal(b1, b2) {
				t.Errorf("two runs differ:\n%s\n%s", b1, b2)
			}
			rows, _ := json.Marshal(r1.Rows)
			sc := r1.Scaling
			if string(rows) != tc.rows || sc == nil || sc.Selection != tc.selection || sc.Degraded {
				t.Fatalf("rows %s, scaling %+v", rows, sc)
			}
			if got := bucketShapes(sc.Buckets); fmt.Sprint(got) != fmt.Sprint(tc.wantBuckets) {
				t.Errorf("buckets = %v, want %v", got, tc.wantBuckets)
			}
			if r1.Usage.ModelCalls != tc.calls {
				t.Errorf("model calls = %d, want %d (stages %+v)", r1.Usage.ModelCalls, tc.calls, sc.Stages)
			}
			tr, err := ReadTrace(dir, r1.TraceID)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Scaling == nil || fmt.Sprint(bucketShapes(tr.Scaling.Buckets)) != fmt.Sprint(tc.wantBuckets) || tr.Scaling.Selection != tc.selection {
				t.Errorf("trace scaling = %+v", tr.Scaling)
			}
			tr2, err := ReadTrace(dir2, r2.TraceID)
			if err != nil {
				t.Fatal(err)
			}
			s1, _ := json.Marshal(tr.Scaling)
			s2, _ := json.Marshal(tr2.Scaling)
			if !bytes.Equal(s1, s2) || len(tr.ModelCalls) != tc.calls {
				t.Errorf("the traces' scaling sections differ or miss calls (%d):\n%s\n%s", len(tr.ModelCalls), s1, s2)
			}
		})
	}
}

// A selector that fails (an OpenAI-compatible server answering 500): the
// largest bucket wins and the result says so.
func TestScaleSelectorFailsMajorityWins(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":{"message":"the selector is down","type":"server_error"}}`)
	}))
	t.Cleanup(srv.Close)
	sel, err := llm.NewOpenAI(llm.Options{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "selector-test"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := scaleEngine(t, sevenCandidates(true, 0), sel, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := json.Marshal(res.Rows)
	sc := res.Scaling
	if string(rows) != `[["Iron Maiden",213]]` || sc.Selection != "majority_selector_failed" || sc.Selected != 1 {
		t.Fatalf("rows %s selection %q selected %d", rows, sc.Selection, sc.Selected)
	}
	if !strings.Contains(sc.SelectorError, "selector is down") || !strings.Contains(strings.Join(res.Warnings, "\n"), "selector failed") {
		t.Errorf("selector error %q, warnings %q", sc.SelectorError, res.Warnings)
	}
}

// Scaling off (the zero config, or one plain sample) is the single-call
// path: no scaling report, the same bytes as an engine without the field.
func TestScaleOffIsSingleCall(t *testing.T) {
	ctx := context.Background()
	plain := chinookEngine(t, "")
	want, err := plain.Ask(ctx, AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []ScaleConfig{{}, {Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 1}}}} {
		got, err := scaleEngine(t, cfg, nil, "").Ask(ctx, AskRequest{Question: scaleQ})
		if err != nil {
			t.Fatal(err)
		}
		if got.Scaling != nil || bytes.Contains(stable(t, got), []byte(`"scaling"`)) || got.Usage.ModelCalls != 1 {
			t.Errorf("config %+v: scaling %+v, usage %+v", cfg, got.Scaling, got.Usage)
		}
	}
	if bytes.Contains(stable(t, want), []byte(`"scaling"`)) {
		t.Error("the default result has a scaling field")
	}
}

// The feature router (engine/scale) sends an easy question to the single
// call, whose model call is the only one.
func TestScaleRouterFeatures(t *testing.T) {
	cfg := sevenCandidates(true, 0)
	cfg.Router = scale.RouterFeatures
	res, err := scaleEngine(t, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scaling.Route != "single" || res.Usage.ModelCalls != 1 || !strings.Contains(res.Scaling.RouteReason, "easy") {
		t.Errorf("scaling %+v usage %+v", res.Scaling, res.Usage)
	}
}

// strictAnswer is a plan answer in the strict form structured outputs
// return (every property present).
const strictAnswer = `{"reasoning":"List one artist.","plan":{"with":null,"distinct":null,` +
	`"select":[{"expr":{"kind":"column","table":"ar","column":"Name"},"alias":"Artist"}],` +
	`"from":[{"schema":null,"table":"Artist","alias":"ar","subquery":null}],"joins":null,"where":null,` +
	`"group_by":null,"having":null,"qualify":null,"with_ties":null,"order_by":null,"limit":1,"offset":null,"set_ops":null}}`

// chatCompletion writes a documented Chat Completions response (OpenAI API
// reference, "The chat completion object") with the given usage.
func chatCompletion(w http.ResponseWriter, content, finish string, in, out int) {
	c, _ := json.Marshal(content)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"plan-test",
"choices":[{"index":0,"message":{"role":"assistant","content":%s,"refusal":null},"finish_reason":%q}],
"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`, c, finish, in, out, in+out)
}

// planServer is an OpenAI-compatible chat-completions server that answers
// the plain prompt with answer, the other strategies' prompts with the same
// plan over Genre, and the selector with "B", reports usage counted over
// what it received as the provider counts it (serverTokens), and refuses an
// answer longer than max_completion_tokens (finish_reason "length"). It
// totals the tokens it reported.
type planServer struct {
	*httptest.Server
	mu          sync.Mutex
	calls, used int
	noCap       int
	minIn       int // the smallest input of a planner call
}

// serverTokens counts s as the provider does, with the o200k_base
// vocabulary straight from github.com/tiktoken-go/tokenizer (and the chat
// format's documented 3 tokens per message and per reply, added by the
// caller): on its own, never through the engine's estimator
// (schemactx.ContextTokens, estimateInput), so an estimate that undercounts
// shows as a budget the server sees exceeded.
// A counting failure reads as a huge count, so the budget check fails.
func serverTokens(s string) int {
	codec, err := serverCodec()
	if err != nil {
		return 1 << 30
	}
	n, err := codec.Count(s)
	if err != nil {
		return 1 << 30
	}
	return n
}

var serverCodec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

func newPlanServer(t *testing.T, answer string) *planServer {
	ps := &planServer{}
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages       []llm.Message `json:"messages"`
			MaxTokens      int           `json:"max_completion_tokens"`
			ResponseFormat struct {
				JSONSchema struct {
					Schema json.RawMessage `json:"schema"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, 400)
			return
		}
		var compact bytes.Buffer
		json.Compact(&compact, body.ResponseFormat.JSONSchema.Schema)
		in := 3 + serverTokens(compact.String())
		for _, m := range body.Messages {
			in += 3 + serverTokens(m.Role) + serverTokens(m.Content)
		}
		content := answer
		switch last := body.Messages[len(body.Messages)-1].Content; {
		case strings.HasPrefix(body.Messages[0].Content, "You compare"):
			content = `{"winner":"B","reason":"B lists a genre."}`
		case strings.Contains(last, "[APPROACH]"): // the other strategies disagree with plain
			content = strings.NewReplacer(`"Artist"`, `"Genre"`, `"ar"`, `"g"`).Replace(answer)
		}
		out, finish := serverTokens(content), "stop"
		if body.MaxTokens <= 0 || out > body.MaxTokens {
			out, content, finish = body.MaxTokens, "", "length"
		}
		ps.mu.Lock()
		ps.calls++
		ps.used += in + out
		if isPlan := content != `{"winner":"B","reason":"B lists a genre."}`; isPlan && (ps.minIn == 0 || in < ps.minIn) {
			ps.minIn = in
		}
		if body.MaxTokens <= 0 {
			ps.noCap++
		}
		ps.mu.Unlock()
		chatCompletion(w, content, finish, in, out)
	}))
	t.Cleanup(ps.Close)
	return ps
}

// Cost bounds: eight candidates never use more tokens than the budget, as
// the server counts them on its own (serverTokens, not the engine's
// estimator); a budget too small for all of them degrades.
func TestScaleEightCandidatesStayInBudget(t *testing.T) {
	eight := ScaleConfig{Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 4}, {Name: scale.StrategyReasoning, Samples: 2},
		{Name: scale.StrategyDecompose, Samples: 2}}, Tournament: true, MaxOutputTokens: 400}
	// Budgets are in reservations of the plain prompt (its input tokens,
	// measured by the ample run, + the 400-token output cap) and half one
	// more: the plain candidates come first and the other prompts are longer,
	// so k reservations and a half send exactly k calls.
	cases := []struct {
		name     string
		k        int // budget: k.5 plain reservations; -1: 200,000 tokens
		calls    int
		degraded bool
		fails    bool
	}{
		{"ample", -1, 9, false, false}, // 8 candidates in two buckets + 1 selector call
		{"room for two", 2, 2, true, false},
		{"room for one", 1, 1, true, false},
		{"room for none", 0, 0, true, true},
	}
	plainReservation := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			budget := 200000
			if tc.k >= 0 {
				budget = tc.k*plainReservation + plainReservation/2
			}
			ps := newPlanServer(t, strictAnswer)
			p, err := llm.NewOpenAI(llm.Options{BaseURL: ps.URL + "/v1", APIKey: "sk-test", Model: "plan-test"})
			if err != nil {
				t.Fatal(err)
			}
			cfg := eight
			cfg.TokenBudget = budget
			res, err := scaleEngineWith(t, p, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
			if ps.used > budget || ps.noCap > 0 {
				t.Fatalf("the server counted %d tokens over %d calls (%d without an output cap); budget %d", ps.used, ps.calls, ps.noCap, budget)
			}
			if tc.fails {
				if err == nil || ps.calls != 0 {
					t.Fatalf("want an error before any call; got %v after %d calls", err, ps.calls)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sc := res.Scaling
			t.Logf("budget %d: %d calls, %d tokens used (server), refused %d", budget, ps.calls, ps.used, sc.Budget.Refused)
			if plainReservation == 0 {
				plainReservation = ps.minIn + 400
				t.Logf("plain reservation: %d tokens", plainReservation)
			}
			if ps.calls != tc.calls || sc.Budget.Refused != max(0, 8-tc.calls) {
				t.Errorf("calls %d, refused %d; want %d calls", ps.calls, sc.Budget.Refused, tc.calls)
			}
			if sc.Degraded != tc.degraded || sc.Budget.Used != ps.used || res.Usage.InputTokens+res.Usage.OutputTokens != ps.used {
				t.Errorf("degraded %v, budget %+v, usage %+v; server used %d", sc.Degraded, sc.Budget, res.Usage, ps.used)
			}
			want := "single_bucket" // only plain candidates fit
			if !tc.degraded {
				want = "tournament"
			}
			if sc.Selection != want || len(sc.Candidates) != 8 {
				t.Errorf("selection %q candidates %d, want %q", sc.Selection, len(sc.Candidates), want)
			}
			if !tc.degraded && (res.Columns[0] != "Genre" || len(sc.Buckets) != 2 || sc.Selected != 1) {
				t.Errorf("columns %v selected %d buckets %+v", res.Columns, sc.Selected, sc.Buckets)
			}
		})
	}
}

// The model router (one recorded "route" call) sends the question to the
// single call; its call is counted in its own stage.
func TestScaleRouterModel(t *testing.T) {
	cfg := sevenCandidates(true, 0)
	cfg.Router = scale.RouterModel
	res, err := scaleEngine(t, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Scaling
	if sc.Route != "single" || sc.RouteReason != "model: easy" || res.Usage.ModelCalls != 2 ||
		len(sc.Stages) != 1 || sc.Stages[0] != (scale.StageUsage{Stage: "route", Calls: 1, InputTokens: 700, OutputTokens: 5}) {
		t.Errorf("scaling %+v usage %+v", sc, res.Usage)
	}
	rows, _ := json.Marshal(res.Rows)
	if string(rows) != `[["Iron Maiden",21]]` {
		t.Errorf("rows %s", rows)
	}
}

// The time budget cuts slow candidates short: the reasoning prompts hang
// at the server until the budget ends, the plain ones answer; the answer
// comes from the plain bucket and the result is marked degraded.
func TestScaleTimeBudgetDegrades(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if bytes.Contains(b, []byte("[APPROACH]")) {
			<-r.Context().Done() // hang until the client gives up
			return
		}
		chatCompletion(w, strictAnswer, "stop", 10, 5)
	}))
	t.Cleanup(srv.Close)
	p, err := llm.NewOpenAI(llm.Options{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := ScaleConfig{Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 2}, {Name: scale.StrategyReasoning, Samples: 2}},
		Tournament: true, TimeBudget: 400 * time.Millisecond}
	res, err := scaleEngineWith(t, p, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Scaling
	if !sc.Degraded || !strings.Contains(strings.Join(sc.DegradedReasons, ";"), "time budget") || sc.Selection != "single_bucket" ||
		sc.Buckets[0].Size != 2 || !sc.Buckets[len(sc.Buckets)-1].Error {
		t.Fatalf("scaling %+v", sc)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "cut short") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// A scaling configuration built in code is checked before it is used.
func TestScaleInvalidOptionsRefused(t *testing.T) {
	cfg := ScaleConfig{Strategies: []StrategySpec{{Name: "clever", Samples: 3}}}
	_, err := scaleEngine(t, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if e := AsError(err); e == nil || e.Code != CodeInternal || !strings.Contains(e.Msg, "clever") || e.Hint == "" {
		t.Fatalf("err = %v", err)
	}
}

// A retry re-sends the whole input, so it reserves again: with the first
// send of every call failing (HTTP 500) and the provider retrying, a
// budget with room for two sends sends two, never a retry it cannot hold.
func TestScaleRetriesStayInBudget(t *testing.T) {
	ps := newPlanServer(t, strictAnswer)
	var mu sync.Mutex
	seen := map[string]bool{}
	failed := 0
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		first := !seen[string(body)]
		seen[string(body)] = true
		if first {
			failed++
		}
		mu.Unlock()
		if first {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			io.WriteString(w, `{"error":{"message":"try again","type":"server_error"}}`)
			return
		}
		resp, err := http.Post(ps.URL+r.URL.Path, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), 502)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	defer front.Close()
	p, err := llm.NewOpenAI(llm.Options{BaseURL: front.URL + "/v1", APIKey: "sk-test", Model: "plan-test",
		Retry: llm.RetryPolicy{MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	// Measure one plain reservation with an ample budget, then allow 2.5.
	cfg := ScaleConfig{Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 4}}, MaxOutputTokens: 400, TokenBudget: 200000}
	if _, err := scaleEngineWith(t, p, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ}); err != nil {
		t.Fatal(err)
	}
	reservation := ps.minIn + 400
	mu.Lock()
	seen, failed = map[string]bool{}, 0
	mu.Unlock()
	ps.mu.Lock()
	ps.calls = 0
	ps.mu.Unlock()
	cfg.TokenBudget = 2*reservation + reservation/2
	res, err := scaleEngineWith(t, p, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	sends := failed + ps.calls
	mu.Unlock()
	if sends > 2 || ps.calls < 1 || !res.Scaling.Degraded {
		t.Errorf("budget of %d tokens (reservation %d): %d sends (%d failed first), degraded %v", cfg.TokenBudget, reservation, sends, failed, res.Scaling.Degraded)
	}
}
