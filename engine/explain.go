package engine

import (
	"context"
	"time"

	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/planast"
)

// Explanation shows how a question would be answered, with nothing run:
// the schema context retrieved, every refused planning attempt with its
// typed issues, the validated plan and the SQL.
type Explanation struct {
	Question   string         `json:"question"`
	Datasource string         `json:"datasource"`
	Dialect    string         `json:"dialect"`
	Tables     []string       `json:"tables"` // tables in the schema context, in prompt order
	Reasoning  string         `json:"reasoning"`
	Plan       *planast.Query `json:"plan"`
	Columns    []string       `json:"columns"`
	Types      []planast.Type `json:"column_types"`
	SQL        string         `json:"sql"`
	PlanSource string         `json:"plan_source"`
	Rejected   []Attempt      `json:"rejected_attempts"`
	Usage      Usage          `json:"usage"`
}

// Explain plans, validates and renders a question without executing it.
// It passes the same gates as Ask up to rendering: the before_run and
// after_resolution hooks and the access screen before any model call, the
// after_planning hooks on the plan (a changed plan is what it shows);
// nothing runs, so the execution points are not reached.
func (e *Engine) Explain(ctx context.Context, req AskRequest) (ex *Explanation, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	q, err := checkQuestion(req.Question)
	if err != nil {
		return nil, err
	}
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: redact(q), Today: e.opts.Today()}}
	ctx = e.startRun(withTrace(ctx, tr), "explain", tr)
	defer func() { e.runFinished(ctx, "explain", tr, nil, err) }()
	if ctx, q, err = e.runStarted(ctx, "explain", q, tr); err != nil {
		return nil, err
	}
	if e.hostMode {
		// nothing here can plan: said before any datasource is asked for,
		// which a host would name only to hear this next
		return nil, hostplan.ErrNoPlanner
	}
	ctx = stepSpan(ctx, "resolve")
	ds, err := e.resolveOne(ctx, req.Datasource, q, tr)
	if err != nil {
		return nil, err
	}
	if err := e.screen(ctx, ds, q); err != nil {
		return nil, err
	}
	ctx = stepSpan(ctx, "retrieve")
	sctx := e.retrieve(ctx, ds, q)
	ctx = stepSpan(ctx, "plan")
	p, err := e.planValidated(ctx, ds, q, sctx, e.opts.Today())
	if err != nil {
		return nil, deadline(ctx, err)
	}
	if p, err = e.afterPlanning(ctx, ds, q, p, tr); err != nil {
		return nil, err
	}
	ctx = stepSpan(ctx, "render")
	sql, err := e.render(ds, p)
	if err != nil {
		return nil, err
	}
	rejected := p.rejected
	if rejected == nil {
		rejected = []Attempt{}
	}
	return &Explanation{
		Question: q, Datasource: ds.spec.ID, Dialect: ds.src.Dialect(), Tables: schemactx.ContextTables(sctx),
		Reasoning: p.reasoning, Plan: p.plan, Columns: p.columns, Types: p.types, SQL: sql,
		PlanSource: p.source, Rejected: rejected, Usage: p.usage,
	}, nil
}
