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

// The threat: a verified query run with status 'paid' named 'PAID',
// 'Paid' and 'paid ' as spellings its equality leaves out, but not
// 'payed', which a plan's filter status = 'paid' names: the host that ran
// the query once per spelling still lost the 'payed' rows. The argument's
// warning must name every spelling the plan's warning names, by the one
// rule: near spellings, the other spellings of a flag's truth, a value
// short for it.
func TestVerifiedQueryNamesTheSpellingsAPlanFilterNames(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE payments (payment_id INTEGER PRIMARY KEY, status TEXT, is_member TEXT, kind TEXT)",
		"INSERT INTO payments VALUES (1, 'paid', 'yes', 'refund'), (2, 'Paid', 'Y', 'refund'), (3, 'paid ', 'true', 'Rf'), (4, 'payed', '1', 'sale'), (5, 'PAID', 'no', 'sale'), (6, 'pending', '0', 'sale'), (7, 'refunded', 'false', 'sale')")
	dir := t.TempDir()
	cur := filepath.Join(dir, "curated.yaml")
	var queries strings.Builder
	queries.WriteString("verified_queries:\n")
	for _, col := range []string{"status", "is_member", "kind"} {
		fmt.Fprintf(&queries, "  - id: by_%[1]s\n    datasource: shop\n    description: The payments of one %[1]s\n    questions: [\"Which payments have %[1]s x?\"]\n    sql: SELECT payment_id FROM payments WHERE %[1]s = :v ORDER BY payment_id\n    params:\n      - {name: v, type: string, required: true, max_length: 20}\n", col)
	}
	if err := os.WriteFile(cur, []byte(queries.String()), 0o644); err != nil {
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
	for _, c := range []struct {
		col, value string
		want       []string // the spellings both warnings name
	}{
		{"status", "paid", []string{`"PAID"`, `"Paid"`, `"paid "`, `"payed"`}},
		{"is_member", "yes", []string{`"Y"`, `"true"`, `"1"`}},
		{"kind", "refund", []string{`"Rf"`}},
	} {
		t.Run(c.col, func(t *testing.T) {
			plan := fmt.Sprintf(`{"select":[{"expr":{"kind":"column","table":"p","column":"payment_id"},"alias":"id"}],"from":[{"table":"payments","alias":"p"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"p","column":%q},"right":{"kind":"literal","value":%q}}}`, c.col, c.value)
			pr, err := a.Engine.RunPlan(ctx, "shop", []byte(plan))
			if err != nil {
				t.Fatal(err)
			}
			vr, err := a.Engine.RunVerified(ctx, "by_"+c.col, map[string]any{"v": c.value})
			if err != nil {
				t.Fatal(err)
			}
			planSaid, verifiedSaid := strings.Join(pr.Warnings, "\n"), strings.Join(vr.Warnings, "\n")
			for _, v := range c.want {
				if !strings.Contains(planSaid, v) {
					t.Errorf("the plan's warnings %q do not name %s", pr.Warnings, v)
				}
				if !strings.Contains(verifiedSaid, v) {
					t.Errorf("the verified query's warnings %q do not name %s, which the plan's name", vr.Warnings, v)
				}
			}
		})
	}
}
