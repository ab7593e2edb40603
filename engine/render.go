package engine

import (
	"github.com/nl2sql/nl2sql/render"
)

// render turns a validated plan into the datasource's SQL. The LIMIT is the
// row limit plus one probe row, so execution can tell a full result from a
// truncated one.
//
// The SQL of a memo's plan, unchanged by any hook, is rendered once: the
// memo belongs to this datasource value, whose dialect and row limit
// are fixed, and rendering reads nothing else.
func (e *Engine) render(ds *datasource, p *planned) (string, error) {
	c := p.memo
	if c == nil || p.plan != c.v.Plan || c.ds.Value() != ds {
		return e.renderRows(ds, p, ds.spec.RowLimit)
	}
	c.mu.Lock()
	sql := c.sql
	c.mu.Unlock()
	if sql != "" {
		return sql, nil
	}
	sql, err := e.renderRows(ds, p, ds.spec.RowLimit)
	if err == nil {
		c.mu.Lock()
		c.sql = sql
		c.mu.Unlock()
	}
	return sql, err
}

// renderRows renders a validated plan in the datasource's dialect for a
// run that returns at most rows rows (a combination's source reads more
// than a client is sent: multi.SourceRows).
func (e *Engine) renderRows(ds *datasource, p *planned, rows int) (string, error) {
	d, ok := render.LookupFlavor(ds.src.Dialect(), ds.spec.Flavor)
	if !ok {
		return "", Errorf(CodeInternal, "", "no renderer for dialect %q (flavor %q)", ds.src.Dialect(), ds.spec.Flavor)
	}
	if f, ok := ds.src.(caseFolder); ok {
		d = render.WithFold(d, f.FoldCollation())
	}
	return renderWith(p, d, rows)
}

// caseFolder is an adapter whose database folds letters beyond A-Z only
// under a collation it names (PostgreSQL under LC_CTYPE C).
type caseFolder interface{ FoldCollation() string }

// renderIn renders a validated plan in dialect d with the datasource's
// row limit (plan checks may ask for another dialect than the
// datasource's).
func (e *Engine) renderIn(ds *datasource, p *planned, d render.Dialect) (string, error) {
	return renderWith(p, d, ds.spec.RowLimit)
}

// renderWith renders a validated plan in dialect d, reading one row more
// than rows to tell a full result from a cut one.
func renderWith(p *planned, d render.Dialect, rows int) (string, error) {
	sql, err := render.SQL(p.plan, d, render.Options{MaxRows: int64(rows) + 1})
	if err != nil {
		return "", &Error{Code: CodeInternal, Msg: "a validated plan failed to render: " + err.Error(), Err: err}
	}
	return sql, nil
}
