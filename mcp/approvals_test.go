package mcp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/scope"
)

// approvalConfig: a rule requires approval for queries reading Invoice;
// ana (analyst) asks, bob (approver) approves.
func approvalConfig(t *testing.T) (cfgPath, storage string) {
	t.Helper()
	demo, _ := filepath.Abs(filepath.Join("..", "examples", "chinook"))
	dir := t.TempDir()
	storage = filepath.Join(dir, "state")
	yaml := `storage: {path: ` + storage + `}
datasources:
  - {id: chinook, engine: sqlite, path: ` + filepath.Join(demo, "chinook.sqlite") + `}
llm:
  default: {provider: replay, recordings: ` + filepath.Join(demo, "recordings") + `}
roles:
  analyst: {allow: [chinook]}
  approver: {allow: [chinook]}
users:
  - {name: ana, roles: [analyst], tokens_sha256: ["` + scope.TokenDigest("tok-ana") + `"]}
  - {name: bob, roles: [approver], tokens_sha256: ["` + scope.TokenDigest("tok-bob") + `"]}
approvals: {approver_roles: [approver]}
hooks:
  - name: invoices_need_approval
    rule: {approval_tables: [chinook.main.Invoice]}
`
	cfgPath = filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfgPath, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfgPath, storage
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any) *mcpgo.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: name, Arguments: args}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func text(res *mcpgo.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	tc, _ := res.Content[0].(mcpgo.TextContent)
	return tc.Text
}

// An approval round trip over MCP (streamable HTTP, bearer tokens): the
// analyst's question stops with NEEDS_APPROVAL and an approval id; the
// analyst cannot approve it; the approver approves it but cannot run it;
// the analyst runs it once as plan_source "approved".
func TestApprovalRoundTrip(t *testing.T) {
	cfgPath, storage := approvalConfig(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(cfgPath, logger)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- ServeHTTP(ctx, NewServer(a.Engine, "test", logger), HTTPOptions{Addr: "127.0.0.1:0", Ready: ready, Logger: logger, Auth: a.Authenticator()})
	}()
	var base string
	select {
	case addr := <-ready:
		base = "http://" + addr + "/mcp"
	case err := <-done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	as := func(tok string) *client.Client {
		return connect(t, base, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	}
	ana, bob := as("tok-ana"), as("tok-bob")

	res := callTool(t, ana, "ask", map[string]any{"question": "What was the total revenue in each year?"})
	env, _ := res.StructuredContent.(map[string]any)
	sc, _ := env["error"].(map[string]any) // tools.ErrorOutput
	id, _ := sc["approval_id"].(string)
	if !res.IsError || sc["code"] != "NEEDS_APPROVAL" || !strings.HasPrefix(id, "apr_") {
		t.Fatalf("ask: %+v %q", res.StructuredContent, text(res))
	}
	if res := callTool(t, ana, "run_approved", map[string]any{"approval_id": id}); !res.IsError || !strings.Contains(text(res), "not approved") {
		t.Errorf("run before approval: %q", text(res))
	}
	if res := callTool(t, ana, "approve_run", map[string]any{"approval_id": id}); !res.IsError || !strings.HasPrefix(text(res), "ACCESS_DENIED") {
		t.Errorf("analyst approving: %q", text(res))
	}
	res = callTool(t, bob, "approve_run", map[string]any{"approval_id": id})
	if res.IsError || !strings.Contains(text(res), "approved") {
		t.Fatalf("approve: %q", text(res))
	}
	if res := callTool(t, bob, "run_approved", map[string]any{"approval_id": id}); !res.IsError || !strings.HasPrefix(text(res), "ACCESS_DENIED") {
		t.Errorf("approver running another's query: %q", text(res))
	}
	res = callTool(t, ana, "run_approved", map[string]any{"approval_id": id})
	if res.IsError {
		t.Fatalf("run_approved: %q", text(res))
	}
	var out struct {
		RowCount   int `json:"row_count"`
		SubQueries []struct {
			PlanSource string `json:"plan_source"`
		} `json:"sub_queries"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || out.RowCount == 0 || out.SubQueries[0].PlanSource != "approved" {
		t.Errorf("approved run: %s", b)
	}
	if res := callTool(t, ana, "run_approved", map[string]any{"approval_id": id}); !res.IsError {
		t.Errorf("an approval ran twice")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("shutdown: %v", err)
	}
	a.Close()
	// the audit log: one line per run (the stopped ask, four run_approved
	// attempts of which one ran), none with rows
	lines := auditLines(t, storage)
	if len(lines) != 5 || strings.Count(strings.Join(lines, "\n"), `"status":"ok"`) != 1 {
		t.Errorf("%d audit lines, want 5 with one ok:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if strings.Contains(l, `"rows"`) || strings.Contains(l, "select") {
			t.Errorf("audit line carries result data: %s", l)
		}
	}
}

func auditLines(t *testing.T, storage string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(storage, "audit", "audit-*.jsonl"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Split(strings.TrimSpace(string(b)), "\n")...)
	}
	return out
}

type elicitAnswer struct {
	action  mcpgo.ElicitationResponseAction
	approve bool
	asked   int
}

func (h *elicitAnswer) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	h.asked++
	return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: h.action, Content: map[string]any{"approve": h.approve}}}, nil
}

// With a client that supports elicitation, the single user is asked
// inline and, on yes, the query runs at once as plan_source "approved"; on
// no the NEEDS_APPROVAL result stands.
func TestApprovalInline(t *testing.T) {
	demo, _ := filepath.Abs(filepath.Join("..", "examples", "chinook"))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "nl2sql.yaml")
	yaml := `storage: {path: ` + filepath.Join(dir, "state") + `}
datasources:
  - {id: chinook, engine: sqlite, path: ` + filepath.Join(demo, "chinook.sqlite") + `}
llm:
  default: {provider: replay, recordings: ` + filepath.Join(demo, "recordings") + `}
hooks:
  - {name: invoices_need_approval, rule: {approval_tables: [chinook.main.Invoice]}}
`
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(cfg, logger)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, c := range []struct {
		h      *elicitAnswer
		source string
	}{
		{&elicitAnswer{action: mcpgo.ElicitationResponseActionAccept, approve: true}, "approved"},
		{&elicitAnswer{action: mcpgo.ElicitationResponseActionAccept, approve: false}, ""},
		{&elicitAnswer{action: mcpgo.ElicitationResponseActionDecline}, ""},
	} {
		tr := transport.NewInProcessTransportWithOptions(NewServer(a.Engine, "test", logger), transport.WithElicitationHandler(c.h))
		cl := client.NewClient(tr)
		ctx := context.Background()
		if err := cl.Start(ctx); err != nil {
			t.Fatal(err)
		}
		init := mcpgo.InitializeRequest{}
		init.Params.Capabilities.Elicitation = &mcpgo.ElicitationCapability{}
		if _, err := cl.Initialize(ctx, init); err != nil {
			t.Fatal(err)
		}
		res := callTool(t, cl, "ask", map[string]any{"question": "What was the total revenue in each year?"})
		cl.Close()
		b, _ := json.Marshal(res.StructuredContent)
		switch {
		case c.h.asked != 1:
			t.Errorf("%+v: asked %d times", c.h, c.h.asked)
		case c.source != "" && (res.IsError || !strings.Contains(string(b), `"plan_source":"approved"`)):
			t.Errorf("%+v: %s %q", c.h, b, text(res))
		case c.source == "" && (!res.IsError || !strings.Contains(string(b), "NEEDS_APPROVAL")):
			t.Errorf("%+v: %s %q", c.h, b, text(res))
		}
	}
	// A client that did not declare elicitation is never asked (the MCP
	// rule), even with a handler: the NEEDS_APPROVAL result stands.
	h := &elicitAnswer{action: mcpgo.ElicitationResponseActionAccept, approve: true}
	tr := transport.NewInProcessTransportWithOptions(NewServer(a.Engine, "test", logger), transport.WithElicitationHandler(h))
	cl := client.NewClient(tr)
	ctx := context.Background()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	res := callTool(t, cl, "ask", map[string]any{"question": "What was the total revenue in each year?"})
	cl.Close()
	if b, _ := json.Marshal(res.StructuredContent); h.asked != 0 || !strings.Contains(string(b), "NEEDS_APPROVAL") {
		t.Errorf("undeclared elicitation: asked %d times, %s", h.asked, b)
	}
}
