package scope_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/scope"
)

// The tokens of the test users; the config holds their digests.
const (
	aliceToken = "alice-secret-token"
	janeToken  = "jane-secret-token"
)

// issueRoles is the issue's example configuration, plus a role without
// Invoice (catalog) and a user with two roles.
var issueRoles = `
datasources:
  - {id: chinook, engine: sqlite, path: CHINOOK}
roles:
  analyst:
    allow: ["chinook"]
    deny:  ["chinook.main.Employee", "chinook.main.Customer.Email"]
  rep:
    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
    row_filters:
      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
  catalog:
    allow: ["chinook.main.Artist", "chinook.main.Album", "chinook.main.Track", "chinook.main.Genre"]
  emails:
    allow: ["chinook.main.Customer.CustomerId", "chinook.main.Customer.Email"]
local_user: alice
users:
  - name: alice
    roles: [analyst]
    tokens_sha256: ["` + scope.TokenDigest(aliceToken) + `"]
  - {name: jane, roles: [rep], attributes: {employee_id: 3}, tokens_sha256: ["` + scope.TokenDigest(janeToken) + `"]}
  - {name: carl, roles: [catalog]}
  - {name: both, roles: [rep, analyst], attributes: {employee_id: 3}}
  - {name: nobody}
  - {name: mail, roles: [emails]}
  - {name: janeless, roles: [rep]}
`

func chinookPath(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs("../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadPolicy loads body (CHINOOK replaced by the demo database) as
// nl2sql.yaml and compiles its policy.
func loadPolicy(t testing.TB, body string) (*config.Config, *scope.Policy) {
	t.Helper()
	body = strings.ReplaceAll(body, "CHINOOK", chinookPath(t))
	cfg, err := config.Load(writeFile(t, body))
	if err != nil {
		t.Fatal(err)
	}
	// ghost names a role nobody defined. The config loader refuses that
	// (internal/config); scope.New still accepts it, allowing nothing, for
	// policies built without the loader, so it is added here.
	acc := cfg.Access()
	if acc.Roles != nil {
		acc.Users = append(acc.Users, scope.User{Name: "ghost", Roles: []string{"nosuchrole"}})
	}
	pol, err := scope.New(acc)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, pol
}

func user(t testing.TB, p *scope.Policy, name string) *scope.Scope {
	t.Helper()
	s, ok := p.ForUser(name)
	if !ok {
		t.Fatalf("no user %s", name)
	}
	return s
}

var (
	chinookOnce sync.Once
	chinookSrc  *sqlite.SQLite
	chinookSnap *schema.Snapshot
	chinookErr  error
)

// chinook opens the demo database read-only once and snapshots it.
func chinook(t testing.TB) (*sqlite.SQLite, *schema.Snapshot) {
	t.Helper()
	chinookOnce.Do(func() {
		ctx := context.Background()
		chinookSrc, chinookErr = sqlite.OpenSQLite(ctx, "chinook", chinookPath(t), source.Options{})
		if chinookErr == nil {
			chinookSnap, chinookErr = chinookSrc.Snapshot(ctx)
		}
	})
	if chinookErr != nil {
		t.Fatal(chinookErr)
	}
	return chinookSrc, chinookSnap
}

func decodePlan(t testing.TB, s string) *planast.Query {
	t.Helper()
	q, err := planast.Decode([]byte(s), planast.DefaultLimits)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, s)
	}
	return q
}

// writeFile writes body as nl2sql.yaml in a temporary directory.
func writeFile(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "nl2sql.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
