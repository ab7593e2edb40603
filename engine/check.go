package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// PlanCheck is the outcome of checking a supplied plan: the validated plan,
// its output columns, and the SQL it renders to.
type PlanCheck struct {
	Datasource string         `json:"datasource"`
	Dialect    string         `json:"dialect"`
	Plan       *planast.Query `json:"plan"`
	Columns    []string       `json:"columns"`
	Types      []planast.Type `json:"column_types"`
	SQL        string         `json:"sql"`
}

// CheckPlan decodes, validates and renders a plan document against the
// datasource's snapshot, for dialect (empty: the datasource's own). Nothing
// runs. A refused plan is an *Error with CodePlanInvalid and its Issues.
func (e *Engine) CheckPlan(ctx context.Context, datasource string, doc []byte, dialect string) (*PlanCheck, error) {
	ds, err := e.resolve(ctx, datasource)
	if err != nil {
		return nil, err
	}
	d, ok := render.Lookup(dialect)
	if dialect == "" {
		dialect = ds.src.Dialect()
		if d, ok = render.LookupFlavor(dialect, ds.spec.Flavor); ok {
			dialect = d.Name()
		}
	}
	if !ok {
		return nil, Errorf(CodeInvalidRequest, fmt.Sprintf("use one of %v", render.Names()), "unknown dialect %q", dialect)
	}
	plan, err := planast.Decode(doc, planast.DefaultLimits)
	if err == nil {
		var v *planast.Validated
		if v, err = e.validateFor(ctx, ds, plan); err == nil {
			sql, rerr := render.SQL(v.Plan, d, render.Options{MaxRows: int64(ds.spec.RowLimit)})
			if rerr != nil {
				return nil, &Error{Code: CodeInternal, Msg: "a validated plan failed to render: " + rerr.Error(), Err: rerr}
			}
			return &PlanCheck{Datasource: ds.spec.ID, Dialect: dialect, Plan: v.Plan, Columns: v.Columns, Types: v.Types, SQL: sql}, nil
		}
	}
	var pe *planast.Error
	if errors.As(err, &pe) {
		return nil, &Error{Code: CodePlanInvalid, Msg: pe.Error(), Issues: pe.Issues, Hint: "fix the listed issues; each names the path in the plan", Err: err}
	}
	return nil, AsError(err)
}

// snapshot returns the datasource's whole schema snapshot (introspected
// and profiled on first use); callers outside the engine get
// VisibleSnapshot, filtered for the caller.
func (e *Engine) snapshot(ctx context.Context, datasource string) (*schema.Snapshot, error) {
	ds, err := e.resolve(ctx, datasource)
	if err != nil {
		return nil, err
	}
	return ds.snap, nil
}

// VisibleSnapshot returns the datasource's snapshot as the caller may see
// it: hidden tables and columns (and keys naming them) removed.
func (e *Engine) VisibleSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, error) {
	if datasource == "" {
		return nil, Errorf(CodeInvalidRequest, "name a datasource from list_datasources", "a datasource is required")
	}
	ds, err := e.resolve(ctx, datasource)
	if err != nil {
		return nil, err
	}
	sc := e.caller(ctx)
	visible := sc.FilterSnapshot(ds.snap)
	if ds.sem != nil && !sc.Unrestricted() {
		// comments name only the definitions the caller may see
		visible = ds.sem.Describe(visible, semantic.Allow(sc.Reader(ds.spec.ID)))
	}
	return visible, nil
}
