package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/scale"
	"github.com/nl2sql/nl2sql/scope"
)

// loggingServer is a fake OpenAI-compatible planner that records every
// request body, holds each call for hold (so that concurrent calls
// overlap), tracks the most calls in flight at once, and answers with
// answer(body).
type loggingServer struct {
	*httptest.Server
	mu              sync.Mutex
	bodies          []map[string]any
	inFlight, maxIn int
}

func newLoggingServer(t *testing.T, hold time.Duration, answer func(body map[string]any) string) *loggingServer {
	ls := &loggingServer{}
	ls.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, 400)
			return
		}
		ls.mu.Lock()
		ls.bodies = append(ls.bodies, body)
		ls.inFlight++
		ls.maxIn = max(ls.maxIn, ls.inFlight)
		ls.mu.Unlock()
		time.Sleep(hold)
		ls.mu.Lock()
		ls.inFlight--
		ls.mu.Unlock()
		chatCompletion(w, answer(body), "stop", 100, 50)
	}))
	t.Cleanup(ls.Close)
	return ls
}

// lastUser is the content of a request's last message.
func lastUser(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[len(msgs)-1].(map[string]any)
	s, _ := m["content"].(string)
	return s
}

// strategyOf tells a candidate request's strategy by its approach block.
func strategyOf(body map[string]any) string {
	u := lastUser(body)
	switch {
	case strings.Contains(u, "[APPROACH]\nBefore writing the plan, reason step by step"):
		return scale.StrategyReasoning
	case strings.Contains(u, "[APPROACH]\nFirst break the question"):
		return scale.StrategyDecompose
	case strings.Contains(u, "[APPROACH]"):
		return "other"
	}
	return scale.StrategyPlain
}

// planAnswer lists column of table, in the strict schema's shape.
func planAnswer(table, alias, column string) string {
	return `{"reasoning":"List them.","plan":{"with":null,"distinct":null,` +
		`"select":[{"expr":{"kind":"column","table":"` + alias + `","column":"` + column + `"},"alias":"id"}],` +
		`"from":[{"schema":null,"table":"` + table + `","alias":"` + alias + `","subquery":null}],"joins":null,"where":null,` +
		`"group_by":null,"having":null,"qualify":null,"with_ties":null,"order_by":null,"limit":null,"offset":null,"set_ops":null}}`
}

// repPolicy: jane (rep) reads Customer and Invoice, row-filtered to her 21
// customers of 59; Employee is hidden from her.
func repPolicy(t *testing.T) *scope.Policy {
	t.Helper()
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	yaml := `datasources:
  - {id: chinook, engine: sqlite, path: ` + abs + `}
roles:
  rep:
    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
    row_filters:
      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
users:
  - {name: jane, roles: [rep], attributes: {employee_id: 3}}
local_user: jane
`
	pol := policyFromYAML(t, yaml)
	return pol
}

// Threat: with test-time scaling on, a candidate plan skips the caller's
// access checks or row filters, so a rep sees all 59 customers (or a
// hidden table's rows) because one of several candidates was not checked.
// Every candidate must pass the same validation as the single call: the
// ones counting customers run with her row filter (21), the one reading
// Employee is refused and never runs.
func TestScaleCandidatesPassAccessAndRowFilters(t *testing.T) {
	ls := newLoggingServer(t, 0, func(body map[string]any) string {
		if strategyOf(body) == scale.StrategyDecompose { // and its repairs
			return planAnswer("Employee", "e", "EmployeeId")
		}
		if strings.HasPrefix(fmt.Sprint(body["messages"]), "[map[content:You compare") {
			return `{"winner":"A","reason":"same"}`
		}
		return planAnswer("Customer", "c", "CustomerId")
	})
	p, err := llm.NewOpenAI(llm.Options{BaseURL: ls.URL + "/v1", APIKey: "sk-test", Model: "plan-test"})
	if err != nil {
		t.Fatal(err)
	}
	pol := repPolicy(t)
	abs, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs, RowLimit: 1000}},
		Planner:     p, Policy: pol, Today: func() string { return "2026-01-15" },
		Scaling: ScaleConfig{Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 2}, {Name: scale.StrategyReasoning, Samples: 2},
			{Name: scale.StrategyDecompose, Samples: 1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	jane, _ := pol.ForUser("jane")
	res, err := e.Ask(WithCaller(context.Background(), jane), AskRequest{Question: "How many customers are there?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scaling == nil || len(res.Scaling.Candidates) != 5 {
		t.Fatalf("scaling did not run five candidates: %+v", res.Scaling)
	}
	if res.RowCount != 21 {
		t.Errorf("%d customers, want her 21: a candidate ran without her row filter", res.RowCount)
	}
	for _, c := range res.Scaling.Candidates {
		switch c.Strategy {
		case scale.StrategyDecompose:
			if c.SQL != "" || c.RowCount != 0 || c.Error == "" {
				t.Errorf("the candidate reading Employee ran: %+v", c)
			}
			if !strings.Contains(c.Error, "TABLE_NOT_FOUND") {
				t.Errorf("the hidden table is refused unlike a missing one: %s", c.Error)
			}
		default:
			if !strings.Contains(c.SQL, "SupportRepId") || c.RowCount != 21 {
				t.Errorf("candidate %d (%s) ran without the row filter: %s", c.Index, c.Strategy, c.SQL)
			}
		}
	}
}

// Threats: scaling runs its candidates one after another (a question
// takes n times as long) or all at once (a burst past the provider's
// rate limit); and a strategy's temperature never reaches the model, so
// the "diverse" samples are all alike. The fake provider sees at most
// Concurrency calls at once, and at least two overlapping; each request
// carries its strategy's temperature.
func TestScaleConcurrencyBoundAndTemperature(t *testing.T) {
	ls := newLoggingServer(t, 150*time.Millisecond, func(map[string]any) string { return strictAnswer })
	p, err := llm.NewOpenAI(llm.Options{BaseURL: ls.URL + "/v1", APIKey: "sk-test", Model: "plan-test"})
	if err != nil {
		t.Fatal(err)
	}
	hot, cool := 0.9, 0.2
	cfg := ScaleConfig{Strategies: []StrategySpec{{Name: scale.StrategyPlain, Samples: 3, Temperature: &hot},
		{Name: scale.StrategyReasoning, Samples: 3, Temperature: &cool}}, Concurrency: 2}
	res, err := scaleEngineWith(t, p, cfg, nil, "").Ask(context.Background(), AskRequest{Question: scaleQ})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Scaling.Candidates) != 6 {
		t.Fatalf("%d candidates", len(res.Scaling.Candidates))
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.maxIn != 2 {
		t.Errorf("at most %d calls in flight, want exactly the configured 2", ls.maxIn)
	}
	want := map[string]float64{scale.StrategyPlain: hot, scale.StrategyReasoning: cool}
	seen := map[string]int{}
	for _, b := range ls.bodies {
		st := strategyOf(b)
		w, ok := want[st]
		if !ok {
			t.Errorf("a request of strategy %q", st)
			continue
		}
		seen[st]++
		if got, ok := b["temperature"].(float64); !ok || got != w {
			t.Errorf("a %s request has temperature %v, want %v", st, b["temperature"], w)
		}
	}
	if seen[scale.StrategyPlain] != 3 || seen[scale.StrategyReasoning] != 3 {
		t.Errorf("requests per strategy %v, want 3 and 3", seen)
	}
}
