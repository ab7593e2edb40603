package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"github.com/nl2sql/nl2sql/engine/result"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/engine/hooks"
	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/source"
)

// MaxQuestionBytes bounds a question's size.
const MaxQuestionBytes = 4096

// AskRequest is one question, optionally pinned to a datasource.
type AskRequest struct {
	Question   string
	Datasource string
}

// checkQuestion trims and vets a question.
func checkQuestion(q string) (string, error) {
	q = strings.TrimSpace(q)
	switch {
	case q == "":
		return "", Errorf(CodeInvalidRequest, "ask a question in words, e.g. \"How many customers are there in each country?\"", "the question is empty")
	case len(q) > MaxQuestionBytes:
		return "", Errorf(CodeInvalidRequest, "shorten the question", "the question is %d bytes; the limit is %d", len(q), MaxQuestionBytes)
	case !utf8.ValidString(q):
		return "", Errorf(CodeInvalidRequest, "send the question as UTF-8 text", "the question is not valid UTF-8")
	case strings.ContainsRune(q, 0):
		return "", Errorf(CodeInvalidRequest, "remove the NUL character (U+0000) from the question", "the question holds a NUL character (U+0000), which no database text may hold")
	}
	return q, nil
}

// withDeadline applies the engine's global request timeout.
func (e *Engine) withDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, e.opts.RequestTimeout)
}

// Ask answers a question: resolve the datasource, build the schema context,
// plan (with bounded repair), validate, render, execute, summarise. Each
// step reads the previous step's output value. The whole request is bounded
// by Options.RequestTimeout, down to the database query. Errors are *Error.
func (e *Engine) Ask(ctx context.Context, req AskRequest) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	sw := newStopwatch()
	var tm Timings
	q, err := checkQuestion(req.Question)
	if err != nil {
		return nil, err
	}
	today := e.opts.Today()
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: redact(q), Today: today}}
	ctx = e.startRun(withTrace(ctx, tr), "ask", tr)
	defer func() {
		tr.T.Timings = tm
		if res != nil && res.HostPlan != nil {
			tr.T.PlanSource = "host"
		} else if res != nil {
			tr.T.Timings = res.Timings
			tr.T.SQL, tr.T.RowCount, tr.T.PlanSource = res.SQL, res.RowCount, res.SubQueries[0].PlanSource
		}
		e.writeTrace(tr, err)
		e.runFinished(ctx, "ask", tr, res, err)
	}()
	if ctx, q, err = e.runStarted(ctx, "ask", q, tr); err != nil {
		return nil, err
	}
	ctx = progress(ctx, "resolve")
	if req.Datasource == "" && len(e.specs) > 1 { // several datasources, none named (engine/multi.go)
		mres, one, work, merr := e.asker(tr, today).Ask(ctx, q, today, tr.T.ID, sw, &tm)
		if reason, ok := e.handsOver(merr); ok && one == "" {
			// no resolver model: the ranking picks, or the host does (host_plan.go)
			pick, cands, scores, herr := hostplan.Resolve(ctx, hostResolver{e, tr}, q)
			if herr != nil {
				return nil, herr
			}
			if pick == "" {
				return hostResult(q, hostplan.Candidates(ctx, q, today, reason, tr.T.ID, cands, scores, e.opts.ResultTokens), tr), nil
			}
			one, merr = pick, nil
		}
		if one == "" {
			return mres, merr
		}
		req.Datasource = one // the resolver picked one datasource: answer as usual
		defer func() { addWork(res, work) }()
	}
	ds, err := e.resolveOne(ctx, req.Datasource, q, tr)
	if err != nil {
		return nil, err
	}
	if err := e.screen(ctx, ds, q); err != nil {
		return nil, err
	}
	tm.Resolve = sw.Lap()
	if e.opts.Curated != nil {
		ctx = stepSpan(ctx, "verified")
	}
	if res, ok, err := e.verified(ctx, ds, q, today, sw, &tm, tr); ok || err != nil {
		return res, err
	}
	ctx = progress(ctx, "retrieve")
	if e.hostMode { // no planner: the host plans (host_plan.go)
		return e.hostPlan(ctx, ds, q, today, HostReasonNoPlanner, tr), nil
	}
	// a cached plan needs no schema context: retrieval (and its fuzzy
	// value matching) runs on a miss only; the hit is validated again for
	// this caller and the current snapshot (cachedPlan)
	cached := e.cachedPlan(ctx, ds, q, today)
	sctx := ""
	if cached == nil {
		sctx = e.retrieve(ctx, ds, q)
	}
	tm.Retrieve = sw.Lap()
	ctx = progress(ctx, "plan")
	planned, scale, err := cached, (*ScaleReport)(nil), error(nil)
	if cached == nil {
		planned, scale, err = e.planMaybeScaled(ctx, ds, q, sctx, today) // test-time scaling (engine/scale.go)
	}
	if planned != nil {
		tr.T.Rejected = planned.rejected
	}
	if reason, ok := e.handsOver(err); ok && ctx.Err() == nil && (planned == nil || len(planned.rejected) == 0) {
		return e.hostPlan(ctx, ds, q, today, reason, tr), nil
	}
	if err != nil {
		return nil, deadline(ctx, err)
	}
	tm.Plan, tm.Model = sw.Lap(), planned.modelMS
	ctx = progress(ctx, "render")
	res, err = e.finish(ctx, ds, q, today, planned, sw, &tm, tr)
	return res.WithScaling(scale), err
}

// resultWarnings are what a plan's rows may mean other than they seem
// (warnings.Of over the profile the caller may learn of, those of its
// warnings the rows it reads may make wrong probed (rewordProbes: the
// currencies where it filters or groups, the copies where its where
// filters their table, the rows a flag of test records it never reads
// marks, MIN and MAX of numbers written as text), the
// probes of casts that read values as NULL, of values apart from a
// rating's scale, of a HAVING that kept nothing and of a limit that cut
// ties): the same for a plan on one datasource and for each source of a
// combined one.
func (e *Engine) resultWarnings(ctx context.Context, ds *datasource, p *planned, rows [][]any) []string {
	plan := p.plan
	seen := e.caller(ctx).FilterSnapshot(ds.snap) // what the caller may learn of the profile
	snap, stored := e.emptyNoMore(ctx, ds, seen, plan), e.retrieval(ctx, ds).StoredValues()
	out := warnings.Of(snap, ds.src.Dialect(), plan, warnings.Run{Rows: rows, Stored: stored, Static: p.staticWarnings(ds, snap, stored)})
	out = e.rewordProbes(ctx, ds, out, warningProbes(snap, plan, stored))
	out = append(out, e.castProbes(ctx, ds, seen, plan)...)
	out = append(out, e.sentinelProbes(ctx, ds, seen, plan)...)
	if len(rows) == 0 {
		if w := e.havingProbe(ctx, ds, plan); w != "" {
			out = append(out, w)
		}
	}
	if w := e.tieProbe(ctx, ds, plan, len(rows)); w != "" {
		out = append(out, w)
	}
	return out
}

// finish renders, executes and summarises a validated plan; Ask and RunPlan
// share it.
func (e *Engine) finish(ctx context.Context, ds *datasource, q, today string, planned *planned, sw *stopwatch, tm *Timings, tr *traceRec) (*Result, error) {
	var sql string
	var rows *source.Result
	if r := planned.ran; r != nil {
		// a scaling winner passed the hooks up to after_execution and ran
		// once, as a candidate (engine/scale): it is not run again
		sql, rows = r.sql, r.rows
		tm.Execute = r.execMS
	} else {
		var err error
		if planned, sql, rows, err = e.gateAndRun(ctx, ds, q, planned, sw, tm, tr); err != nil {
			return nil, err
		}
	}
	ctx = progress(ctx, "answer")
	e.storePlan(ctx, ds, q, today, planned)
	res := &Result{
		Question:    q,
		Columns:     rows.Columns,
		ColumnTypes: rows.ColumnTypes,
		Rows:        rows.Rows,
		RowCount:    len(rows.Rows),
		Truncated:   rows.Truncated,
		SQL:         sql,
		Plan:        planned.plan,
		Usage:       planned.usage,
		Warnings:    append([]string{}, planned.warnings...),
		SubQueries: []SubQuery{{
			ID: subQueryID(ds.spec.ID, q, sql), Datasource: ds.spec.ID, Dialect: ds.src.Dialect(), Intent: q,
			Plan: planned.plan, SQL: sql, PlanSource: planned.source, Reasoning: planned.reasoning,
			Attempts: planned.attempts, RowCount: len(rows.Rows), Truncated: rows.Truncated,
			Definitions: ds.sem.Used(planned.planner),
		}},
		TraceID: tr.T.ID,
	}
	if res.Rows == nil {
		res.Rows = [][]any{}
	}
	if rows.Truncated {
		res.Warnings = append(res.Warnings, warnings.RowLimit(planned.plan, ds.spec.RowLimit))
	}
	res.Warnings = append(e.fanoutProbes(ctx, ds, planned.plan, res.Warnings), e.resultWarnings(ctx, ds, planned, res.Rows)...)
	res.SQLNotes = warnings.SQLNotes(ds.src.Dialect(), planned.plan)
	res.Answer = e.modelAnswer(ctx, ds.spec.ID, res)
	if err := e.resultHook(ctx, hooks.AfterAnswer, ds, q, planned, res.Columns, res.RowCount, res.Truncated, res.Answer, tr); err != nil {
		return nil, err
	}
	tm.Answer = sw.Lap()
	tm.Total = sw.Total()
	res.Timings = *tm
	return res, nil
}

// gateAndRun passes a plan through the after_planning hooks (a changed
// plan is what runs), renders it, passes the before_execution hooks, runs
// it read-only and passes its result's shape through the after_execution
// hooks.
func (e *Engine) gateAndRun(ctx context.Context, ds *datasource, q string, p *planned, sw *stopwatch, tm *Timings, tr *traceRec) (*planned, string, *source.Result, error) {
	p, err := e.afterPlanning(ctx, ds, q, p, tr)
	if err != nil {
		return nil, "", nil, err
	}
	sql, err := e.render(ds, p)
	if err != nil {
		return nil, "", nil, err
	}
	if tr != nil {
		// a run that fails (a timeout, an engine's error) leaves its
		// trace the SQL it sent, for the operator to read and run by hand
		tr.T.SQL = sql
	}
	tm.Render = sw.Lap()
	if err := e.beforeExecution(ctx, ds, q, p, sql, tr); err != nil {
		return nil, "", nil, err
	}
	ctx = progress(ctx, "execute")
	rows, err := e.execute(ctx, ds, sql)
	if err != nil {
		return nil, "", nil, slowPlan(deadline(ctx, err), p.plan)
	}
	result.Typed(rows, p.plan, p.types, ds.snap)
	tm.Execute = sw.Lap()
	if err := e.resultHook(ctx, hooks.AfterExecution, ds, q, p, rows.Columns, len(rows.Rows), rows.Truncated, "", tr); err != nil {
		return nil, "", nil, err
	}
	return p, sql, rows, nil
}

// subQueryID is a content hash of the datasource, the normalised intent
// and the SQL that ran, when given: every plan a client supplies has one
// intent, and ids alike for different queries told a tracer nothing.
func subQueryID(datasource, intent string, sql ...string) string {
	h := sha256.New()
	h.Write([]byte(datasource + "\x00" + strings.ToLower(strings.Join(strings.Fields(intent), " "))))
	for _, s := range sql {
		h.Write([]byte("\x00" + s))
	}
	return "sq_" + hex.EncodeToString(h.Sum(nil)[:6])
}

// deadline turns an error caused by the request's own deadline into TIMEOUT.
func deadline(ctx context.Context, err error) error { return fault.Deadline(ctx, err) }
