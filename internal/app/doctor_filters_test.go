package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// filterConfig writes a Chinook config whose role rep filters Customer by
// where, held by jane with attrs (a YAML map), and returns its path.
func filterConfig(t *testing.T, where, attrs string) string {
	t.Helper()
	db, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	body := fmt.Sprintf(`storage: {path: %q}
datasources:
  - {id: chinook, engine: sqlite, path: %q}
roles:
  rep:
    allow: ["chinook.main.Customer"]
    row_filters:
      - {table: chinook.main.Customer, where: %q}
users:
  - {name: jane, roles: [rep], attributes: %s}
local_user: jane
`, filepath.Join(dir, "state"), db, where, attrs)
	p := filepath.Join(dir, "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A row filter naming a column its table lacks, or binding an attribute
// its user lacks, refuses every query of the table with a bare
// ACCESS_DENIED. Doctor, which the refusal's hint points the operator to,
// must fail on it, naming the role, the table and the filter, with the
// real column for a typo or the user for a missing attribute; a correct
// filter passes, and one that does not parse fails as before.
func TestDoctorRowFilters(t *testing.T) {
	for _, c := range []struct {
		name, where, attrs string
		want               string // a line of doctor's output; "" when it passes
	}{
		{"correct filter", "SupportRepId = :employee_id", "{employee_id: 3}", ""},
		{"misspelt column", "SupportRep = :employee_id", "{employee_id: 3}",
			`access roles.rep.row_filters[0]: FAILED: role rep: roles.rep.row_filters[0] (table chinook.main.Customer, where "SupportRep = :employee_id") reads column "SupportRep", which the table does not have (did you mean "SupportRepId"?); every query of the table by a user holding the role is refused (fix it in `},
		{"missing attribute", "SupportRepId = :employee_id", "{employeeid: 3}",
			`access roles.rep.row_filters[0]: FAILED: role rep: roles.rep.row_filters[0] (table chinook.main.Customer, where "SupportRepId = :employee_id") binds :employee_id, but user jane has no attribute employee_id (set it in the user's attributes, or from the token's claims); every query of the table by a user holding the role is refused (fix it in `},
		{"where does not parse", "SupportRepId = = 3", "{}",
			`access policy: FAILED: roles.rep.row_filters[0].where: unexpected "=" at byte 15 in the row filter`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			err := Doctor(context.Background(), filterConfig(t, c.where, c.attrs), &out)
			if c.want == "" {
				if err != nil || !strings.Contains(out.String(), "access policy: ok (every pattern and row filter matches the schema)") {
					t.Fatalf("correct filter: err %v\n%s", err, out.String())
				}
				return
			}
			if err == nil || !strings.Contains(out.String(), c.want) {
				t.Fatalf("err %v; output\n%s\nwant a line holding\n%s", err, out.String(), c.want)
			}
			if strings.Contains(out.String(), "access policy: ok") {
				t.Errorf("doctor says the policy is ok beside its failure:\n%s", out.String())
			}
		})
	}
}

// At run time the caller is told ACCESS_DENIED and nothing of the table's
// columns (the refusal is a security boundary), with a hint pointing at
// the operator and doctor; the server's log and the run's trace name the
// role, the table and the missing column or attribute, so the operator
// can find the cause from the refusal alone, and the start-up warnings
// name it before any query.
func TestRowFilterRefusalExplainedToTheOperator(t *testing.T) {
	for _, c := range []struct {
		name, where, attrs, reason string
	}{
		{"misspelt column", "SupportRep = :employee_id", "{employee_id: 3}", `reads column \"SupportRep\", which the table does not have (did you mean \"SupportRepId\"?)`},
		{"missing attribute", "SupportRepId = :employee_id", "{employeeid: 3}", "binds :employee_id, but user jane has no attribute employee_id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var logBuf bytes.Buffer
			a, err := Open(filterConfig(t, c.where, c.attrs), slog.New(slog.NewTextHandler(&logBuf, nil)))
			if err != nil {
				t.Fatal(err)
			}
			// serve and ask print these at start
			warns := strings.Join(a.Engine.AccessWarnings(context.Background(), "chinook"), "\n")
			if !strings.Contains(warns, "role rep: roles.rep.row_filters[0] (table chinook.main.Customer") || !strings.Contains(warns, strings.ReplaceAll(c.reason, `\"`, `"`)) {
				t.Errorf("start-up warnings do not name the filter:\n%s", warns)
			}
			_, err = a.Engine.RunPlan(context.Background(), "chinook",
				[]byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"FirstName"},"alias":"n"}],"from":[{"table":"Customer","alias":"c"}]}`))
			a.Close() // flushes the trace
			ee := engine.AsError(err)
			if ee == nil || ee.Code != engine.CodeAccessDenied || ee.Msg != "a row filter of your role cannot be applied to this plan" ||
				!strings.Contains(ee.Hint, "nl2sql doctor") {
				t.Fatalf("refusal = %v", err)
			}
			body, _ := json.Marshal(ee.Body())
			for _, shown := range []string{err.Error(), string(body)} {
				if low := strings.ToLower(shown); strings.Contains(low, "supportrep") || strings.Contains(low, "employee_id") || strings.Contains(low, "rep:") {
					t.Errorf("the caller is shown the filter's fault: %s", shown)
				}
			}
			if l := logBuf.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "role rep: roles.rep.row_filters[0] (table chinook.main.Customer") || !strings.Contains(l, c.reason) {
				t.Errorf("log does not explain the refusal:\n%s", l)
			}
			files, _ := filepath.Glob(filepath.Join(a.Config.Storage.Path, "traces", "traces-*.jsonl"))
			var traces []byte
			for _, f := range files {
				b, _ := os.ReadFile(f)
				traces = append(traces, b...)
			}
			if !strings.Contains(string(traces), `"detail":"role rep: roles.rep.row_filters[0] (table chinook.main.Customer`) || !strings.Contains(string(traces), c.reason) {
				t.Errorf("trace does not explain the refusal:\n%s", traces)
			}
		})
	}
}
