package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: orders' status is stored as 'paid', 'Paid' and 'paid '
// (typed by hand). Asked "Which orders have status paid?", ask handed the
// host run_verified_query with "Paid", the first spelling it found, which
// returns another order than the two stored as 'paid', and the run said
// nothing of the other spellings where run_plan's filter does. The call
// must carry the spelling the question writes, and the run must name the
// spellings its equality leaves out.
func TestVerifiedQueryOfAValueStoredInSeveralSpellings(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, status TEXT, total REAL)",
		"INSERT INTO orders VALUES (100, 'paid', 10), (101, 'Paid', 20), (102, 'paid ', 30), (103, 'open', 40), (106, 'paid', 50)")
	dir := t.TempDir()
	cur := filepath.Join(dir, "curated.yaml")
	if err := os.WriteFile(cur, []byte(`verified_queries:
  - id: orders_by_status
    datasource: shop
    description: The orders of one status
    questions: ["Which orders have status open?"]
    sql: SELECT order_id, status, total FROM orders WHERE status = :status ORDER BY order_id
    params:
      - {name: status, type: string, required: true, max_length: 20}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("storage: {path: %q}\ndatasources:\n  - {id: shop, engine: sqlite, path: %q}\ncurated: %q\n",
		filepath.Join(dir, "state"), db, cur)), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ctx := context.Background()
	res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: "Which orders have status paid?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if next := res.HostPlan.Next; !strings.Contains(next, `"status":"paid"`) {
		t.Errorf("the verified call does not carry the spelling the question writes: %s", next)
	}
	run, err := a.Engine.RunVerified(ctx, "orders_by_status", map[string]any{"status": "paid"})
	if err != nil || run.RowCount != 2 {
		t.Fatalf("run: %v %+v", err, run)
	}
	w := strings.Join(run.Warnings, "\n")
	if !strings.Contains(w, `argument "status"`) || !strings.Contains(w, `"Paid"`) || !strings.Contains(w, `"paid "`) {
		t.Errorf("warnings %q: want the other spellings named", run.Warnings)
	}
	if run, err := a.Engine.RunVerified(ctx, "orders_by_status", map[string]any{"status": "open"}); err != nil || len(run.Warnings) != 0 {
		t.Errorf("a value stored in one spelling: %v %q", err, run.Warnings)
	}
}
