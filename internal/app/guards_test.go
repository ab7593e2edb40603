package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// Guarantees written from what a user would lose without them; each test
// names the threat. (The mutation each one kills is listed in
// scripts/mutate.)

const customersByCountry = "How many customers are there in each country?"

// sumColumn adds up column i of the rows (counts come back as int64 or
// float64 depending on the engine).
func sumColumn(t *testing.T, rows [][]any, i int) int64 {
	t.Helper()
	var n int64
	for _, r := range rows {
		switch v := r[i].(type) {
		case int64:
			n += v
		case float64:
			n += int64(v)
		default:
			t.Fatalf("row %v: column %d is %T", r, i, r[i])
		}
	}
	return n
}

// Threat: a rep whose row filter allows 21 customers asks a question an
// analyst asked before and gets all 59 from the analyst's cached plan. A
// cached plan must be validated and row-filtered again for each caller.
func TestCachedPlanFilteredPerCaller(t *testing.T) {
	a, err := Open(accessConfig(t, "alice"), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	as := func(user string) context.Context {
		sc, ok := a.Policy.ForUser(user)
		if !ok {
			t.Fatalf("no user %s", user)
		}
		return engine.WithCaller(context.Background(), sc)
	}
	res, err := a.Engine.Ask(as("alice"), engine.AskRequest{Question: customersByCountry})
	if err != nil {
		t.Fatal(err)
	}
	if n := sumColumn(t, res.Rows, 1); n != 59 || res.SubQueries[0].PlanSource != "llm" {
		t.Fatalf("analyst: %d customers from %s, want 59 from the planner", n, res.SubQueries[0].PlanSource)
	}
	res, err = a.Engine.Ask(as("jane"), engine.AskRequest{Question: customersByCountry})
	if err != nil {
		t.Fatal(err)
	}
	if res.SubQueries[0].PlanSource != "cache" {
		t.Fatalf("the rep's question was not a cache hit (%s): the test does not reach the cached path", res.SubQueries[0].PlanSource)
	}
	if n := sumColumn(t, res.Rows, 1); n != 21 {
		t.Errorf("the rep got %d customers through the analyst's cached plan, want her 21", n)
	}
}

// Threat: after a schema change (a column dropped, a table renamed) a
// cached plan written for the old schema keeps answering. The plan-cache
// key holds the schema version, so a changed schema misses the cache and
// the planner plans again.
func TestSchemaChangeInvalidatesCachedPlans(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "chinook.sqlite")
	b, err := os.ReadFile(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	yaml := fmt.Sprintf("storage: {path: %q}\ndatasources:\n  - {id: chinook, engine: sqlite, path: %q}\nllm:\n  default: {provider: replay, recordings: %q}\n", filepath.Join(dir, "state"), db, rec)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	ask := func() string {
		t.Helper()
		a, err := Open(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		res, err := a.Engine.Ask(context.Background(), engine.AskRequest{Question: customersByCountry})
		if err != nil {
			t.Fatal(err)
		}
		return res.SubQueries[0].PlanSource
	}
	if s := ask(); s != "llm" {
		t.Fatalf("first ask: %s", s)
	}
	if s := ask(); s != "cache" {
		t.Fatalf("same schema, second ask: %s, want cache", s)
	}
	w, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`ALTER TABLE Customer ADD COLUMN Note TEXT`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if s := ask(); s != "llm" {
		t.Errorf("after a schema change the cached plan answered (%s); want a new plan", s)
	}
}

// approverConfig: two approvers (bea, dan) and an analyst (ann); a rule
// requires approval for anything reading Invoice.
func approverConfig(t *testing.T) string {
	t.Helper()
	db, _ := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	rec, _ := filepath.Abs(filepath.Join(chinookDir, "recordings"))
	dir := t.TempDir()
	cfg := fmt.Sprintf(`storage: {path: %q}
datasources:
  - {id: chinook, engine: sqlite, path: %q}
llm:
  default: {provider: replay, recordings: %q}
roles:
  analyst: {allow: [chinook]}
  approver: {allow: [chinook]}
users:
  - {name: ann, roles: [analyst]}
  - {name: bea, roles: [approver]}
  - {name: dan, roles: [approver]}
local_user: ann
approvals: {approver_roles: [approver]}
hooks:
  - name: invoices_need_approval
    rule: {approval_tables: [chinook.main.Invoice]}
`, filepath.Join(dir, "state"), db, rec)
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Threats: an approver waves her own query through (four eyes become
// two), and someone other than the asker runs an approved query (reading
// data under another person's approval). Bea asks and may not approve her
// own request; Dan approves it; neither Dan nor Ann may run it; Bea runs
// it once.
func TestApprovalsFourEyes(t *testing.T) {
	a, err := Open(approverConfig(t), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	as := func(user string) context.Context {
		sc, ok := a.Policy.ForUser(user)
		if !ok {
			t.Fatalf("no user %s", user)
		}
		return engine.WithCaller(context.Background(), sc)
	}
	_, err = a.Engine.Ask(as("bea"), engine.AskRequest{Question: "What was the total revenue in each year?"})
	ae := engine.AsError(err)
	if ae == nil || ae.Code != engine.CodeNeedsApproval || ae.ApprovalID == "" {
		t.Fatalf("bea's ask: %v", err)
	}
	id := ae.ApprovalID
	if a.Engine.MayDecide(as("bea"), id) {
		t.Error("MayDecide says bea may decide her own request")
	}
	if _, err := a.Engine.Decide(as("bea"), id, true); code(err) != engine.CodeAccessDenied {
		t.Fatalf("bea approved her own request: %v", err)
	}
	if _, err := a.Engine.RunApproved(as("bea"), id); code(err) != engine.CodeInvalidRequest {
		t.Fatalf("bea's own approval attempt left it runnable: %v", err)
	}
	if _, err := a.Engine.Decide(as("dan"), id, true); err != nil {
		t.Fatalf("dan approving: %v", err)
	}
	for _, u := range []string{"dan", "ann"} {
		if res, err := a.Engine.RunApproved(as(u), id); code(err) != engine.CodeAccessDenied {
			t.Errorf("%s ran bea's approved query: %v %v", u, res, err)
		}
	}
	res, err := a.Engine.RunApproved(as("bea"), id)
	if err != nil || res.RowCount == 0 || res.SubQueries[0].PlanSource != "approved" {
		t.Fatalf("bea running her approved query: %v %v", res, err)
	}
}

// Threat: audit lines lose who asked, so an auditor cannot tell which user
// (with which roles) read what. Every run.finished line names the
// authenticated user and roles, for each of two users, as well as the run,
// datasource and status.
func TestAuditLinesCarryUserAndRoles(t *testing.T) {
	cfg := accessConfig(t, "alice")
	a, err := Open(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"alice", "jane"} {
		sc, _ := a.Policy.ForUser(u)
		if _, err := a.Engine.Ask(engine.WithCaller(context.Background(), sc), engine.AskRequest{Question: customersByCountry}); err != nil {
			t.Fatal(err)
		}
	}
	a.Close() // flushes the audit queue
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(cfg), "state", "audit", "audit-*.jsonl"))
	var lines []map[string]any
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("audit line %q: %v", l, err)
			}
			lines = append(lines, m)
		}
	}
	want := map[string]string{"alice": "[analyst]", "jane": "[rep]"}
	if len(lines) != 2 {
		t.Fatalf("%d audit lines, want 2: %v", len(lines), lines)
	}
	for _, m := range lines {
		u, _ := m["user"].(string)
		r, ok := want[u]
		if !ok || fmt.Sprint(m["roles"]) != r {
			t.Errorf("audit line names user %q roles %v: %v", m["user"], m["roles"], m)
		}
		delete(want, u)
		for _, k := range []string{"run_id", "kind", "datasource", "status"} {
			if s, _ := m[k].(string); s == "" {
				t.Errorf("audit line lacks %s: %v", k, m)
			}
		}
	}
}
