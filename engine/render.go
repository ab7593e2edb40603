package engine

import (
	"github.com/nl2sql/nl2sql/render"
)

// render turns a validated plan into the datasource's SQL. The LIMIT is the
// row limit plus one probe row, so execution can tell a full result from a
// truncated one.
func (e *Engine) render(ds *datasource, p *planned) (string, error) {
	d, ok := render.LookupFlavor(ds.src.Dialect(), ds.spec.Flavor)
	if !ok {
		return "", Errorf(CodeInternal, "", "no renderer for dialect %q (flavor %q)", ds.src.Dialect(), ds.spec.Flavor)
	}
	if f, ok := ds.src.(caseFolder); ok {
		d = render.WithFold(d, f.FoldCollation())
	}
	return e.renderIn(ds, p, d)
}

// caseFolder is an adapter whose database folds letters beyond A-Z only
// under a collation it names (PostgreSQL under LC_CTYPE C).
type caseFolder interface{ FoldCollation() string }

// renderIn renders a validated plan in dialect d with the datasource's
// row limit (plan checks may ask for another dialect than the
// datasource's).
func (e *Engine) renderIn(ds *datasource, p *planned, d render.Dialect) (string, error) {
	sql, err := render.SQL(p.plan, d, render.Options{MaxRows: int64(ds.spec.RowLimit) + 1})
	if err != nil {
		return "", &Error{Code: CodeInternal, Msg: "a validated plan failed to render: " + err.Error(), Err: err}
	}
	return sql, nil
}
