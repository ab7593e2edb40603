package engine

import (
	"context"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/verified"
)

// Questions across datasources: engine/multi walks them (its doc.go walks
// one, and says what the Result then holds); Ask hands it the question
// when several datasources are configured and none is named, and
// subquery.go implements the multi.Host it walks over.

// Error codes of cross-datasource questions.
const (
	// CodeNotAnswerable: the resolver found no datasource for the question.
	CodeNotAnswerable = multi.CodeNotAnswerable
	// CodeDecompositionInvalid: the decomposition failed its checks after
	// every repair attempt (or, supplied, at once).
	CodeDecompositionInvalid = multi.CodeDecompositionInvalid
)

// asker is the walk of a question across datasources (engine/multi)
// over this run's steps.
func (e *Engine) asker(tr *traceRec, today string) multi.Asker {
	return multi.Asker{Host: &multiHost{e: e, tr: tr, today: today}, Model: e.opts.Planner, MaxRepairs: e.opts.MaxRepairs,
		Timeout: e.opts.RequestTimeout, Log: e.log}
}

// addWork adds the model work of the cross-datasource steps to a result
// answered on the single-datasource path (nil-safe).
func addWork(res *Result, w multi.Usage) {
	if res != nil {
		res.Usage.Add(w.Result())
		res.Timings.Model += w.ModelMS
	}
}

// RunDecomposition answers a question with a decomposition supplied by the
// client (a DecomposeAnswer document) instead of the decomposer: checked
// like the decomposer's (no repair), every sub-query's datasource reached
// or the run is refused before any model call, then each sub-query is
// planned by the planner and the results combined as for Ask. Errors are
// *Error; a refused decomposition is CodeDecompositionInvalid with Issues.
func (e *Engine) RunDecomposition(ctx context.Context, question string, doc []byte) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	sw := newStopwatch()
	var tm Timings
	q, err := checkQuestion(question)
	if err != nil {
		return nil, err
	}
	today := e.opts.Today()
	tr := &traceRec{T: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: redact(q), Today: today, PlanSource: "supplied"}}
	ctx = e.startRun(withTrace(ctx, tr), "run_decomposition", tr)
	defer func() {
		tr.T.Timings = tm
		if res != nil {
			tr.T.Timings, tr.T.SQL, tr.T.RowCount = res.Timings, res.SQL, res.RowCount
		}
		e.writeTrace(tr, err)
		finishRun(ctx, res, err)
	}()
	ctx = stepSpan(ctx, "resolve")
	ans, offered, err := multi.Supplied(doc)
	if err != nil {
		return nil, err
	}
	for _, id := range offered {
		if _, known := e.specs[id]; !known || !e.reaches(ctx, id) {
			// exactly the answer for an unknown id, before any model call
			return nil, e.noDatasource(ctx, id)
		}
	}
	tr.T.Datasource = strings.Join(offered, ",")
	tm.Resolve = sw.Lap()
	dec, issues := multi.Check(ans, offered)
	if issues != nil {
		tr.T.Rejected = []Attempt{{Attempt: 1, Issues: issues}}
		return nil, multi.Invalid(issues, "the decomposition is invalid")
	}
	tm.Plan = sw.Lap()
	return e.asker(tr, today).Run(ctx, q, dec, multi.Usage{}, tr.T.ID, sw, &tm)
}

type reachKey struct{}

// withReach narrows reaches for requests under ctx to the datasources f
// allows (tests, and callers that decide access before the engine does).
// It can only narrow: the caller's scope is asked as well.
func withReach(ctx context.Context, f func(datasource string) bool) context.Context {
	return context.WithValue(ctx, reachKey{}, f)
}

// reaches reports whether the caller may use datasource id at all: the
// caller's scope reaches it (scope.Scope.Reaches) and no withReach narrowing
// refuses it. It is asked for every candidate before any model call, and
// again for every sub-query's datasource before it is planned; an unreached
// datasource is treated exactly as an unknown one.
func (e *Engine) reaches(ctx context.Context, id string) bool {
	if f, ok := ctx.Value(reachKey{}).(func(string) bool); ok && !f(id) {
		return false
	}
	return e.caller(ctx).Reaches(id)
}

// candidates ranks every datasource the caller reaches (multi.Shortlist),
// opening each to read its table names; those that cannot be opened are
// ranked by their description (and logged). No model call happens here.
func (e *Engine) candidates(ctx context.Context, question string) ([]multi.Candidate, error) {
	var all []multi.Candidate
	for _, id := range e.DatasourceIDs() {
		if !e.reaches(ctx, id) {
			continue
		}
		c := multi.Candidate{ID: id, Description: e.specs[id].Description, Tables: []string{}}
		if ds, err := e.datasource(ctx, id); err != nil {
			e.log.Warn("datasource offered to the resolver by its description only", "datasource", id, "err", err)
		} else {
			visible := e.caller(ctx).FilterSnapshot(ds.snap).Tables
			c.Tables, c.Columns = multi.TableNames(visible), multi.TableColumnNames(visible)
			c.Values = verified.NamedValues(ctx, ds.idx, question, e.caller(ctx).Reader(id))
		}
		all = append(all, c)
	}
	if len(all) == 0 {
		return nil, Errorf(CodeDatasourceNotFound, "list_datasources shows the datasources you can use", "no datasource you may use is configured")
	}
	return multi.Shortlist(question, all), nil
}
