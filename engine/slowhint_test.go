package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/planast"
)

// The threat: an EXISTS that matched each order to the others of its
// order_ref, letter case aside, ran once per order, reading the table each time (no index
// holds order_ref), and timed out; the hint said to narrow the plan or
// raise the timeout, and the host found by itself that the count grouped
// once by order_ref ran at once. A plan that times out holding a
// subquery that refers to the query around it is told so, and how to
// compute it once; a slow plan without one keeps the generic hint alone.
func TestTimeoutNamesTheCorrelatedSubquery(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, order_ref TEXT, total INTEGER)",
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000) INSERT INTO orders SELECT i, 'R' || (i % 39000), i FROM n")
	e := specEngine(t, DatasourceSpec{ID: "shop", Engine: "sqlite", Path: db, RowLimit: 1000, Timeout: 300 * time.Millisecond})
	e.opts.TraceDir = t.TempDir()
	e.traces = e.openTraces()
	exists := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"o"}],
		"where":{"kind":"exists","subquery":{"select":[{"expr":{"kind":"literal","value":1},"alias":"one"}],"from":[{"table":"orders","alias":"o2"}],
		"where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":{"kind":"func","name":"LOWER","args":[{"kind":"column","table":"o2","column":"order_ref"}]},"right":{"kind":"func","name":"LOWER","args":[{"kind":"column","table":"o","column":"order_ref"}]}},
		"right":{"kind":"binary","op":"!=","left":{"kind":"column","table":"o2","column":"order_id"},"right":{"kind":"column","table":"o","column":"order_id"}}}}}}`
	cross := `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"orders","alias":"a"},{"table":"orders","alias":"b"}],
		"joins":[{"left":"a","right":"b","on":[],"condition":{"kind":"binary","op":"<","left":{"kind":"column","table":"a","column":"total"},"right":{"kind":"column","table":"b","column":"total"}}}]}`
	for _, tc := range []struct {
		name, plan string
		named      bool
	}{{"correlated EXISTS", exists, true}, {"a join of every pair", cross, false}} {
		_, err := e.RunPlan(context.Background(), "shop", []byte(tc.plan))
		var ee *Error
		if !errors.As(err, &ee) || ee.Code != CodeTimeout {
			t.Fatalf("%s: %v, want a timeout", tc.name, err)
		}
		// the operator reads what timed out in the run's trace
		e.FlushTraces()
		days, _ := filepath.Glob(filepath.Join(e.opts.TraceDir, "traces-*.jsonl"))
		var lines []byte
		for _, d := range days {
			b, _ := os.ReadFile(d)
			lines = append(lines, b...)
		}
		if !bytes.Contains(lines, []byte(`"code":"TIMEOUT"`)) || !bytes.Contains(lines, []byte(`\"orders\" AS \"`+map[bool]string{true: "o2", false: "b"}[tc.named]+`\"`)) {
			t.Errorf("%s: the traces do not hold the SQL that timed out:\n%s", tc.name, lines)
		}
		named := strings.Contains(ee.Hint, "the plan's EXISTS subquery refers to o.order_ref of the query around it")
		if named != tc.named || !strings.Contains(ee.Hint, "narrow the plan") {
			t.Errorf("%s: hint %q, want the subquery named %v beside the generic hint", tc.name, ee.Hint, tc.named)
		}
	}
}

// correlated finds a subquery naming an alias it does not define, in any
// clause and any kind of subquery, and none in a derived table or a
// subquery that names only its own sources.
func TestCorrelatedSubqueries(t *testing.T) {
	col := func(t, c string) string { return `{"kind":"column","table":"` + t + `","column":"` + c + `"}` }
	eq := func(l, r string) string { return `{"kind":"binary","op":"=","left":` + l + `,"right":` + r + `}` }
	sub := func(alias, where string) string {
		return `{"select":[{"expr":` + col(alias, "id") + `,"alias":"x"}],"from":[{"table":"t","alias":"` + alias + `"}],"where":` + where + `}`
	}
	for _, tc := range []struct{ name, plan, kind, col string }{
		{"EXISTS naming the outer row", `{"select":[{"expr":` + col("a", "id") + `,"alias":"id"}],"from":[{"table":"t","alias":"a"}],"where":{"kind":"exists","subquery":` + sub("b", eq(col("b", "id"), col("a", "id"))) + `}}`, "EXISTS subquery", "a.id"},
		{"IN over its own rows", `{"select":[{"expr":` + col("a", "id") + `,"alias":"id"}],"from":[{"table":"t","alias":"a"}],"where":{"kind":"in","expr":` + col("a", "id") + `,"subquery":` + sub("b", eq(col("b", "id"), `{"kind":"literal","value":1}`)) + `}}`, "", ""},
		{"scalar subquery in select", `{"select":[{"expr":{"kind":"subquery","query":` + sub("b", eq(col("b", "id"), col("a", "id"))) + `},"alias":"s"}],"from":[{"table":"t","alias":"a"}]}`, "scalar subquery", "a.id"},
		{"derived table", `{"select":[{"expr":` + col("d", "x") + `,"alias":"x"}],"from":[{"alias":"d","subquery":` + sub("b", eq(col("b", "id"), `{"kind":"literal","value":1}`)) + `}]}`, "", ""},
		{"nested: the inner names the middle", `{"select":[{"expr":` + col("a", "id") + `,"alias":"id"}],"from":[{"table":"t","alias":"a"}],"where":{"kind":"exists","subquery":{"select":[{"expr":` + col("b", "id") + `,"alias":"x"}],"from":[{"table":"t","alias":"b"}],"where":{"kind":"exists","subquery":` + sub("c", eq(col("c", "id"), col("b", "id"))) + `}}}}`, "EXISTS subquery", "b.id"},
	} {
		q, err := planast.Decode([]byte(tc.plan), planast.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if kind, c := correlated(q); kind != tc.kind || c != tc.col {
			t.Errorf("%s: correlated = %q %q, want %q %q", tc.name, kind, c, tc.kind, tc.col)
		}
	}
}
