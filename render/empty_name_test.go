package render_test

import (
	"errors"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// A SQLite table can hold a column named "", but no engine runs a
// zero-length identifier through the statement check (PostgreSQL and
// DuckDB refuse it themselves): a plan reading it passed `plan check` and
// then failed every run with QUERY_FAILED. It is refused at validation,
// with a hint, on every dialect, so check and run agree.
func TestEmptyColumnNameRefusedBeforeSQL(t *testing.T) {
	cat := memCatalog{table("t", []string{"id integer", " integer"})}
	plans := map[string]string{
		"select":    `{"select":[{"expr":` + column("") + `,"alias":"x"}],"from":[{"table":"t","alias":"t"}]}`,
		"qualified": `{"select":[{"expr":{"kind":"column","table":"t","column":""},"alias":"x"}],"from":[{"table":"t","alias":"t"}]}`,
		"where":     `{"select":[{"expr":` + column("id") + `,"alias":"id"}],"from":[{"table":"t","alias":"t"}],"where":` + binary("=", column(""), num("1")) + `}`,
	}
	for name, plan := range plans {
		q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		_, err = validate.Plan(q, cat, validate.Options{})
		var pe *planast.Error
		if !errors.As(err, &pe) || pe.FirstCode() != planast.CodeBadValue || pe.Issues[0].Hint == "" {
			t.Errorf("%s: a plan reading column \"\" validated as %v; want INVALID_VALUE with a hint", name, err)
		}
	}
	// Why refusing is the one meaning: the engines that cannot hold such a
	// column refuse the identifier outright.
	for _, e := range engines(t, memCatalog{table("u", []string{"id integer"})}, nil) {
		_, err := queryAll(e.db, `SELECT 1 AS "" FROM `+render.QuoteIdent("u"))
		if (err == nil) != (e.d.Name() == "sqlite") {
			t.Errorf("%s: SELECT 1 AS \"\" gave error %v", e.d.Name(), err)
		}
	}
}
