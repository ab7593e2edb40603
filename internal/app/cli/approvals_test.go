package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// An approver who lists and finds nothing is told there is nothing (an
// empty screen looked like a command that did not run, or another store);
// --json stays a list with no entries for scripts. A listed approval shows
// what is decided: the question, tables and SQL. `approvals run` prints
// the result as `plan run` does (text; --json for the whole result),
// where it printed one line of raw JSON.
func TestApprovalsListAndRunPrintLikeTheOtherCommands(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: st}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + db + "}\n" +
		"hooks:\n  - {name: invoices_need_approval, rule: {approval_tables: [chinook.main.Invoice]}}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"approvals", "list", "--config", cfg}, "no pending approvals\n"},
		{[]string{"approvals", "list", "--config", cfg, "--state", ""}, "no approvals\n"},
		{[]string{"approvals", "list", "--config", cfg, "--json"}, ""},
	} {
		if out, err := runCLI(c.args...); err != nil || out != c.want {
			t.Errorf("%q: %q %v, want %q", c.args, out, err, c.want)
		}
	}

	plan := `{"from":[{"table":"Invoice","alias":"i"}],"select":[{"expr":{"kind":"column","table":"i","column":"Total"}}],` +
		`"order_by":[{"expr":{"kind":"column","table":"i","column":"InvoiceId"}}],"limit":2}`
	// what plan run prints for the plan where no rule holds it
	free := filepath.Join(dir, "free.yaml")
	if err := os.WriteFile(free, []byte("storage: {path: st2}\ndatasources:\n  - {id: chinook, engine: sqlite, path: "+db+"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := runCLI("plan", "run", "--config", free, plan)
	if err != nil || !strings.HasPrefix(want, "2 rows.") {
		t.Fatalf("plan run: %v %q", err, want)
	}
	held := func() string {
		t.Helper()
		if _, err := runCLI("plan", "run", "--config", cfg, plan); err == nil || !strings.Contains(err.Error(), "NEEDS_APPROVAL") {
			t.Fatalf("plan run on Invoice: %v, want NEEDS_APPROVAL", err)
		}
		out, err := runCLI("approvals", "list", "--config", cfg, "--json")
		var x struct {
			ID string `json:"approval_id"`
		}
		if err != nil || json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &x) != nil || x.ID == "" {
			t.Fatalf("approvals list --json: %v %q", err, out)
		}
		return x.ID
	}
	id := held()
	out, err := runCLI("approvals", "list", "--config", cfg)
	for _, w := range []string{id + "  pending  asked by the local user on chinook", "tables: chinook.main.Invoice", `FROM "main"."Invoice"`} {
		if err != nil || !strings.Contains(out, w) {
			t.Errorf("approvals list: %v %q lacks %q", err, out, w)
		}
	}
	if _, err := runCLI("approvals", "approve", "--config", cfg, id); err != nil {
		t.Fatal(err)
	}
	out, err = runCLI("approvals", "run", "--config", cfg, id)
	if err != nil || out != want {
		t.Errorf("approvals run printed %q (%v), want what plan run prints: %q", out, err, want)
	}
	id = held()
	if _, err := runCLI("approvals", "approve", "--config", cfg, id); err != nil {
		t.Fatal(err)
	}
	out, err = runCLI("approvals", "run", "--config", cfg, "--json", id)
	var res struct {
		Kind     string `json:"kind"`
		RowCount int    `json:"row_count"`
	}
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || res.Kind != "answer" || res.RowCount != 2 || !strings.Contains(out, "\n  \"") {
		t.Errorf("approvals run --json printed %q (%v), want the whole result as plan run --json prints it", out, err)
	}
}

// A command-line user stopped with NEEDS_APPROVAL was told to "call
// run_approved", an MCP tool with no command of that name: the hint names
// the commands that approve and then run that approval, with its id.
func TestNeedsApprovalHintNamesTheCommands(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: st}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + db + "}\n" +
		"hooks:\n  - {name: invoices_need_approval, rule: {approval_tables: [chinook.main.Invoice]}}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	plan := `{"from":[{"table":"Invoice","alias":"i"}],"select":[{"expr":{"kind":"column","table":"i","column":"Total"}}]}`
	_, err := runCLI("plan", "run", "--config", cfg, plan)
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != engine.CodeNeedsApproval || ee.ApprovalID == "" {
		t.Fatalf("plan run on Invoice: %v, want NEEDS_APPROVAL with an id", err)
	}
	shown := CommandLineError(err).Error()
	for _, w := range []string{"nl2sql approvals approve " + ee.ApprovalID, "nl2sql approvals run " + ee.ApprovalID} {
		if !strings.Contains(shown, w) {
			t.Errorf("%q does not name %q", shown, w)
		}
	}
	if strings.Contains(shown, "run_approved") || strings.Contains(shown, "approve_run") {
		t.Errorf("%q names a tool", shown)
	}
	if !strings.Contains(ee.Hint, "run_approved") {
		t.Error("the engine's hint itself was changed (MCP callers share it)")
	}
}
