package engine

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// render turns a validated plan into the datasource's SQL. The LIMIT is the
// row limit plus one probe row, so execution can tell a full result from a
// truncated one.
func (e *Engine) render(ds *datasource, p *planned) (string, error) {
	return e.renderRows(ds, p, ds.spec.RowLimit)
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
	if err := unavailableIn(p.plan, d.Name()); err != nil {
		return "", err
	}
	return renderWith(p, d, ds.spec.RowLimit)
}

// unavailableIn refuses, as validation refuses it on a datasource of that
// engine, a plan that calls a function dialect cannot compute
// (planast.Unavailable): the plan was validated for its own datasource's
// engine, so such a call would otherwise reach the renderer and come back
// as an internal error.
func unavailableIn(plan *planast.Query, dialect string) error {
	var issues []planast.Issue
	planast.Inspect(plan, func(n planast.Node) bool {
		if f, ok := n.(*planast.Func); ok {
			if why, hint, ok := planast.Unavailable(f.Name, dialect); ok {
				issues = append(issues, planast.Issue{Code: planast.CodeFunction, Message: fmt.Sprintf("%s is not available on %s: %s", f.Name, dialect, why), Hint: hint})
			}
		}
		return true
	})
	if issues == nil {
		return nil
	}
	pe := &planast.Error{Issues: issues}
	return &Error{Code: CodePlanInvalid, Msg: pe.Brief(), Issues: issues, Err: pe}
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
