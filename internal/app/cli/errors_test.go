package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A failed `ask --json` prints the typed error on stdout: code, message,
// hint and, for NEEDS_APPROVAL, the approval id a script needs next.
func TestJSONError(t *testing.T) {
	err := &engine.Error{Code: engine.CodeNeedsApproval, Msg: "a rule requires approval", Hint: "ask an approver", ApprovalID: "apr_1"}
	b, _ := json.Marshal(jsonError(err))
	want := `{"error":{"code":"NEEDS_APPROVAL","message":"a rule requires approval","hint":"ask an approver","retryable":false,"approval_id":"apr_1"}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// A config that does not load is CONFIG_INVALID on stdout too, with the
// file and key in the message.
func TestAskJSONConfigError(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(cfg, []byte("datasources:\n  - {id: chinook, engine: sqlite, path: x.sqlite, row_limt: 5}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI("ask", "--config", cfg, "--json", "How many customers are there?")
	var got struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err == nil || json.Unmarshal([]byte(out), &got) != nil || got.Error.Code != "CONFIG_INVALID" || !strings.Contains(got.Error.Message, "row_limt") {
		t.Errorf("err %v, stdout %q", err, out)
	}
}
