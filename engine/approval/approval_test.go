package approval

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/internal/store"
)

func codeOf(err error) fault.Code {
	if err == nil {
		return ""
	}
	return fault.AsError(err).Code
}

// Threat: the four-eyes process is bypassed — an asker approves their own
// run, a non-approver decides, someone else runs the approved plan, or an
// approval runs twice. Each step of the worked example in doc.go, against
// the real state store.
func TestFourEyes(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	desk := &Desk{Store: st, ApproverRoles: []string{"lead"}}
	ana, bo, cy := Caller{User: "ana", Roles: []string{"lead"}}, Caller{User: "bo", Roles: []string{"lead"}}, Caller{User: "cy"}

	err = desk.Hold(ctx, Approval{User: "ana", Datasource: "chinook", SQL: "SELECT 1"})
	id := fault.AsError(err).ApprovalID
	if codeOf(err) != fault.CodeNeedsApproval || len(id) != len("apr_")+24 {
		t.Fatalf("hold: %v", err)
	}
	steps := []struct {
		name string
		do   func() error
		want fault.Code
	}{
		{"a non-approver decides", func() error { _, err := desk.Decide(ctx, cy, id, true); return err }, fault.CodeAccessDenied},
		{"the asker approves their own", func() error { _, err := desk.Decide(ctx, ana, id, true); return err }, fault.CodeAccessDenied},
		{"the asker runs it pending", func() error { _, err := desk.Approved(ctx, ana, id); return err }, fault.CodeInvalidRequest},
		{"another approver approves", func() error { _, err := desk.Decide(ctx, bo, id, true); return err }, ""},
		{"it is decided twice", func() error { _, err := desk.Decide(ctx, bo, id, false); return err }, fault.CodeInvalidRequest},
		{"the approver runs it", func() error { _, err := desk.Approved(ctx, bo, id); return err }, fault.CodeAccessDenied},
		{"the asker spends it", func() error {
			a, err := desk.Approved(ctx, ana, id)
			if err != nil {
				return err
			}
			return desk.Spend(ctx, a)
		}, ""},
		{"the asker runs it again", func() error { _, err := desk.Approved(ctx, ana, id); return err }, fault.CodeInvalidRequest},
	}
	for _, s := range steps {
		if got := codeOf(s.do()); got != s.want {
			t.Errorf("%s: code %q, want %q", s.name, got, s.want)
		}
	}
	if !desk.MayDecide(ctx, Caller{SingleUser: true}, id) || desk.MayDecide(ctx, ana, id) {
		t.Error("MayDecide: the single user may, the asker may not")
	}
	if err := (&Desk{}).Hold(ctx, Approval{}); codeOf(err) != fault.CodeRefusedByRule {
		t.Errorf("no store: %v, want REFUSED_BY_RULE", err)
	}
}
