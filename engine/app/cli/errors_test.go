package cli

import (
	"encoding/json"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// A failed `ask --json` prints the typed error on stdout: code, message,
// hint and, for NEEDS_APPROVAL, the approval id a script needs next.
func TestJSONError(t *testing.T) {
	err := &engine.Error{Code: engine.CodeNeedsApproval, Msg: "a rule requires approval", Hint: "ask an approver", ApprovalID: "apr_1"}
	b, _ := json.Marshal(jsonError(err))
	want := `{"error":{"approval_id":"apr_1","code":"NEEDS_APPROVAL","hint":"ask an approver","message":"a rule requires approval","retryable":false}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
