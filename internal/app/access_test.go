package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/scope"
)

// accessConfig writes a Chinook config with the roles: analyst
// (everything but Employee and Customer.Email), rep (Customer and Invoice,
// row-filtered to the rep's customers) and clerk (no Invoice).
func accessConfig(t *testing.T, local string) string {
	t.Helper()
	db, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	cur, _ := filepath.Abs(filepath.Join(chinookDir, "curated.yaml"))
	dir := t.TempDir()
	cfg := fmt.Sprintf(`storage: {path: %q}
datasources:
  - {id: chinook, engine: sqlite, path: %q}
curated: %q
llm:
  default: {provider: replay, recordings: %q}
roles:
  analyst:
    allow: ["chinook"]
    deny: ["chinook.main.Employee", "chinook.main.Customer.Email"]
  rep:
    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
    row_filters:
      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
  clerk:
    allow: ["chinook.main.Artist", "chinook.main.Album", "chinook.main.Track", "chinook.main.Genre"]
users:
  - {name: alice, roles: [analyst]}
  - {name: jane, roles: [rep], attributes: {employee_id: 3}}
  - {name: carl, roles: [clerk]}
local_user: %s
`, filepath.Join(dir, "state"), db, cur, rec, local)
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// countingPlanner counts planner calls made through it.
func openAs(t *testing.T, user string) (*App, context.Context) {
	t.Helper()
	a, err := Open(accessConfig(t, user), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	sc, ok := a.Policy.ForUser(user)
	if !ok {
		t.Fatalf("no user %s", user)
	}
	return a, engine.WithCaller(context.Background(), sc)
}

func code(err error) engine.Code {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestAccessThroughTheEngine(t *testing.T) {
	// A role without Invoice asking about invoices is refused before any
	// model call, naming no hidden table.
	a, ctx := openAs(t, "carl")
	res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: "How many invoices were there in each year?"})
	if code(err) != engine.CodeAccessDenied {
		t.Fatalf("carl asking about invoices: %v %v", res, err)
	}
	if strings.Contains(err.Error(), "Invoice") {
		t.Errorf("the refusal names a hidden table: %v", err)
	}

	// analyst: a plan touching Employee through a subquery is refused.
	a, ctx = openAs(t, "alice")
	plan := `{"select":[{"expr":{"kind":"column","table":"c","column":"FirstName"},"alias":"n"}],
	  "from":[{"table":"Customer","alias":"c"}],
	  "where":{"kind":"in","expr":{"kind":"column","table":"c","column":"SupportRepId"},
	    "subquery":{"select":[{"expr":{"kind":"column","table":"e","column":"EmployeeId"},"alias":"id"}],"from":[{"table":"Employee","alias":"e"}]}}}`
	if _, err := a.Engine.RunPlan(ctx, "chinook", []byte(plan)); code(err) != engine.CodePlanInvalid || strings.Contains(strings.ToLower(err.Error()), "reportsto") {
		t.Fatalf("analyst reading Employee in a subquery: %v", err)
	}
	if _, err := a.Engine.RunPlan(ctx, "chinook", []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"Email"},"alias":"e"}],"from":[{"table":"Customer","alias":"c"}]}`)); code(err) != engine.CodePlanInvalid {
		t.Fatalf("analyst reading Customer.Email: %v", err)
	}
	snap, err := a.Engine.VisibleSnapshot(ctx, "chinook")
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range snap.Tables {
		if tb.Name == "Employee" {
			t.Error("describe shows Employee to analyst")
		}
		for _, c := range tb.Columns {
			if tb.Name == "Customer" && c.Name == "Email" {
				t.Error("describe shows Customer.Email to analyst")
			}
		}
	}

	// jane sees only her customers, through a supplied plan and a verified query.
	a, ctx = openAs(t, "jane")
	res, err = a.Engine.RunPlan(ctx, "chinook", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Customer","alias":"c"}]}`))
	if err != nil || fmt.Sprint(res.Rows) != "[[21]]" {
		t.Fatalf("jane's customers: %v %v", res, err)
	}
	res, err = a.Engine.RunVerified(ctx, "customers_in_country", map[string]any{"country": "USA"})
	if err != nil || len(res.Rows) == 0 || len(res.Rows) >= 13 {
		t.Fatalf("jane's USA customers through a verified query: %v %v", res, err)
	}
	for _, r := range res.Rows {
		if fmt.Sprint(r[3]) != "3" {
			t.Errorf("jane sees a customer of rep %v", r[3])
		}
	}
	if _, err := a.Engine.RunVerified(ctx, "tracks_of_genre", map[string]any{"genre": "Jazz"}); code(err) != engine.CodeVerifiedNotFound {
		t.Errorf("jane ran a verified query over tables she may not read: %v", err)
	}
	// the unrestricted local user in single-user mode sees all 59
	sc := scope.SingleUser()
	res, err = a.Engine.RunPlan(engine.WithCaller(context.Background(), sc), "chinook", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Customer","alias":"c"}]}`))
	if err != nil || fmt.Sprint(res.Rows) != "[[59]]" {
		t.Fatalf("single-user count: %v %v", res, err)
	}
}

// A verified query answers a matching question with no planner call, and
// an injected value is refused by the parameter check; the table survives.
func TestVerifiedQueryPath(t *testing.T) {
	a, ctx := openAs(t, "alice")
	res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: "What was revenue by country in 2024?"})
	if err != nil {
		t.Fatal(err)
	}
	sq := res.SubQueries[0]
	if sq.PlanSource != "verified" || sq.VerifiedQuery != "revenue_by_country" || res.Usage.ModelCalls != 1 {
		t.Fatalf("plan_source %s, query %s, usage %+v", sq.PlanSource, sq.VerifiedQuery, res.Usage)
	}
	_, err = a.Engine.RunVerified(ctx, "revenue_by_country", map[string]any{"year": "2024'; DROP TABLE Invoice; --"})
	if code(err) != engine.CodeInvalidParams {
		t.Fatalf("injected value: %v", err)
	}
	res, err = a.Engine.RunPlan(ctx, "chinook", []byte(`{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Invoice","alias":"i"}]}`))
	if err != nil || fmt.Sprint(res.Rows) != "[[412]]" {
		t.Fatalf("Invoice after the attempt: %v %v", res, err)
	}
	list, err := a.Engine.ListVerified(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Engine.ListVerified(ctx, "nope"); engine.AsError(err).Code != engine.CodeDatasourceNotFound {
		t.Errorf("unknown datasource: %v", err)
	}
	b, _ := json.Marshal(list)
	if strings.Contains(string(b), "SELECT") {
		t.Errorf("list_verified_queries shows SQL: %s", b)
	}
}

// With roles but no local_user, the CLI and stdio act as nobody: the error
// says to set local_user, not that no datasource is configured.
func TestRolesWithoutLocalUser(t *testing.T) {
	p := accessConfig(t, "alice")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "local_user: alice\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(p, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	_, err = a.Engine.Ask(context.Background(), engine.AskRequest{Question: "How many customers are there in each country?"})
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeAccessDenied || !strings.Contains(ee.Hint, "local_user") {
		t.Errorf("no local_user: %v", err)
	}
}

func TestMissingConfigHint(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.Contains(err.Error(), "pass --config") {
		t.Errorf("missing config: %v", err)
	}
}
