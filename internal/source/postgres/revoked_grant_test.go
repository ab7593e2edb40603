package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a table's SELECT is revoked while the server runs, and the
// refusal's hint said to grant SELECT "TO the role" without naming it.
// The administrator reading it knows neither which of the server's roles
// connects nor how to write one PostgreSQL folds (Report-Reader, whose
// unquoted name does not parse), nor which schema's table is meant; they
// granted to the wrong role, or to sales.invoice, and the refusal stayed.
// The hint is the GRANT line to run as it is: the connecting role and
// the relation the catalog names, each quoted only as GRANT needs.
func TestRevokedReadNamesTheRoleAndTheGrant(t *testing.T) {
	f := sourcetest.NewPGFixture(t, `CREATE SCHEMA sales`,
		`CREATE TABLE sales."Invoice" (a int)`, `CREATE TABLE "Invoice" (a int)`, `CREATE TABLE plain (a int)`)
	role := "Report-Reader-" + f.Role[len(f.Role)-6:]
	sourcetest.PGExec(t, f.Super, `CREATE ROLE "`+role+`" LOGIN PASSWORD 'pw'`,
		`GRANT USAGE ON SCHEMA public, sales TO "`+role+`"`, `GRANT SELECT ON ALL TABLES IN SCHEMA public, sales TO "`+role+`"`)
	t.Cleanup(func() { sourcetest.PGExec(t, f.Super, `DROP OWNED BY "`+role+`"`, `DROP ROLE "`+role+`"`) })
	p := openPGTest(t, sourcetest.WithDSN(f.Super, role, "pw", f.DB), source.Options{})
	sourcetest.PGExec(t, f.Super, `REVOKE SELECT ON sales."Invoice", plain FROM "`+role+`"`)

	for _, tt := range []struct{ sql, grant string }{
		// public."Invoice" stays readable: the grant names the schema of
		// the one the role lacks
		{`SELECT a FROM sales."Invoice"`, `GRANT SELECT ON sales."Invoice" TO "` + role + `"`},
		{`SELECT a FROM plain`, `GRANT SELECT ON public.plain TO "` + role + `"`},
	} {
		_, err := p.Query(context.Background(), tt.sql, nil, 10)
		var se *source.Error
		if !errors.As(err, &se) || se.Code != source.CodeQueryFailed {
			t.Fatalf("%s: %#v", tt.sql, err)
		}
		if !strings.Contains(se.Hint, tt.grant) || strings.Contains(se.Hint, "the role)") {
			t.Errorf("%s: hint %q, want the line %s", tt.sql, se.Hint, tt.grant)
		}
		if !strings.Contains(se.Msg, `"`+role+`"`) {
			t.Errorf("%s: message %q does not name the role", tt.sql, se.Msg)
		}
	}

	// with public."Invoice" revoked too, the grant is for the one the
	// statement reads
	sourcetest.PGExec(t, f.Super, `REVOKE SELECT ON "Invoice" FROM "`+role+`"`)
	_, err := p.Query(context.Background(), `SELECT a FROM "sales"."Invoice"`, nil, 10)
	var se *source.Error
	if !errors.As(err, &se) || !strings.Contains(se.Hint, `GRANT SELECT ON sales."Invoice" TO "`+role+`"`) {
		t.Errorf("two of that name: %#v", err)
	}

	sourcetest.PGExec(t, f.Super, `REVOKE USAGE ON SCHEMA sales FROM "`+role+`"`)
	_, err = p.Query(context.Background(), `SELECT a FROM sales."Invoice"`, nil, 10)
	if !errors.As(err, &se) || !strings.Contains(se.Hint, `GRANT USAGE ON SCHEMA sales TO "`+role+`"`) {
		t.Errorf("schema: %#v", err)
	}
}
