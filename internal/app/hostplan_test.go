package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// hostConfig writes a Chinook config without an llm section (host
// planning), with the verified queries and the extra YAML given.
func hostConfig(t *testing.T, extra string) string {
	t.Helper()
	db, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	cur, _ := filepath.Abs(filepath.Join(chinookDir, "curated.yaml"))
	dir := t.TempDir()
	body := fmt.Sprintf("storage: {path: %q}\ndatasources:\n  - {id: chinook, engine: sqlite, path: %q}\ncurated: %q\n%s",
		filepath.Join(dir, "state"), db, cur, extra)
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func openHost(t *testing.T, extra string) *App {
	t.Helper()
	a, err := Open(hostConfig(t, extra), quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// A config without llm is valid everywhere: it opens, the engine plans
// nothing itself, and doctor passes saying the host plans.
func TestConfigWithoutLLM(t *testing.T) {
	p := hostConfig(t, "")
	a := openHost(t, "")
	if !a.Engine.HostPlanning() || PlanningMode(a.Config) != "host" {
		t.Fatalf("host planning %v, mode %q", a.Engine.HostPlanning(), PlanningMode(a.Config))
	}
	var out bytes.Buffer
	if err := Doctor(context.Background(), p, &out); err != nil || !strings.Contains(out.String(), "planning: ok (host") {
		t.Errorf("doctor: %v\n%s", err, out.String())
	}
	// explain has nothing to plan with: a typed error pointing at ask
	_, err := a.Engine.Explain(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"})
	if e := engine.AsError(err); e.Code != engine.CodeNoPlanner || !strings.Contains(e.Hint, "plan_it_yourself") {
		t.Errorf("explain: %v", err)
	}
}

// The plan-it-yourself result carries what a host needs in one round trip,
// and its JSON has exactly the documented keys.
func TestHostPlanShape(t *testing.T) {
	a := openHost(t, "")
	res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil {
		t.Fatal(err)
	}
	hp := res.HostPlan
	if hp == nil {
		t.Fatalf("not a host plan: %+v", res)
	}
	if hp.Kind != engine.KindPlanItYourself || hp.Reason != engine.HostReasonNoPlanner || hp.Datasource != "chinook" || hp.Dialect != "sqlite" ||
		len(hp.Today) != 10 || !strings.Contains(hp.SchemaContext, "Artist (") || !strings.Contains(hp.SchemaContext, "Album (") ||
		hp.ContextTokens <= 0 || hp.PlanGuide.Tool != "get_plan_schema" || hp.RunPlan.Tool != "run_plan" ||
		hp.RunPlan.Arguments["datasource"] != "chinook" || strings.Count(hp.Next, "\n") != 0 || !strings.Contains(hp.Next, "run_plan") {
		t.Errorf("host plan %+v", hp)
	}
	b, _ := json.Marshal(res)
	var m map[string]any
	json.Unmarshal(b, &m)
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	want := "context_tables context_tokens datasource dialect kind newest next omitted_tables plan_guide question reason run_plan schema_context today trace_id verified_queries visible_tables"
	if got := strings.Join(sortStrings(keys), " "); got != want {
		t.Errorf("keys %s\nwant %s", got, want)
	}
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// The threat: a host without a model asks and receives, in the schema
// context or the verified queries, a table or column its role hides.
// A hidden table must be as absent as a missing one.
func TestHostPlanHidesDeniedTables(t *testing.T) {
	a := openHost(t, `roles:
  analyst:
    allow: ["chinook"]
    deny: ["chinook.main.Employee", "chinook.main.Customer.Email", "chinook.main.Genre"]
users:
  - {name: alice, roles: [analyst]}
local_user: alice
`)
	for _, q := range []string{
		"Which employees were hired after 2003 and what are their emails?",
		"Which tracks are in the Rock genre?",
		"What are the email addresses of customers whose support rep is an employee from Calgary?",
	} {
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: q})
		if err != nil {
			if engine.AsError(err).Code == engine.CodeAccessDenied {
				continue // refused by the screen: nothing handed over
			}
			t.Fatalf("%q: %v", q, err)
		}
		if res.HostPlan == nil {
			t.Fatalf("%q: not a host plan", q)
		}
		b, _ := json.Marshal(res)
		body := strings.ReplaceAll(string(b), `"question":`+jsonString(q), "")
		body = strings.ReplaceAll(body, jsonString(res.HostPlan.Next), "")
		for _, hidden := range []string{"Employee", "Email", "Genre", "tracks_of_genre"} {
			// a word: the visible column Track.GenreId is not the table Genre
			if regexp.MustCompile(`\b` + hidden + `\b`).MatchString(body) {
				t.Errorf("%q: the result names hidden %q:\n%s", q, hidden, res.HostPlan.SchemaContext)
			}
		}
		if !strings.Contains(res.HostPlan.SchemaContext, "Customer (") && !strings.Contains(res.HostPlan.SchemaContext, "Track (") {
			t.Errorf("%q: the visible tables are missing too:\n%s", q, res.HostPlan.SchemaContext)
		}
	}
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// A question a verified query matches gets that query's exact call, with
// the parameters the question states filled and the others named; making
// the call answers.
func TestHostPlanVerifiedCall(t *testing.T) {
	a := openHost(t, "")
	ctx := context.Background()
	cases := []struct {
		q, id   string
		params  map[string]any
		missing []string
	}{
		{"What was revenue by country in 2023?", "revenue_by_country", map[string]any{"year": "2023"}, nil},
		{"Which tracks are in the Blues genre?", "tracks_of_genre", map[string]any{"genre": "Blues"}, nil},
		{"Which customers are in Germany?", "customers_in_country", map[string]any{"country": "Germany"}, nil},
		{"List the customers of a country", "customers_in_country", map[string]any{}, []string{"params.country"}},
	}
	for _, c := range cases {
		res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: c.q})
		if err != nil || res.HostPlan == nil || len(res.HostPlan.VerifiedQueries) == 0 {
			t.Fatalf("%q: %v %+v", c.q, err, res)
		}
		v := res.HostPlan.VerifiedQueries[0]
		got, _ := json.Marshal(v.Call.Arguments)
		want, _ := json.Marshal(map[string]any{"id": c.id, "params": c.params})
		if v.ID != c.id || v.Call.Tool != "run_verified_query" || string(got) != string(want) || fmt.Sprint(v.Call.Missing) != fmt.Sprint(c.missing) {
			t.Errorf("%q: %s %s missing %v, want %s missing %v", c.q, v.ID, got, v.Call.Missing, want, c.missing)
		}
		if !strings.Contains(res.HostPlan.Next, "run_verified_query") {
			t.Errorf("%q: next %q does not say to call the verified query", c.q, res.HostPlan.Next)
		}
		if len(c.missing) > 0 {
			continue
		}
		params, _ := v.Call.Arguments["params"].(map[string]any)
		out, err := a.Engine.RunVerified(ctx, v.ID, params)
		if err != nil || out.RowCount == 0 {
			t.Errorf("%q: the call does not answer: %v", c.q, err)
		}
	}
	res, _ := a.Engine.Ask(ctx, engine.AskRequest{Question: "Which artist has released the most albums?"})
	if res == nil || res.HostPlan == nil || len(res.HostPlan.VerifiedQueries) != 0 {
		t.Errorf("an unrelated question lists verified queries: %+v", res)
	}
}

// Hooks still apply without a model: before_run refuses a question, and
// nothing is handed over.
func TestHostPlanHooks(t *testing.T) {
	a := openHost(t, `hooks:
  - name: no_salaries
    rule: {question_patterns: ["(?i)salar"]}
`)
	_, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: "What are the salaries of the employees?"})
	if engine.AsError(err).Code != engine.CodeRefusedByRule {
		t.Errorf("want REFUSED_BY_RULE, got %v", err)
	}
}

// With the replay provider, a recorded question answers as before and an
// unrecorded one is handed over (reason no_recording).
func TestHostPlanNoRecording(t *testing.T) {
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	a := openHost(t, fmt.Sprintf("llm:\n  default: {provider: replay, recordings: %q}\n", rec))
	ctx := context.Background()
	res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil || res.HostPlan != nil || res.RowCount != 1 {
		t.Fatalf("recorded: %v %+v", err, res)
	}
	b, _ := json.Marshal(res)
	if !bytes.HasPrefix(b, []byte(`{"kind":"answer",`)) {
		t.Errorf("answer JSON starts %.40s", b)
	}
	res, err = a.Engine.Ask(ctx, engine.AskRequest{Question: "Which playlists have no tracks at all?"})
	if err != nil || res.HostPlan == nil || res.HostPlan.Reason != engine.HostReasonNoRecording {
		t.Fatalf("unrecorded: %v %+v", err, res)
	}
}

// Several datasources, none named: the deterministic ranking picks one
// that leads clearly; otherwise the result lists the candidates, each with
// its context, and names no datasource.
func TestHostPlanSeveralDatasources(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	dir := t.TempDir()
	sales := makeDB(t, "duckdb", filepath.Join(dir, "sales.duckdb"))
	cfg, err := ConfigFromDatabases([]string{db, sales}, DatabaseOptions{Storage: filepath.Join(dir, "state")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := OpenConfig(cfg, quiet, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil || res.HostPlan == nil || res.HostPlan.Datasource != "chinook" || len(res.HostPlan.Candidates) != 0 {
		t.Fatalf("clear leader: %v %+v", err, res.HostPlan)
	}
	twin := filepath.Join(dir, "twin.sqlite")
	b, _ := os.ReadFile(db)
	os.WriteFile(twin, b, 0o644)
	cfg, _ = ConfigFromDatabases([]string{db, twin}, DatabaseOptions{Storage: filepath.Join(dir, "state2")})
	a2, err := OpenConfig(cfg, quiet, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a2.Close()
	res, err = a2.Engine.Ask(ctx, engine.AskRequest{Question: "Which artist has released the most albums?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("twins: %v", err)
	}
	hp := res.HostPlan
	if hp.Datasource != "" || len(hp.Candidates) != 2 || hp.Candidates[0].Datasource != "chinook" || hp.Candidates[1].Datasource != "twin" ||
		!strings.Contains(hp.Candidates[1].SchemaContext, "Artist (") || fmt.Sprint(hp.RunPlan.Missing) != "[datasource plan]" {
		t.Errorf("twins: %+v", hp)
	}
}

// The threat: a verified query run with the value a question spells
// ("blues", "Roll", "Sci Fi") where the data holds "Blues", "Rock And
// Roll", "Sci Fi & Fantasy". The SQL compares exactly, so the answer was
// "No rows matched" with no word of the stored value, where run_plan
// names it. The same warning must come with the verified query's result,
// and the value it names, passed again, must answer.
func TestVerifiedQueryArgumentNamesTheStoredValue(t *testing.T) {
	a := openHost(t, "")
	ctx := context.Background()
	for _, c := range []struct{ typed, stored string }{{"blues", "Blues"}, {"Roll", "Rock And Roll"}, {"Sci Fi", "Sci Fi & Fantasy"}} {
		res, err := a.Engine.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": c.typed})
		if err != nil || res.RowCount != 0 {
			t.Fatalf("%q: %v %+v", c.typed, err, res)
		}
		w := strings.Join(res.Warnings, "\n")
		if !strings.Contains(w, `argument "genre"`) || !strings.Contains(w, fmt.Sprintf("%q", c.stored)) || strings.Contains(w, `"kind"`) {
			t.Errorf("%q: warnings %q, want the stored value %q named (and no plan syntax)", c.typed, res.Warnings, c.stored)
		}
		again, err := a.Engine.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": c.stored})
		if err != nil || again.RowCount == 0 || len(again.Warnings) != 0 {
			t.Errorf("%q: the stored value %q: %v, %d rows, %q", c.typed, c.stored, err, again.RowCount, again.Warnings)
		}
	}
	res, err := a.Engine.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": "Polka"})
	if err != nil || len(res.Warnings) != 0 {
		t.Errorf("a value nothing resembles: %v %q", err, res.Warnings)
	}
}
