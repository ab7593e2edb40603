package config

import (
	"strings"
	"testing"
	"time"
)

const hooksBase = `
datasources:
  - {id: chinook, engine: sqlite, path: chinook.sqlite}
roles:
  analyst: {allow: [chinook]}
  admin: {allow: [chinook]}
`

func TestLoadHooks(t *testing.T) {
	p := writeConfig(t, hooksBase+`
hooks:
  - name: rules
    rule:
      question_patterns: ["(?i)salar"]
      deny_tables: [chinook.main.Employee]
      approval_tables: [chinook.main.Invoice]
      row_caps: {analyst: 100}
      window: "07:00-19:00"
  - name: tenant
    points: [after_planning]
    http: {url: "http://127.0.0.1:9000/hook", secret: "${env:HOOK_SECRET}"}
    timeout_ms: 500
    on_error: open
approvals: {approver_roles: [admin]}
`)
	c, err := load(p, nil, lookupIn(map[string]string{"HOOK_SECRET": "k"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Hooks) != 2 || c.Hooks[0].Rule == nil || c.Hooks[0].Rule.RowCaps["analyst"] != 100 || c.Hooks[0].Rule.Window != "07:00-19:00" {
		t.Errorf("rule hook: %+v", c.Hooks[0])
	}
	h := c.Hooks[1]
	if h.HTTP == nil || h.HTTP.Secret != "k" || !h.OnErrorOpen || h.Timeout != 500*time.Millisecond || h.Points[0] != "after_planning" {
		t.Errorf("http hook: %+v %+v", h, h.HTTP)
	}
	if len(c.Approvals.ApproverRoles) != 1 {
		t.Errorf("approvals: %+v", c.Approvals)
	}
}

func TestLoadHookErrors(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"no name", `hooks: [{rule: {deny_tables: [a.b.c]}}]`, "hooks[0].name: missing"},
		{"duplicate", `hooks: [{name: a, rule: {}}, {name: a, rule: {}}]`, "hooks[1].name"},
		{"bad point", `hooks: [{name: a, points: [before_lunch], rule: {}}]`, "hooks[0].points[0]: unknown point"},
		{"bad on_error", `hooks: [{name: a, on_error: maybe, rule: {}}]`, "hooks[0].on_error"},
		{"both kinds", `hooks: [{name: a, rule: {}, http: {url: "http://x"}}]`, "set exactly one of rule and http"},
		{"neither kind", `hooks: [{name: a}]`, "set exactly one of rule and http"},
		{"bad url", `hooks: [{name: a, points: [before_run], http: {url: "ftp://x"}}]`, "hooks[0].http.url"},
		{"http without points", `hooks: [{name: a, http: {url: "http://x"}}]`, "hooks[0].points: missing"},
		{"bad regexp", `hooks: [{name: a, rule: {question_patterns: ["(unclosed"]}}]`, "hooks[0].rule.question_patterns[0]"},
		{"bad window", `hooks: [{name: a, rule: {window: "9-5"}}]`, "hooks[0].rule.window"},
		{"bad cap", `hooks: [{name: a, rule: {row_caps: {analyst: 0}}}]`, "hooks[0].rule.row_caps.analyst"},
		{"bad timeout", `hooks: [{name: a, timeout_ms: 0, rule: {}}]`, "hooks[0].timeout_ms"},
		{"unknown key", `hooks: [{name: a, rule: {deny: [x]}}]`, "unknown key"},
		{"unknown approver role", `approvals: {approver_roles: [boss]}`, "approvals.approver_roles[0]: unknown role"},
		// a rule naming a table it cannot match would protect nothing, silently
		{"bare table", `hooks: [{name: a, rule: {deny_tables: [Employee]}}]`, "hooks[0].rule.deny_tables[0]: \"Employee\" must be written datasource.schema.table"},
		{"two-part table", `hooks: [{name: a, rule: {approval_tables: [chinook.Employee]}}]`, "hooks[0].rule.approval_tables[0]"},
		{"empty part", `hooks: [{name: a, rule: {deny_tables: [chinook..Employee]}}]`, "hooks[0].rule.deny_tables[0]"},
		{"unknown datasource", `hooks: [{name: a, rule: {deny_tables: [shop.main.Employee]}}]`, "no datasource \"shop\" is configured"},
		{"empty rule", `hooks: [{name: a, rule: {}}]`, "hooks[0].rule: the rule is empty"},
		{"points on a rule", `hooks: [{name: a, points: [after_answer], rule: {deny_tables: [chinook.main.Genre]}}]`, "hooks[0].points: a rule acts at the points of its parts"},
		{"three-part column", `hooks: [{name: a, rule: {deny_columns: [chinook.Customer.Email]}}]`, "hooks[0].rule.deny_columns[0]: \"chinook.Customer.Email\" must be written datasource.schema.table.column"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(writeConfig(t, hooksBase+c.body), nil, lookupIn(nil))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		})
	}
}
