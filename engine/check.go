package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/planning"
	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

// PlanCheck is the outcome of checking a supplied plan without running it:
// the validated plan, its output columns and types, and the SQL run_plan
// would run for it.
type PlanCheck struct {
	Datasource string         `json:"datasource"`
	Dialect    string         `json:"dialect"`
	Plan       *planast.Query `json:"plan"`
	Columns    []string       `json:"columns"`
	Types      []planast.Type `json:"column_types"`
	SQL        string         `json:"sql"`
	// Definitions lists the semantic layer's metrics and filters the plan
	// named; Plan and SQL hold their expansions.
	Definitions []planast.Used `json:"definitions,omitempty"`
	// Warnings say what a run could still do differently: the execution
	// hooks, which only a run reaches; and what a run would warn of before
	// reading a row (warnings.Static).
	Warnings []string `json:"warnings"`
	// SQLNotes: as a run's (result.Result.SQLNotes), and the row limit
	// when a run could be cut by it.
	SQLNotes []string `json:"sql_notes"`
}

// suppliedQuestion stands for the question of a run over a supplied plan in
// traces, hooks and events.
const suppliedQuestion = "(supplied plan)"

// supplied resolves the datasource of a supplied plan (with the
// after_resolution hooks) and decodes and validates the plan for the
// caller. RunPlan and CheckPlan share it, so a plan check answers exactly
// what a run would up to execution. A refused plan is an *Error with
// CodePlanInvalid and typed issues. tm.Resolve gets the time up to the
// resolved datasource (opening and profiling it on first use, the hooks),
// so the caller's next lap is decoding and validating alone.
func (e *Engine) supplied(ctx context.Context, datasource string, doc []byte, tr *traceRec, sw *stopwatch, tm *Timings) (*datasource, *planned, error) {
	ctx = stepSpan(ctx, "resolve")
	ds, err := e.resolveOne(ctx, datasource, suppliedQuestion, tr)
	if err != nil {
		return nil, nil, err
	}
	tm.Resolve = sw.Lap()
	ctx = stepSpan(ctx, "plan") // the client's plan: decoded and validated
	v, plan, memo, err := e.validateDoc(ctx, ds, doc)
	current := false // validated against the schema as it is now
	if pe := (*planast.Error)(nil); errors.As(err, &pe) && notFound(pe) {
		// what the plan names may be newer than the last schema check:
		// read the version now, once for this call
		if fresh, moved, ferr := e.recheck(ctx, ds); ferr == nil {
			// the version as read, or a renewal that has finished: a
			// renewal still running keeps the plan early, not wrong
			current = !moved || fresh != ds
			if fresh != ds {
				ds = fresh
				v, plan, memo, err = e.validateDoc(ctx, ds, doc)
			}
		}
	}
	if err != nil {
		var pe *planast.Error
		if errors.As(err, &pe) {
			tr.T.Rejected = []Attempt{{Attempt: 1, Issues: pe.Issues}}
			hint := planning.SuppliedHint(doc)
			if w := e.elsewhereHint(ctx, ds, plan); w != "" {
				hint = w
			}
			// a renewal that only counts rows (a restart that presumed its
			// stored schema) changes no name: a plan checked against the
			// current version is wrong, not early
			renewing := notFound(pe) && !current && e.sources.Renewing(ds.spec.ID)
			if renewing {
				hint = "the datasource's schema changed since it was read and is being read again: send the plan again in a few seconds"
			}
			return ds, nil, &Error{Code: CodePlanInvalid, Msg: pe.Brief(), Issues: pe.Issues, Hint: hint, Retryable: renewing, Err: err}
		}
		return nil, nil, AsError(err)
	}
	// validation leaves the decoded plan as it was (it returns its
	// expansion as v.Plan): what it names of the semantic layer is reported
	p := &planned{plan: v.Plan, columns: v.Columns, types: v.Types, source: "supplied", attempts: 0, warnings: v.Warnings, planner: plan, memo: memo}
	return ds, p, nil
}

// CheckPlan decodes, validates and renders a supplied plan exactly as
// RunPlan would — the caller's access and row filters, the before_run,
// after_resolution and after_planning hooks (a changed plan is what it
// shows) — and runs nothing: like Explain it stops after rendering. dialect
// renders for another dialect (empty: the datasource's own, giving the SQL
// a run would execute). A refused plan is an *Error with CodePlanInvalid
// and its Issues, returned with a PlanCheck that names the datasource
// and dialect it was checked for (the caller may have named neither), its
// other fields empty.
func (e *Engine) CheckPlan(ctx context.Context, datasource string, doc []byte, dialect string) (pc *PlanCheck, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: suppliedQuestion, Today: e.opts.Today(), PlanSource: "supplied"}}
	ctx = e.startRun(ctx, "check_plan", tr)
	defer func() { e.runFinished(ctx, "check_plan", tr, nil, err) }()
	if ctx, err = e.runStartedFixed(ctx, "check_plan", suppliedQuestion, tr); err != nil {
		return nil, err
	}
	var d render.Dialect
	if dialect != "" {
		var ok bool
		if d, ok = render.Lookup(dialect); !ok {
			return nil, Errorf(CodeInvalidRequest, fmt.Sprintf("use one of %v", render.Names()), "unknown dialect %q", dialect)
		}
	}
	ds, p, err := e.supplied(ctx, datasource, doc, tr, newStopwatch(), &Timings{})
	if d == nil && ds != nil {
		dialect = ds.src.Dialect()
		if own, ok := render.LookupFlavor(dialect, ds.spec.Flavor); ok {
			dialect = own.Name()
		}
	}
	if err != nil {
		if ds != nil && AsError(err).Code == CodePlanInvalid {
			return &PlanCheck{Datasource: ds.spec.ID, Dialect: dialect, Columns: []string{}, Types: []planast.Type{}, Warnings: []string{}, SQLNotes: []string{}}, err
		}
		return nil, err
	}
	if p, err = e.afterPlanning(ctx, ds, suppliedQuestion, p, tr); err != nil {
		return nil, err
	}
	var sql string
	ctx = stepSpan(ctx, "render")
	if d == nil {
		if sql, err = e.render(ds, p); err != nil {
			return nil, err
		}
	} else if sql, err = e.renderIn(ds, p, d); err != nil {
		return nil, err
	}
	ws := append([]string{}, p.warnings...)
	notes := warnings.SQLNotes(dialect, p.plan)
	if lim := p.plan.Limit; (lim == nil || *lim > int64(ds.spec.RowLimit) || p.plan.WithTies) && !warnings.OneRow(p.plan) {
		// a plan's own limit at or under the row limit cannot be cut (ties
		// aside), nor can an aggregate without groups: it is one row. It
		// explains the SQL's LIMIT; it says nothing wrong of the plan, so
		// it is a note, not a warning (a warning a host learns to skip
		// hides the ones that matter)
		notes = append(notes, fmt.Sprintf("a run returns at most %d rows (the datasource's row limit); the SQL reads one more to tell a full result from a cut one", ds.spec.RowLimit))
	}
	// what a run would warn of before any row is read
	ws = append(ws, warnings.Static(e.caller(ctx).FilterSnapshot(ds.snap), dialect, p.plan, e.retrieval(ctx, ds).StoredValues())...)
	if e.opts.Hooks.Has(hooks.BeforeExecution) || e.opts.Hooks.Has(hooks.AfterExecution) || e.opts.Hooks.Has(hooks.AfterAnswer) {
		ws = append(ws, "rules that act when a plan runs (before_execution, after_execution, after_answer) were not consulted: a run may still be refused or need approval")
	}
	if notes == nil {
		notes = []string{} // the key is always there: a check's shape does not vary
	}
	return &PlanCheck{Datasource: ds.spec.ID, Dialect: dialect, Plan: p.plan, Columns: p.columns, Types: p.types, SQL: sql,
		Definitions: ds.sem.Used(p.planner), Warnings: ws, SQLNotes: notes}, nil
}

// VisibleSnapshot returns the datasource's snapshot as the caller may see
// it: hidden tables and columns (and keys naming them) removed.
func (e *Engine) VisibleSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, error) {
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

// HintSQLText is the hint for SQL text sent as a plan (engine/planning);
// the command line adds its own lifting command to it.
const HintSQLText = planning.HintSQLText

// notFound reports whether a refused plan names a table or column the
// snapshot lacks, which a schema read again may hold.
func notFound(pe *planast.Error) bool {
	for _, is := range pe.Issues {
		if is.Code == planast.CodeTableNotFound || is.Code == planast.CodeColumnNotFound {
			return true
		}
	}
	return false
}
