package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const accessSample = `
datasources:
  - {id: chinook, engine: sqlite, path: chinook.sqlite}
roles:
  analyst:
    allow: ["chinook"]
    deny:  ["chinook.main.Employee", "chinook.main.Customer.Email"]
  rep:
    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
    row_filters:
      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
  everything:
    allow: ["*"]
users:
  - name: alice
    roles: [analyst]
    tokens_sha256: ["9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08"]
  - {name: jane, roles: [rep], attributes: {employee_id: 3, region: west, senior: true, quota: 1.5}, tokens_sha256: []}
local_user: alice
curated: curated.yaml
`

func TestLoadAccess(t *testing.T) {
	p := writeConfig(t, accessSample)
	c, err := load(p, nil, lookupIn(nil))
	if err != nil {
		t.Fatal(err)
	}
	wantRoles := map[string]Role{
		"analyst":    {Allow: []string{"chinook"}, Deny: []string{"chinook.main.Employee", "chinook.main.Customer.Email"}},
		"rep":        {Allow: []string{"chinook.main.Customer", "chinook.main.Invoice"}, RowFilters: []RowFilter{{Table: "chinook.main.Customer", Where: "SupportRepId = :employee_id"}}},
		"everything": {Allow: []string{"*"}},
	}
	if !reflect.DeepEqual(c.Roles, wantRoles) {
		t.Errorf("roles = %+v", c.Roles)
	}
	wantUsers := []User{
		{Name: "alice", Roles: []string{"analyst"}, TokensSHA256: []string{"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}},
		{Name: "jane", Roles: []string{"rep"}, Attributes: map[string]any{"employee_id": 3, "region": "west", "senior": true, "quota": 1.5}},
	}
	if !reflect.DeepEqual(c.Users, wantUsers) {
		t.Errorf("users = %#v", c.Users)
	}
	if c.LocalUser != "alice" || !c.Secured() {
		t.Errorf("local_user %q secured %v", c.LocalUser, c.Secured())
	}
	if c.Curated != filepath.Join(filepath.Dir(p), "curated.yaml") || c.CuratedAsWritten != "curated.yaml" {
		t.Errorf("curated %q %q", c.Curated, c.CuratedAsWritten)
	}
	if u, ok := c.User("jane"); !ok || u.Attributes["employee_id"] != 3 {
		t.Errorf("User(jane) = %+v %v", u, ok)
	}
}

// Without a roles section the config is single-user and the new fields
// stay zero (TestLoad's DeepEqual relies on it).
func TestLoadNoRoles(t *testing.T) {
	c, err := load(writeConfig(t, "datasources: [{id: a, engine: sqlite, path: a.db}]\n"), nil, lookupIn(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Secured() || c.Roles != nil || c.Users != nil || c.LocalUser != "" || c.Curated != "" {
		t.Errorf("%+v", c)
	}
	c, err = load(writeConfig(t, "roles: {}\n"), nil, lookupIn(nil))
	if err != nil || !c.Secured() {
		t.Errorf("an empty roles section is still a roles section: %v %v", c, err)
	}
}

func TestLoadAccessErrors(t *testing.T) {
	const ds = "datasources: [{id: chinook, engine: sqlite, path: c.db}]\n"
	tests := []struct {
		name, body string
		want       []string
	}{
		{"two-part pattern", ds + "roles: {a: {allow: [chinook.Customer]}}\n", []string{"roles.a.allow[0]", "two parts"}},
		{"five parts", ds + "roles: {a: {deny: [chinook.main.t.c.x]}}\n", []string{"roles.a.deny[0]", "5 parts"}},
		{"empty part", ds + "roles: {a: {allow: [chinook..t]}}\n", []string{"roles.a.allow[0]", "empty part"}},
		{"unknown datasource", ds + "roles: {a: {allow: [nope]}}\n", []string{"roles.a.allow[0]", "no configured datasource"}},
		{"unknown role key", ds + "roles: {a: {alow: [chinook]}}\n", []string{"unknown key roles.a.alow (did you mean allow?)"}},
		{"allow not a list", ds + "roles: {a: {allow: chinook}}\n", []string{"allow"}},
		{"filter two parts", ds + "roles: {a: {row_filters: [{table: chinook.t, where: x = 1}]}}\n", []string{"roles.a.row_filters[0].table"}},
		{"filter wildcard", ds + "roles: {a: {row_filters: [{table: chinook.main.*, where: x = 1}]}}\n", []string{"wildcards"}},
		{"filter without where", ds + "roles: {a: {row_filters: [{table: chinook.main.t}]}}\n", []string{"row_filters[0].where: missing"}},
		{"filter unknown key", ds + "roles: {a: {row_filters: [{table: chinook.main.t, where: x, when: y}]}}\n", []string{"unknown key", "when"}},
		{"user without name", "roles: {}\nusers: [{roles: [a]}]\n", []string{"users[0].name: missing"}},
		{"duplicate user", "roles: {}\nusers: [{name: a}, {name: a}]\n", []string{"users[1].name", "already"}},
		{"token not a digest", "roles: {}\nusers: [{name: a, tokens_sha256: [secret]}]\n", []string{"users[0].tokens_sha256[0]", "64 hexadecimal"}},
		{"shared token", "roles: {}\nusers: [{name: a, tokens_sha256: [" + strings.Repeat("ab", 32) + "]}, {name: b, tokens_sha256: [" + strings.Repeat("AB", 32) + "]}]\n",
			[]string{"users[1].tokens_sha256[0]", "users[0]"}},
		{"nested attribute", "roles: {}\nusers: [{name: a, attributes: {x: [1, 2]}}]\n", []string{"users[0].attributes.x"}},
		{"bad attribute name", "roles: {}\nusers: [{name: a, attributes: {\"a-b\": 1}}]\n", []string{"users[0].attributes.a-b"}},
		{"roles without a roles section", "users: [{name: a, roles: [r]}]\n", []string{"users[0].roles", "no roles section"}},
		// A user given a role nobody defined (a typo, or a role removed)
		// must not load: the operator thinks some data is granted or
		// hidden, and the error names the file, user, role and the roles
		// that do exist.
		{"undefined role", ds + "roles: {analyst: {allow: [chinook]}, rep: {allow: [chinook]}}\nusers: [{name: alice, roles: [analyst, ghost]}]\n",
			[]string{"nl2sql.yaml", "users[0].roles[1]", `"alice"`, `"ghost"`, "defined: analyst, rep"}},
		{"unknown local user", "roles: {}\nusers: [{name: a}]\nlocal_user: bob\n", []string{"local_user", `"bob"`}},
		{"unknown user key", "users: [{name: a, token: x}]\n", []string{"unknown key", "token"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(writeConfig(t, tt.body), nil, lookupIn(nil))
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
