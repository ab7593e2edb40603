package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// writeConfig writes body as nl2sql.yaml in a temporary directory.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lookupIn looks names up in vars.
func lookupIn(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

const sample = `
storage: {path: .nl2sql}
datasources:
  - {id: chinook, engine: sqlite, path: chinook.sqlite, description: "Music store", row_limit: 500}
  - id: shop
    engine: postgres
    dsn: "${env:SHOP_DSN}"
  - {id: lake, engine: duckdb, path: /data/lake.duckdb, timeout_seconds: 5}
llm:
  default: {provider: replay, recordings: recordings/}
  answer: {provider: ollama, host: "http://localhost:11434", model: llama3.1, temperature: 0.2}
`

func TestLoad(t *testing.T) {
	p := writeConfig(t, sample)
	dir := filepath.Dir(p)
	c, err := load(p, nil, lookupIn(map[string]string{"SHOP_DSN": "postgres://u@h/db"}))
	if err != nil {
		t.Fatal(err)
	}
	temp := 0.2
	want := &Config{
		File:    p,
		Storage: Storage{Path: filepath.Join(dir, ".nl2sql"), PathAsWritten: ".nl2sql", TraceMaxAgeDays: DefaultTraceMaxAgeDays, TraceMaxMB: DefaultTraceMaxMB},
		Datasources: []Datasource{
			{ID: "chinook", Engine: "sqlite", Path: filepath.Join(dir, "chinook.sqlite"), PathAsWritten: "chinook.sqlite",
				Description: "Music store", RowLimit: 500, TimeoutSeconds: 30},
			{ID: "shop", Engine: "postgres", DSN: "postgres://u@h/db", RowLimit: 1000, TimeoutSeconds: 30},
			{ID: "lake", Engine: "duckdb", Path: "/data/lake.duckdb", PathAsWritten: "/data/lake.duckdb", RowLimit: 1000, TimeoutSeconds: 5},
		},
		LLM: map[string]LLMConfig{
			"default": {Provider: "replay", Recordings: filepath.Join(dir, "recordings"), RecordingsAsWritten: "recordings/",
				TimeoutSeconds: 120, MaxRetries: 4, RetryMaxSeconds: 30},
			"answer": {Provider: "ollama", Host: "http://localhost:11434", Model: "llama3.1", Temperature: &temp,
				TimeoutSeconds: 120, MaxRetries: 4, RetryMaxSeconds: 30},
		},
		Results: Results{TokenBudget: DefaultResultTokens},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Load =\n%+v\nwant\n%+v", c, want)
	}
	if got := c.LLMFor("answer").Provider; got != "ollama" {
		t.Errorf("LLMFor(answer) = %q", got)
	}
	if got := c.LLMFor("plan").Provider; got != "replay" {
		t.Errorf("LLMFor(plan) = %q, want the default", got)
	}
	if d, ok := c.Datasource("lake"); !ok || d.Timeout() != 5*time.Second {
		t.Errorf("Datasource(lake) = %+v, %v", d, ok)
	}
	if _, ok := c.Datasource("nope"); ok {
		t.Error("Datasource(nope) found")
	}
}

func TestLoadDefaults(t *testing.T) {
	p := writeConfig(t, "datasources:\n  - {id: a, engine: sqlite, path: a.db}\n")
	c, err := load(p, nil, lookupIn(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Storage.PathAsWritten != ".nl2sql" || c.Storage.Path != filepath.Join(filepath.Dir(p), ".nl2sql") {
		t.Errorf("storage %+v", c.Storage)
	}
	if d := c.Datasources[0]; d.RowLimit != 1000 || d.TimeoutSeconds != 30 {
		t.Errorf("defaults %+v", d)
	}
	if l := c.LLMFor("plan"); l != (LLMConfig{}) {
		t.Errorf("LLMFor without llm = %+v", l)
	}
	if c.Results.TokenBudget != DefaultResultTokens {
		t.Errorf("results default %+v", c.Results)
	}
	if c, err := load(writeConfig(t, "results: {token_budget: 8000}\n"), nil, lookupIn(nil)); err != nil || c.Results.TokenBudget != 8000 {
		t.Errorf("results.token_budget 8000: %+v, %v", c, err)
	}
	// An empty file is an empty config.
	if _, err := load(writeConfig(t, ""), nil, lookupIn(nil)); err != nil {
		t.Errorf("empty file: %v", err)
	}
	// Relative config paths resolve against the working directory first.
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, p)
	if err == nil {
		c, err := load(rel, nil, lookupIn(nil))
		if err != nil || c.File != p {
			t.Errorf("relative path: %+v, %v", c, err)
		}
	}
}

func TestLoadEnvOverrides(t *testing.T) {
	p := writeConfig(t, sample)
	dir := filepath.Dir(p)
	environ := []string{
		"NL2SQL_STORAGE__PATH=/var/lib/nl2sql",
		"NL2SQL_DATASOURCES__0__ROW_LIMIT=50",
		"NL2SQL_DATASOURCES__SHOP__DSN=postgres://other",
		"NL2SQL_DATASOURCES__LAKE__PATH=lake2.duckdb",
		"NL2SQL_LLM__DEFAULT__RECORDINGS=${env:REC_DIR}",
		"NL2SQL_LLM__PLAN__PROVIDER=openai",
		"NL2SQL_LLM__PLAN__TEMPERATURE=0.5",
		"NL2SQL_CONFIG=/somewhere/nl2sql.yaml", // no "__" and no setting: not an override
		"NL2SQL_LOG_LEVEL=debug",
		"NL2SQL_CURATED=verified.yaml", // a top-level setting is its key alone
		"OTHER__STORAGE__PATH=/nope",
	}
	c, err := load(p, environ, lookupIn(map[string]string{"REC_DIR": "rec2", "SHOP_DSN": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Storage.Path != "/var/lib/nl2sql" || c.Storage.PathAsWritten != "/var/lib/nl2sql" {
		t.Errorf("storage %+v", c.Storage)
	}
	if c.Datasources[0].RowLimit != 50 {
		t.Errorf("row_limit %d", c.Datasources[0].RowLimit)
	}
	if c.Datasources[1].DSN != "postgres://other" {
		t.Errorf("dsn %q", c.Datasources[1].DSN)
	}
	if c.Datasources[2].Path != filepath.Join(dir, "lake2.duckdb") {
		t.Errorf("lake path %q", c.Datasources[2].Path)
	}
	if l := c.LLM["default"]; l.Recordings != filepath.Join(dir, "rec2") || l.RecordingsAsWritten != "rec2" {
		t.Errorf("recordings %+v", l)
	}
	if l := c.LLMFor("plan"); l.Provider != "openai" || l.Temperature == nil || *l.Temperature != 0.5 {
		t.Errorf("plan %+v", l)
	}
	if !strings.HasSuffix(c.Curated, "verified.yaml") {
		t.Errorf("curated %q: NL2SQL_CURATED was ignored", c.Curated)
	}
}

func TestLoadErrors(t *testing.T) {
	ds := func(s string) string { return "datasources:\n  - " + s + "\n" }
	tests := []struct {
		name    string
		body    string
		environ []string
		want    []string // substrings of the error besides the file name
	}{
		{"unknown top key", "storage: {path: x}\nbogus: 1\n", nil, []string{"unknown key bogus"}},
		{"unknown results key", "results: {max_tokens: 5000}\n", nil, []string{"unknown key results.max_tokens"}},
		// a typo names the key meant, at its own level of the file
		{"misspelt top key", "storage: {path: x}\ndatasourcse: []\n", nil, []string{"unknown key datasourcse (did you mean datasources?)"}},
		{"misspelt nested key", "storage: {pahth: x}\n", nil, []string{"unknown key storage.pahth (did you mean path?)"}},
		{"another tool's key name", "datasources: [{id: a, engine: sqlite, file: x.db}]\n", nil, []string{"unknown key datasources[0].file (did you mean path?)"}},
		{"another tool's engine key", "datasources: [{id: a, driver: sqlite, path: x.db}]\n", nil, []string{"unknown key datasources[0].driver (did you mean engine?)"}},
		{"small token_budget", "results: {token_budget: 10}\n", nil, []string{"results.token_budget", "at least 1000"}},
		{"text token_budget", "results: {token_budget: lots}\n", nil, []string{"results.token_budget", "not a whole number"}},
		{"unknown nested key", "storage: {path: x, size: 3}\n", nil, []string{"unknown key storage.size"}},
		{"wrong case key", "Storage: {path: x}\n", nil, []string{"unknown key Storage"}},
		{"unknown datasource key", ds("{id: a, engine: sqlite, path: a.db, rowlimit: 5}"), nil, []string{"unknown key datasources[0].rowlimit"}},
		{"unknown llm key", "llm:\n  default: {provider: replay, recordings: r, temp: 1}\n", nil, []string{"unknown key llm.default.temp"}},
		{"unknown llm step (a typo configures nothing)", "llm:\n  plann: {provider: replay, recordings: r}\n", nil, []string{"llm.plann", "unknown step \"plann\" (one of default, plan, answer, select, embed)"}},
		{"unknown engine", ds("{id: a, engine: mysql, path: a.db}"), nil, []string{"datasources[0].engine", `unknown engine "mysql"`}},
		{"missing engine", ds("{id: a, path: a.db}"), nil, []string{"datasources[0].engine: missing"}},
		{"duplicate id", "datasources:\n  - {id: a, engine: sqlite, path: a.db}\n  - {id: a, engine: sqlite, path: b.db}\n", nil,
			[]string{"datasources[1].id", "already the id of datasources[0]"}},
		{"bad id", ds("{id: Chinook, engine: sqlite, path: a.db}"), nil, []string{"datasources[0].id", `"Chinook" must match`}},
		{"id with dash", ds("{id: a-b, engine: sqlite, path: a.db}"), nil, []string{"datasources[0].id"}},
		{"missing id", ds("{engine: sqlite, path: a.db}"), nil, []string{"datasources[0].id: missing"}},
		{"zero row_limit", ds("{id: a, engine: sqlite, path: a.db, row_limit: 0}"), nil, []string{"datasources[0].row_limit", "greater than 0"}},
		{"negative row_limit", ds("{id: a, engine: sqlite, path: a.db, row_limit: -5}"), nil, []string{"datasources[0].row_limit"}},
		{"fractional row_limit", ds("{id: a, engine: sqlite, path: a.db, row_limit: 10.5}"), nil, []string{"row_limit", "not a whole number"}},
		{"text row_limit", ds("{id: a, engine: sqlite, path: a.db, row_limit: many}"), nil, []string{"row_limit", "not a whole number"}},
		{"bool row_limit", ds("{id: a, engine: sqlite, path: a.db, row_limit: true}"), nil, []string{"row_limit"}},
		{"zero timeout", ds("{id: a, engine: sqlite, path: a.db, timeout_seconds: 0}"), nil, []string{"datasources[0].timeout_seconds"}},
		{"missing path", ds("{id: a, engine: sqlite}"), nil, []string{"datasources[0].path: missing"}},
		{"missing dsn", ds("{id: a, engine: postgres}"), nil, []string{"datasources[0].dsn: missing"}},
		// a key of another engine would be silently ignored: the user
		// believes a database is read that is not
		{"dsn on a sqlite file", ds(`{id: a, engine: sqlite, path: a.db, dsn: "postgres://x@y/z"}`), nil,
			[]string{"datasources[0].dsn: does not apply to engine sqlite", "set engine: postgres"}},
		{"dsn on a duckdb file", ds(`{id: a, engine: duckdb, path: a.duckdb, dsn: "postgres://x@y/z"}`), nil,
			[]string{"datasources[0].dsn: does not apply to engine duckdb"}},
		{"path on postgres", ds(`{id: a, engine: postgres, dsn: "postgres://x@y/z", path: a.db}`), nil,
			[]string{"datasources[0].path: does not apply to engine postgres", "remove path:"}},
		{"env dsn on a sqlite file", ds("{id: a, engine: sqlite, path: a.db}"), []string{"NL2SQL_DATASOURCES__A__DSN=postgres://x@y/z"},
			[]string{"datasources[0].dsn: does not apply to engine sqlite"}},
		{"datasources not a list", "datasources: {id: a}\n", nil, []string{"datasources"}},
		{"unknown provider", "llm:\n  default: {provider: gpt}\n", nil, []string{"llm.default.provider", `unknown provider "gpt"`}},
		{"replay without recordings", "llm:\n  default: {provider: replay}\n", nil, []string{"llm.default.recordings: missing"}},
		{"temperature out of range", "llm:\n  default: {provider: ollama, temperature: 3}\n", nil, []string{"llm.default.temperature"}},
		{"negative max_output_tokens", "llm:\n  default: {provider: openai, max_output_tokens: -1}\n", nil, []string{"llm.default.max_output_tokens", "0 or more"}},
		{"zero llm timeout", "llm:\n  default: {provider: openai, timeout_seconds: 0}\n", nil, []string{"llm.default.timeout_seconds", "greater than 0"}},
		{"negative num_ctx", "llm:\n  default: {provider: ollama, num_ctx: -4096}\n", nil, []string{"llm.default.num_ctx"}},
		{"negative max_retries", "llm:\n  default: {provider: ollama, max_retries: -1}\n", nil, []string{"llm.default.max_retries"}},
		{"negative retry_max_seconds", "llm:\n  default: {provider: ollama, retry_max_seconds: -1}\n", nil, []string{"llm.default.retry_max_seconds"}},
		{"fractional seed", "llm:\n  default: {provider: ollama, seed: 1.5}\n", nil, []string{"seed", "not a whole number"}},
		{"env bad retries", "llm:\n  default: {provider: ollama}\n", []string{"NL2SQL_LLM__DEFAULT__MAX_RETRIES=some"}, []string{"NL2SQL_LLM__DEFAULT__MAX_RETRIES", "max_retries", "not a whole number"}},
		{"missing env var", ds(`{id: a, engine: postgres, dsn: "${env:NOPE_DSN}"}`), nil,
			[]string{"datasources[0].dsn", "NOPE_DSN", "not set"}},
		{"bad env var name", "storage: {path: \"${env:1X}\"}\n", nil, []string{"storage.path", "not a valid variable name"}},
		{"env unknown key", "", []string{"NL2SQL_STORAGE__SIZE=3"}, []string{"NL2SQL_STORAGE__SIZE", "unknown config key storage.size"}},
		{"env unknown section", "", []string{"NL2SQL_FOO__BAR=1"}, []string{"NL2SQL_FOO__BAR", "unknown config key foo"}},
		{"env misspelt key", "", []string{"NL2SQL_STORAGE__PATHH=/tmp"}, []string{"NL2SQL_STORAGE__PATHH", "unknown config key storage.pathh (did you mean storage.path?)"}},
		{"env section as value", "", []string{"NL2SQL_LLM__DEFAULT=x"}, []string{"NL2SQL_LLM__DEFAULT", "is a section"}},
		{"env no such datasource", ds("{id: a, engine: sqlite, path: a.db}"), []string{"NL2SQL_DATASOURCES__B__PATH=x"},
			[]string{"NL2SQL_DATASOURCES__B__PATH", `no element with id "b"`}},
		{"env index out of range", ds("{id: a, engine: sqlite, path: a.db}"), []string{"NL2SQL_DATASOURCES__3__PATH=x"},
			[]string{"NL2SQL_DATASOURCES__3__PATH", "no element 3"}},
		{"env bad number", ds("{id: a, engine: sqlite, path: a.db}"), []string{"NL2SQL_DATASOURCES__A__ROW_LIMIT=lots"},
			[]string{"NL2SQL_DATASOURCES__A__ROW_LIMIT", "row_limit", "not a whole number"}},
		{"env bad value", ds("{id: a, engine: sqlite, path: a.db}"), []string{"NL2SQL_DATASOURCES__A__ROW_LIMIT=0"},
			[]string{"datasources[0].row_limit", "greater than 0"}},
		{"allow_writable_role on a file", ds("{id: a, engine: sqlite, path: a.db, allow_writable_role: true}"), nil,
			[]string{"datasources[0].allow_writable_role", "needs engine postgres"}},
		{"allow_writable_role not a bool", ds("{id: a, engine: postgres, dsn: x, allow_writable_role: [yes]}"), nil, []string{"allow_writable_role"}},
		{"allow_writable_role misspelt", ds("{id: a, engine: postgres, dsn: x, allow_writable_roles: true}"), nil,
			[]string{"unknown key datasources[0].allow_writable_roles"}},
		{"env bad allow_writable_role", ds("{id: a, engine: postgres, dsn: x}"), []string{"NL2SQL_DATASOURCES__A__ALLOW_WRITABLE_ROLE=maybe"},
			[]string{"NL2SQL_DATASOURCES__A__ALLOW_WRITABLE_ROLE", "allow_writable_role", "not true or false"}},
		{"bad yaml", "datasources: [\n", nil, []string{"yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.body)
			_, err := load(p, tt.environ, lookupIn(nil))
			if err == nil {
				t.Fatal("loaded")
			}
			msg := err.Error()
			if !strings.Contains(msg, p) {
				t.Errorf("error does not name the file: %v", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

// TestLoadAllowWritableRole: allow_writable_role is a real key of a
// postgres datasource, from the file, an environment override or --db
// (FromFlags), and off unless given; the hint of the writable-role refusal
// (internal/source) tells users to set it.
func TestLoadAllowWritableRole(t *testing.T) {
	body := "datasources:\n  - {id: dev, engine: postgres, dsn: x, allow_writable_role: true}\n  - {id: prod, engine: postgres, dsn: y}\n" +
		"  - {id: off, engine: postgres, dsn: z, allow_writable_role: false}\n"
	c, err := load(writeConfig(t, body), nil, lookupIn(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := []bool{c.Datasources[0].AllowWritableRole, c.Datasources[1].AllowWritableRole, c.Datasources[2].AllowWritableRole}; !reflect.DeepEqual(got, []bool{true, false, false}) {
		t.Errorf("allow_writable_role of dev, prod, off: %v", got)
	}
	c, err = load(writeConfig(t, body), []string{"NL2SQL_DATASOURCES__PROD__ALLOW_WRITABLE_ROLE=true"}, lookupIn(nil))
	if err != nil || !c.Datasources[1].AllowWritableRole {
		t.Errorf("environment override: %v", err)
	}
	c, err = fromFlags([]FlagDatasource{{ID: "dev", Engine: "postgres", DSN: "x", AllowWritableRole: true}, {ID: "prod", Engine: "postgres", DSN: "y"}},
		t.TempDir(), nil, lookupIn(nil))
	if err != nil || !c.Datasources[0].AllowWritableRole || c.Datasources[1].AllowWritableRole {
		t.Errorf("from flags: %+v %v", c, err)
	}
}

// TestTooLargeNumberNamesItsBound: a row_limit past what the server holds,
// or a whole number past what any int holds, is called too large with the
// bound to write instead, never "not a whole number" (the user would hunt
// for a typo in a number that has none); the bound itself loads.
func TestTooLargeNumberNamesItsBound(t *testing.T) {
	ds := func(rest string) string {
		return "datasources:\n  - {id: a, engine: sqlite, path: a.db" + rest + "}\n"
	}
	tests := []struct {
		name    string
		body    string
		environ []string
		want    string // "" for loads
	}{
		{"past int64", ds(", row_limit: 99999999999999999999"), nil, "datasources[0].row_limit: too large (at most 1000000)"},
		{"past int64, within uint64", ds(", row_limit: 10000000000000000000"), nil, "datasources[0].row_limit: too large (at most 1000000)"},
		{"past the bound", ds(", row_limit: 2000000000"), nil, "datasources[0].row_limit: 2000000000 is too large (at most 1000000)"},
		{"the bound", ds(", row_limit: 1000000"), nil, ""},
		{"env past int64", ds(""), []string{"NL2SQL_DATASOURCES__A__ROW_LIMIT=99999999999999999999"},
			`NL2SQL_DATASOURCES__A__ROW_LIMIT: config key datasources.a.row_limit: "99999999999999999999" is too large (at most 1000000)`},
		{"env past the bound", ds(""), []string{"NL2SQL_DATASOURCES__A__ROW_LIMIT=5000000"}, "datasources[0].row_limit: 5000000 is too large (at most 1000000)"},
		{"a key without a bound of its own", "llm:\n  default: {provider: ollama, num_ctx: 1e30}\n", nil,
			"llm.default.num_ctx: too large (at most 9223372036854775807)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(writeConfig(t, tt.body), tt.environ, lookupIn(nil))
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want == "":
			case err == nil:
				t.Fatal("loaded")
			case !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "whole number"):
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}

func TestLoadReportsEveryProblem(t *testing.T) {
	p := writeConfig(t, "datasources:\n  - {id: A, engine: sqlite}\n  - {id: b, engine: nosql, path: x, row_limit: 0}\n")
	_, err := load(p, nil, lookupIn(nil))
	if err == nil {
		t.Fatal("loaded")
	}
	for _, w := range []string{"datasources[0].id", "datasources[0].path", "datasources[1].engine", "datasources[1].row_limit"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %s: %v", w, err)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("Load(missing) = %v", err)
	}
}

func TestLoadRealEnv(t *testing.T) {
	p := writeConfig(t, "storage: {path: \"${env:NL2SQL_TEST_STORE}\"}\nllm:\n  default: {provider: replay, recordings: r}\n")
	t.Setenv("NL2SQL_TEST_STORE", "st")
	t.Setenv("NL2SQL_LLM__DEFAULT__MODEL", "m1")
	c, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Storage.PathAsWritten != "st" || c.LLMFor("x").Model != "m1" {
		t.Errorf("storage %+v, llm %+v", c.Storage, c.LLMFor("x"))
	}
}

// The model-call settings: explicit values (zero included) win over the
// defaults, environment overrides reach them, and the durations derive.
func TestLoadLLMCallSettings(t *testing.T) {
	p := writeConfig(t, `
llm:
  default: {provider: openai, base_url: "http://127.0.0.1:8080/v1", model: m, seed: 7, max_output_tokens: 2048,
            timeout_seconds: 15, max_retries: 0, retry_max_seconds: 5}
  plan: {provider: ollama, model: qwen2.5-coder:7b, num_ctx: 8192, seed: 0}
  answer: {provider: ollama, model: m}
`)
	c, err := load(p, []string{"NL2SQL_LLM__ANSWER__NUM_CTX=4096", "NL2SQL_LLM__ANSWER__SEED=3"}, lookupIn(nil))
	if err != nil {
		t.Fatal(err)
	}
	seven, zero, three := 7, 0, 3
	tests := []struct {
		step string
		want LLMConfig
	}{
		{"default", LLMConfig{Provider: "openai", BaseURL: "http://127.0.0.1:8080/v1", Model: "m", Seed: &seven, MaxOutputTokens: 2048,
			TimeoutSeconds: 15, MaxRetries: 0, RetryMaxSeconds: 5}},
		{"plan", LLMConfig{Provider: "ollama", Model: "qwen2.5-coder:7b", NumCtx: 8192, Seed: &zero,
			TimeoutSeconds: DefaultLLMTimeoutSeconds, MaxRetries: DefaultLLMMaxRetries, RetryMaxSeconds: DefaultLLMRetryMaxSeconds}},
		{"answer", LLMConfig{Provider: "ollama", Model: "m", NumCtx: 4096, Seed: &three,
			TimeoutSeconds: DefaultLLMTimeoutSeconds, MaxRetries: DefaultLLMMaxRetries, RetryMaxSeconds: DefaultLLMRetryMaxSeconds}},
	}
	for _, tt := range tests {
		if got := c.LLM[tt.step]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("llm.%s =\n%+v\nwant\n%+v", tt.step, got, tt.want)
		}
	}
	if d := c.LLM["default"]; d.Timeout() != 15*time.Second || d.RetryMax() != 5*time.Second {
		t.Errorf("durations %v %v", d.Timeout(), d.RetryMax())
	}
	if d := (LLMConfig{}); d.Timeout() != DefaultLLMTimeoutSeconds*time.Second {
		t.Errorf("zero LLMConfig timeout %v", d.Timeout())
	}
}
