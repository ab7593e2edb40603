package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/internal/config"
)

// Doctor against both fake servers prints one ok line per check; with one
// server down it names that entry, says why, and fails.
func TestDoctor(t *testing.T) {
	oa, ol := newModelServer(t), newModelServer(t)
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	chinookDB, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	cfg := writeConfig(t, fmt.Sprintf(`  default: {provider: openai, base_url: %q, api_key: %q, model: gpt-test, temperature: 0}
  plan: {provider: ollama, host: %q, model: "qwen2.5-coder:7b", api_key: %q}
  answer: {provider: replay, recordings: %q}
`, oa.URL+"/v1", testKey, ol.URL, testKey, rec))

	var out bytes.Buffer
	if err := Doctor(context.Background(), cfg, &out); err != nil {
		t.Fatalf("Doctor: %v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"config " + cfg + ": ok",
		"storage: ok (",
		"datasource chinook (sqlite " + chinookDB + "): ok (11 tables)",
		fmt.Sprintf("llm.answer (replay %s): ok (%d recordings)", rec, countRecordings(t, rec)),
		"llm.default (openai gpt-test at " + oa.URL + "/v1): ok (answered in ",
		"llm.plan (ollama qwen2.5-coder:7b at " + ol.URL + "): ok (answered in ",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	// The doctor's request is the tiny strict schema, temperature as set.
	body := oa.calls()[0]
	rf := body["response_format"].(map[string]any)["json_schema"].(map[string]any)
	if rf["name"] != "doctor" || rf["strict"] != true || body["temperature"] != 0.0 {
		t.Errorf("doctor request %v", body)
	}
	if _, ok := ol.calls()[0]["format"].(map[string]any); !ok {
		t.Errorf("ollama doctor request has no schema format: %v", ol.calls()[0])
	}

	ol.Close()
	out.Reset()
	start := time.Now()
	err := Doctor(context.Background(), cfg, &out)
	if err == nil || !strings.Contains(err.Error(), "1 check(s) failed: llm.plan") {
		t.Fatalf("Doctor with ollama down: %v\n%s", err, out.String())
	}
	// A refused connection is retried as real calls retry it (the
	// default 4 retries, about 4 s of backoff), and the line says so.
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("a down server took %s to report", el)
	}
	s := out.String()
	if !strings.Contains(s, "(5 calls in ") {
		t.Errorf("the failure does not say how many calls were made:\n%s", s)
	}
	if !strings.Contains(s, "llm.plan (ollama qwen2.5-coder:7b at "+ol.URL+"): FAILED: cannot reach ollama at "+ol.URL+": connection refused") ||
		!strings.Contains(s, "hint: start Ollama") || !strings.Contains(s, "llm.default (openai gpt-test at "+oa.URL+"/v1): ok") {
		t.Errorf("output:\n%s", s)
	}
	if strings.Contains(s+err.Error(), testKey) {
		t.Errorf("the key leaked:\n%s", s)
	}
}

func TestDoctorFailures(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"config does not load", "llm:\n  default: {provider: gpt}\n", []string{"FAILED: ", `unknown provider "gpt"`}},
		{"missing database and model", "datasources:\n  - {id: gone, engine: sqlite, path: nope.sqlite}\nllm:\n  default: {provider: openai}\n",
			[]string{"nope.sqlite): FAILED: ", "llm.default (openai  at https://api.openai.com/v1): FAILED: llm.default: model: missing"}},
		{"nothing configured", "storage: {path: .x}\n", []string{"datasources: FAILED: none configured", "planning: ok (host: no llm section"}},
		{"recordings missing", "llm:\n  default: {provider: replay, recordings: none/}\n", []string{"llm.default (replay none/): FAILED: "}},
		// a DSN that does not parse says why, as --db does, the password
		// masked: "does not parse" alone sent the operator comparing the
		// DSN character by character
		{"dsn does not parse", "datasources:\n  - {id: broken, engine: postgres, dsn: \"postgres://u:hunter2@127.0.0.1:notaport/x\"}\n",
			[]string{"datasource broken (postgres): FAILED: DATASOURCE_UNAVAILABLE: the connection string does not parse: invalid port (hint: write it as postgres://"}},
		{"keyword/value dsn does not parse", "datasources:\n  - {id: broken, engine: postgres, dsn: \"host=127.0.0.1 password='hunter2 sslmode=bogus\"}\n",
			[]string{"datasource broken (postgres): FAILED: DATASOURCE_UNAVAILABLE: the connection string does not parse: failed to parse as keyword/value (unterminated quoted string"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("c%d.yaml", i))
			os.WriteFile(p, []byte(tt.body), 0o644)
			var out bytes.Buffer
			err := Doctor(context.Background(), p, &out)
			if err == nil {
				t.Fatalf("no error:\n%s", out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "hunter2") {
				t.Errorf("the password is shown:\n%s", out.String())
			}
		})
	}
}

// Provider picks the implementation per entry and names bad settings.
func TestProvider(t *testing.T) {
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	tests := []struct {
		name string
		c    config.LLMConfig
		want string // a type name, or an error substring
	}{
		{"replay", config.LLMConfig{Provider: "replay", Recordings: rec}, "*llm.Replay"},
		{"openai", config.LLMConfig{Provider: "openai", Model: "gpt-test", APIKey: testKey}, "*llm.OpenAI"},
		{"ollama default host", config.LLMConfig{Provider: "ollama", Model: "m"}, "*llm.Ollama"},
		{"no provider", config.LLMConfig{}, "no provider configured"},
		{"unknown", config.LLMConfig{Provider: "claude"}, `unknown provider "claude"`},
		{"openai without model", config.LLMConfig{Provider: "openai"}, "model: missing"},
		{"bad base_url", config.LLMConfig{Provider: "openai", Model: "m", BaseURL: "ftp://x", APIKey: testKey}, `base_url: "ftp://x" is not an http(s) URL`},
		{"bad host", config.LLMConfig{Provider: "ollama", Model: "m", Host: "localhost:11434"}, "host:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Provider(tt.c, quiet)
			got := fmt.Sprintf("%T", p)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if strings.Contains(got, testKey) {
				t.Errorf("the key leaked: %s", got)
			}
		})
	}
	var _ llm.Provider = (*llm.Recorder)(nil)
}

// With the shipped defaults (max_retries 4 within retry_max_seconds 30), a
// server that answers 500 forever fails the question after 5 calls and
// about 4–8 s of backoff, with a clear provider error.
func TestDefaultRetryBound(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0
	var first, last time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		if first.IsZero() {
			first = time.Now()
		}
		last = time.Now()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(500)
		io.WriteString(w, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)
	}))
	defer srv.Close()
	cfg := writeConfig(t, fmt.Sprintf("  default: {provider: openai, base_url: %q, api_key: %q, model: m}\n", srv.URL+"/v1", testKey))
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_, err = a.Engine.Ask(context.Background(), engine.AskRequest{Question: "How many customers are there in each country?"})
	var ee *engine.Error
	if !errors.As(err, &ee) || (ee.Code != engine.CodeProvider && !strings.HasPrefix(string(ee.Code), "PROVIDER_")) || !ee.Retryable {
		t.Fatalf("err = %v", err)
	}
	var pe *llm.ProviderError
	if !errors.As(err, &pe) || pe.Code != llm.CodeUnavailable || pe.Attempts != 5 {
		t.Fatalf("provider error %#v", pe)
	}
	mu.Lock()
	// the backoff is what the provider sees between the first and the last
	// call; warming up the datasource before the first does not count
	n, el := calls, last.Sub(first)
	mu.Unlock()
	if n != 5 || el < 3500*time.Millisecond || el > 9*time.Second {
		t.Errorf("%d calls %s apart; want 5 in 3.75–7.5 s of backoff", n, el)
	}
	if !strings.Contains(err.Error(), "500 Internal Server Error") || !strings.Contains(err.Error(), "(5 calls in ") {
		t.Errorf("error %q", err)
	}
	t.Logf("500 forever, default policy: %d calls in %.2f s: %v", n, el.Seconds(), err)
}

func countRecordings(t *testing.T, dir string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

// A model endpoint that accepts and never answers fails doctor's check
// within doctor's cap (not the entry's 120 s planning timeout), with the
// typed timeout naming the endpoint.
func TestDoctorSilentEndpoint(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer srv.Close()
	defer close(hang)
	old := doctorTimeoutSeconds
	doctorTimeoutSeconds = 1
	defer func() { doctorTimeoutSeconds = old }()
	cfg := writeConfig(t, fmt.Sprintf("  default: {provider: openai, base_url: %q, api_key: %q, model: m}\n", srv.URL+"/v1", testKey))
	var out strings.Builder
	start := time.Now()
	err := Doctor(context.Background(), cfg, &out)
	if el := time.Since(start); err == nil || el > 10*time.Second {
		t.Fatalf("doctor: %v after %s\n%s", err, el, out.String())
	}
	if !strings.Contains(out.String(), "did not answer within 1.0 s") || !strings.Contains(out.String(), srv.Listener.Addr().String()) {
		t.Errorf("doctor output:\n%s", out.String())
	}
}

// A hook rule naming a table or column the datasource lacks (a typo) is a
// failed doctor check; the same rule spelled right passes.
func TestDoctorHookRuleNames(t *testing.T) {
	rec, err := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rule string
		ok   bool
	}{
		{"{deny_tables: [chinook.main.Employee], deny_columns: [chinook.main.Customer.Email]}", true},
		{"{deny_tables: [chinook.main.employee]}", true}, // matched case aside, as the rule does
		{"{deny_tables: [chinook.main.Employe]}", false},
		{"{deny_columns: [chinook.main.Customer.Emial]}", false},
		{"{approval_tables: [chinook.hr.Employee]}", false},
	} {
		cfg := writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\nhooks:\n  - {name: r, rule: %s}\n", rec, c.rule))
		var out strings.Builder
		err := Doctor(context.Background(), cfg, &out)
		if (err == nil) != c.ok || (!c.ok && !strings.Contains(out.String(), "hook r: FAILED: the rule names what no datasource has")) {
			t.Errorf("%s: err %v\n%s", c.rule, err, out.String())
		}
	}
}

// A semantic file that names a column the schema lacks keeps the
// datasource from opening when the server starts, so doctor must fail that
// datasource's check, naming the file and line, not report it ok.
func TestDoctorSemanticLayer(t *testing.T) {
	rec, err := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		column string
		ok     bool
	}{{"Quantity", true}, {"Qty", false}} {
		dir := t.TempDir()
		sem := fmt.Sprintf("metrics:\n  - name: units\n    table: InvoiceLine\n    expr: {kind: func, name: SUM, args: [{kind: column, column: %s}]}\n", c.column)
		if err := os.WriteFile(filepath.Join(dir, "semantic.yaml"), []byte(sem), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(dir, "nl2sql.yaml")
		body := fmt.Sprintf("storage: {path: .nl2sql}\ndatasources:\n  - {id: chinook, engine: sqlite, path: %q, semantic: semantic.yaml}\nllm:\n  default: {provider: replay, recordings: %q}\n", db, rec)
		if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		err := Doctor(context.Background(), cfg, &out)
		if c.ok {
			if err != nil || !strings.Contains(out.String(), "datasource chinook (sqlite "+db+"): ok (11 tables)") {
				t.Errorf("%s: err %v\n%s", c.column, err, out.String())
			}
			continue
		}
		if err == nil || !strings.Contains(out.String(), "datasource chinook (sqlite "+db+"): FAILED: semantic layer: semantic.yaml:4:") ||
			!strings.Contains(out.String(), `COLUMN_NOT_FOUND`) {
			t.Errorf("%s: err %v\n%s", c.column, err, out.String())
		}
	}
}

// A deny pattern with a typo hides nothing: Customer.Email stays readable
// while the operator believes it hidden. Doctor must fail, naming the
// role, the pattern and the real name, and exit non-zero; correct
// patterns pass.
func TestDoctorAccessPatternTypo(t *testing.T) {
	rec, err := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		deny string
		want string
	}{
		{"chinook.main.Customer.Email", "access policy: ok"},
		{"chinook.main.Customer.Emial", `access roles.analyst.deny[0]: FAILED: role analyst: roles.analyst.deny[0] "chinook.main.Customer.Emial" matches nothing in the schema, so it hides nothing; did you mean "chinook.main.Customer.Email"?`},
		{"chinook.main.Customers", `did you mean "chinook.main.Customer"?`},
	} {
		cfg := writeConfig(t, fmt.Sprintf("  default: {provider: replay, recordings: %q}\nroles: {analyst: {allow: [chinook], deny: [%q]}}\nusers: [{name: alice, roles: [analyst]}]\n", rec, c.deny))
		var out strings.Builder
		err := Doctor(context.Background(), cfg, &out)
		ok := strings.HasPrefix(c.want, "access policy: ok")
		if (err == nil) != ok || !strings.Contains(out.String(), c.want) {
			t.Errorf("deny %s: err %v\n%s", c.deny, err, out.String())
		}
	}
}

// A storage path that cannot be written leaves serve without plan cache,
// stored snapshots, traces and approvals; doctor must say so and fail
// with a hint, not report ok.
func TestDoctorUnwritableStorage(t *testing.T) {
	db, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := ConfigFromDatabases([]string{db}, DatabaseOptions{Storage: filepath.Join(file, "state")})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = DoctorConfig(context.Background(), cfg, "--db", &out)
	if err == nil || !strings.Contains(out.String(), "storage: FAILED: ") || !strings.Contains(out.String(), "hint: set storage.path, or --storage, to a writable directory") {
		t.Errorf("err %v\n%s", err, out.String())
	}
}

// The threat: a verified query the server refuses (an example of the wrong
// type) is left out with a log line only, and doctor said every check was
// ok, so a user never learnt why ask did not offer it. Doctor names the
// refused query with its reason and fails; the good one serves.
func TestDoctorChecksVerifiedQueries(t *testing.T) {
	cfg := writeConfig(t, "")
	cur := filepath.Join(filepath.Dir(cfg), "curated.yaml")
	if err := os.WriteFile(cur, []byte(`verified_queries:
  - id: customers_in_country
    datasource: chinook
    description: Customers of one country
    questions: ["Which customers live in Brazil?"]
    sql: SELECT FirstName FROM Customer WHERE Country = :country
    params:
      - {name: country, type: string, required: true, example: "Brazil"}
  - id: invoices_of_customer
    datasource: chinook
    description: The invoices of one customer
    questions: ["Which invoices did customer 42 get?"]
    sql: SELECT InvoiceId FROM Invoice WHERE CustomerId = :customer_id
    params:
      - {name: customer_id, type: integer, required: true, example: "42"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, append([]byte("curated: curated.yaml\n"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := Doctor(context.Background(), cfg, &out)
	if err == nil || !strings.Contains(err.Error(), "verified query invoices_of_customer") {
		t.Errorf("doctor passed or named another check: %v\n%s", err, out.String())
	}
	for _, want := range []string{"verified query invoices_of_customer: FAILED: ", "customer_id", "verified queries: ok (1 query serves)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out.String())
		}
	}
	// every one refused: the summary line fails too, not "ok (0 queries serve)"
	b, _ = os.ReadFile(cur)
	bad := strings.Replace(string(b), `example: "Brazil"`, `example: 7`, 1)
	if err := os.WriteFile(cur, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	_ = Doctor(context.Background(), cfg, &out)
	if !strings.Contains(out.String(), "verified queries: FAILED: none of the 2 verified queries serves") {
		t.Errorf("doctor with every verified query refused:\n%s", out.String())
	}
}

// A diagnostic run where no state exists yet (a config not finished, or
// the wrong directory) must not leave a state directory behind: doctor
// says where serve will keep its state and that it can, creating nothing.
func TestDoctorCreatesNoState(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfgPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_ = Doctor(context.Background(), cfgPath, &out) // fails: no datasource
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "nl2sql.yaml" {
			t.Errorf("doctor left %s in %s:\n%s", e.Name(), dir, out.String())
		}
	}
	if want := "storage: ok (" + filepath.Join(dir, ".nl2sql", "state.db") + " does not exist yet"; !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}
