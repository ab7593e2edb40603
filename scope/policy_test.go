package scope_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/scope"
)

func TestTableAndColumnAccess(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	type check struct {
		user                   string
		ds, schema, table, col string // col "" checks the table
		want                   bool
	}
	checks := []check{
		// analyst: the whole datasource but Employee and Customer.Email
		{"alice", "chinook", "main", "Invoice", "", true},
		{"alice", "chinook", "", "Invoice", "", true}, // no schema: the default one
		{"alice", "chinook", "main", "invoice", "", true},
		{"alice", "chinook", "main", "Employee", "", false},
		{"alice", "chinook", "MAIN", "EMPLOYEE", "", false}, // any case
		{"alice", "chinook", "main", "Employee", "LastName", false},
		{"alice", "chinook", "main", "Customer", "", true},
		{"alice", "chinook", "main", "Customer", "Email", false},
		{"alice", "chinook", "main", "Customer", "email", false},
		{"alice", "chinook", "main", "Customer", "Phone", true},
		{"alice", "chinook", "other", "Invoice", "", true}, // a 1-part allow covers every schema
		{"alice", "shop", "main", "Invoice", "", false},
		// rep: two tables only
		{"jane", "chinook", "main", "Customer", "", true},
		{"jane", "chinook", "main", "Customer", "Email", true},
		{"jane", "chinook", "main", "Invoice", "", true},
		{"jane", "chinook", "main", "InvoiceLine", "", false},
		{"jane", "chinook", "main", "Employee", "", false},
		{"jane", "chinook", "temp", "Customer", "", false},
		// two roles: union, deny only within its own role
		{"both", "chinook", "main", "Customer", "Email", true},
		{"both", "chinook", "main", "Employee", "", false},
		{"both", "chinook", "main", "Track", "", true},
		// column allow: the table with only those columns
		{"mail", "chinook", "main", "Customer", "", true},
		{"mail", "chinook", "main", "Customer", "Email", true},
		{"mail", "chinook", "main", "Customer", "Phone", false},
		// no role, unknown role: nothing
		{"nobody", "chinook", "main", "Invoice", "", false},
		{"ghost", "chinook", "main", "Invoice", "", false},
		{"ghost", "chinook", "main", "Invoice", "InvoiceId", false},
	}
	for _, c := range checks {
		s := user(t, p, c.user)
		var got bool
		if c.col == "" {
			got = s.AllowTable(c.ds, c.schema, c.table)
		} else {
			got = s.AllowColumn(c.ds, c.schema, c.table, c.col)
		}
		if got != c.want {
			t.Errorf("%s may read %s.%s.%s.%s = %v, want %v", c.user, c.ds, c.schema, c.table, c.col, got, c.want)
		}
	}
	if !slices.ContainsFunc(p.Warnings(), func(w string) bool { return strings.Contains(w, "nosuchrole") }) {
		t.Errorf("warnings %q lack the unknown role", p.Warnings())
	}
}

func TestReaches(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	tests := []struct {
		user, ds string
		want     bool
	}{
		{"alice", "chinook", true},
		{"jane", "chinook", true},
		{"carl", "chinook", true},
		{"alice", "shop", false},
		{"nobody", "chinook", false},
		{"ghost", "chinook", false},
	}
	for _, tt := range tests {
		if got := user(t, p, tt.user).Reaches(tt.ds); got != tt.want {
			t.Errorf("%s reaches %s = %v", tt.user, tt.ds, got)
		}
	}
	_, p2 := loadPolicy(t, `
datasources: [{id: a, engine: sqlite, path: a.db}, {id: b, engine: postgres, dsn: x}]
roles:
  r1: {allow: ["*"], deny: ["a"]}
  r2: {allow: ["b"], deny: ["b.*.*"]}
users: [{name: u1, roles: [r1]}, {name: u2, roles: [r2]}]
`)
	if s := user(t, p2, "u1"); s.Reaches("a") || !s.Reaches("b") || s.AllowTable("a", "", "t") || !s.AllowTable("b", "", "t") {
		t.Error("a whole-datasource deny must beat a * allow")
	}
	if s := user(t, p2, "u2"); s.Reaches("b") {
		t.Error("b.*.* denies all of b")
	}
	if got := user(t, p2, "u1").Datasources([]string{"a", "b"}); !slices.Equal(got, []string{"b"}) {
		t.Errorf("Datasources = %v", got)
	}
}

// A name without a schema is in the engine's default schema: public on
// PostgreSQL, main elsewhere.
func TestDefaultSchema(t *testing.T) {
	_, p := loadPolicy(t, `
datasources: [{id: pg, engine: postgres, dsn: x}, {id: lite, engine: sqlite, path: a.db}]
roles: {r: {allow: ["pg.public.orders", "lite.main.orders"]}}
users: [{name: u, roles: [r]}]
`)
	s := user(t, p, "u")
	if !s.AllowTable("pg", "", "orders") || !s.AllowTable("lite", "", "orders") || s.AllowTable("pg", "main", "orders") {
		t.Error("default schemas")
	}
}

func TestTwoPartPatternIsAConfigError(t *testing.T) {
	_, err := config.Load(writeFile(t, "datasources: [{id: chinook, engine: sqlite, path: a.db}]\nroles: {r: {deny: [chinook.Employee]}}\n"))
	if err == nil || !strings.Contains(err.Error(), "roles.r.deny[0]") {
		t.Errorf("err = %v", err)
	}
}

func TestBadRowFilterIsAnError(t *testing.T) {
	cfg, err := config.Load(writeFile(t, "datasources: [{id: c, engine: sqlite, path: a.db}]\nroles: {r: {allow: [c], row_filters: [{table: c.main.t, where: \"a = lower(:x)\"}]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scope.New(cfg.Access()); err == nil || !strings.Contains(err.Error(), "roles.r.row_filters[0].where") {
		t.Errorf("err = %v", err)
	}
}

func TestAuthenticate(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	tests := []struct {
		token, want string
	}{
		{aliceToken, "alice"},
		{janeToken, "jane"},
		{"", ""},
		{"alice-secret-token ", ""},
		{scope.TokenDigest(aliceToken), ""}, // the digest is not the token
		{"x", ""},
	}
	for _, tt := range tests {
		s, ok := p.Authenticate(tt.token)
		if ok != (tt.want != "") || ok && s.Identity().User != tt.want {
			t.Errorf("Authenticate(%q) = %v, %v", tt.token, s.Identity(), ok)
		}
	}
	if s, _ := p.Authenticate(janeToken); !slices.Equal(s.Identity().Roles, []string{"rep"}) {
		t.Errorf("identity %v", s.Identity())
	}
	if id, ok := (scope.HTTPAuth{Policy: p}).Authenticate(aliceToken); !ok || id.(*scope.Scope).Identity().User != "alice" {
		t.Errorf("HTTPAuth = %v %v", id, ok)
	}
	if id, ok := (scope.HTTPAuth{Policy: p}).Authenticate("wrong"); ok || id != nil {
		t.Errorf("HTTPAuth wrong token = %v %v", id, ok)
	}
	if _, ok := (*scope.Policy)(nil).Authenticate(aliceToken); ok {
		t.Error("nil policy authenticated")
	}
}

// A token that is not exactly a configured one never authenticates, however
// close it comes: every one-character change, truncation and extension of a
// real token, and a few thousand unrelated guesses. An attacker who guesses
// near a token, or a comparison that checks only part of the digest, would
// otherwise get in as someone.
func TestAuthenticateOnlyExactTokens(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	var guesses []string
	for _, tok := range []string{aliceToken, janeToken} {
		for i := range len(tok) {
			guesses = append(guesses, tok[:i], tok[:i]+"x"+tok[i+1:], tok[:i]+string(tok[i]^1)+tok[i+1:])
		}
		guesses = append(guesses, tok+"x", strings.ToUpper(tok), " "+tok)
	}
	for i := range 4000 {
		guesses = append(guesses, fmt.Sprintf("guess-%d", i))
	}
	for _, g := range guesses {
		if g == aliceToken || g == janeToken {
			continue
		}
		if s, ok := p.Authenticate(g); ok {
			t.Fatalf("Authenticate(%q) let in %s", g, s.Identity().User)
		}
	}
}

func TestLocalAndSingleUser(t *testing.T) {
	_, p := loadPolicy(t, issueRoles)
	if id := p.Local().Identity(); id.User != "alice" || id.SingleUser {
		t.Errorf("Local = %v", id)
	}
	if p.Local().AllowTable("chinook", "main", "Employee") {
		t.Error("local alice reads Employee")
	}
	// roles without local_user: the local caller reads nothing
	_, p2 := loadPolicy(t, strings.Replace(issueRoles, "local_user: alice", "", 1))
	if p2.Local().Reaches("chinook") || p2.Local().Identity().String() != "nobody" {
		t.Error("local without local_user reads")
	}
	// no roles: single user, everything readable from stdio, the CLI and
	// by any authenticated HTTP caller
	_, p3 := loadPolicy(t, "datasources: [{id: chinook, engine: sqlite, path: CHINOOK}]\nusers: [{name: bob, tokens_sha256: [\""+scope.TokenDigest("b")+"\"]}]\n")
	if p3.Secured() || !p3.Local().Unrestricted() || !p3.Local().AllowColumn("chinook", "main", "Employee", "Salary") {
		t.Error("no roles must be single-user")
	}
	if s, ok := p3.Authenticate("b"); !ok || !s.Unrestricted() || s.Identity().String() != "bob (single user)" {
		t.Errorf("HTTP user without roles: %v %v", s.Identity(), ok)
	}
	if !scope.SingleUser().AllowTable("x", "", "y") || scope.SingleUser().RowFilters("x", "", "y") != nil {
		t.Error("SingleUser")
	}
	var nilScope *scope.Scope
	if nilScope.Reaches("chinook") || nilScope.AllowTable("chinook", "main", "Invoice") || nilScope.Checker("chinook").AllowTable("main", "Invoice") {
		t.Error("a nil scope must read nothing")
	}
}

func TestCheckHTTP(t *testing.T) {
	_, withTokens := loadPolicy(t, issueRoles)
	_, without := loadPolicy(t, "datasources: [{id: chinook, engine: sqlite, path: CHINOOK}]\n")
	tests := []struct {
		name                  string
		p                     *scope.Policy
		loopback, allowNoAuth bool
		ok                    bool
	}{
		{"tokens", withTokens, false, false, true},
		{"no tokens", without, false, false, false},
		{"no tokens, loopback, not asked", without, true, false, false},
		{"no tokens, asked, not loopback", without, false, true, false},
		{"no tokens, loopback, asked", without, true, true, true},
		{"nil policy", nil, true, false, false},
	}
	for _, tt := range tests {
		err := tt.p.CheckHTTP(tt.loopback, tt.allowNoAuth)
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, scope.ErrNoAuthentication) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestRowFiltersCombine(t *testing.T) {
	_, p := loadPolicy(t, `
datasources: [{id: c, engine: sqlite, path: a.db}]
roles:
  east: {allow: [c.main.Customer], row_filters: [{table: c.main.Customer, where: "Region = 'east'"}, {table: c.main.Customer, where: "Active = 1"}]}
  mine: {allow: [c.main.Customer], row_filters: [{table: c.main.Customer, where: "Owner = :me"}]}
  open: {allow: [c]}
users:
  - {name: e, roles: [east]}
  - {name: em, roles: [east, mine], attributes: {me: 7}}
  - {name: eo, roles: [east, open]}
`)
	tests := []struct{ user, want string }{
		{"e", "(Region = 'east') AND (Active = 1)"},
		{"em", "((Region = 'east') AND (Active = 1)) OR ((Owner = :me))"},
		{"eo", ""}, // open reads every row
	}
	for _, tt := range tests {
		fs := user(t, p, tt.user).RowFilters("c", "", "customer")
		got := ""
		if len(fs) > 0 {
			got = fs[0].Where
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.user, got, tt.want)
		}
	}
	fs := user(t, p, "em").RowFilters("c", "main", "Customer")
	if !slices.Equal(fs[0].Params(), []string{"me"}) || !slices.Equal(fs[0].Columns(), []string{"Region", "Active", "Owner"}) {
		t.Errorf("params %v columns %v", fs[0].Params(), fs[0].Columns())
	}
}
