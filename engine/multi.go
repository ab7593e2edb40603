package engine

import (
	"context"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/planast"
)

// Questions across datasources (engine/multi's doc.go walks one). With
// several datasources configured and none named, Ask hands the question to
// askMulti: the caller's reachable datasources are shortlisted
// (multi.Shortlist) and one picked by the resolver (multi.Pick); one
// picked, Ask answers as usual; several, the decomposer splits the question
// (multi.Decomposer), each sub-query runs the single-datasource steps
// (runSub, subquery.go) layer by layer (multi.RunLayers), and the rows are
// combined in DuckDB (multi.Combine).
//
// The Result then has the combined rows and columns at the top, Plan the
// validated combination plan over the sub-query tables, SQL the DuckDB SQL
// that combined them (not a datasource's SQL: each sub-query's own SQL is
// in sub_queries), sub_queries every sub-query sorted by id, and warnings
// for failed or truncated sub-queries and unconverted values. It is
// byte-identical across runs apart from timings and trace_id. A sub-query
// that fails leaves its table empty: the answer says it is partial, and a
// run where every sub-query fails is that error.

// Error codes of cross-datasource questions.
const (
	// CodeNotAnswerable: the resolver found no datasource for the question.
	CodeNotAnswerable = multi.CodeNotAnswerable
	// CodeDecompositionInvalid: the decomposition failed its checks after
	// every repair attempt (or, supplied, at once).
	CodeDecompositionInvalid = multi.CodeDecompositionInvalid
)

// The decomposition document (engine/multi) keeps its engine names: they
// are the supplied-decomposition and recording formats.
type (
	DecomposeAnswer = multi.Answer
	SubQuerySpec    = multi.SubQuerySpec
	CombineSpec     = multi.CombineSpec
	InputSpec       = multi.InputSpec
	ResolveAnswer   = multi.ResolveAnswer
)

// Issue codes of a refused decomposition (engine/multi).
const (
	IssueSQL        = multi.IssueSQL
	IssueUnresolved = multi.IssueUnresolved
	IssueCycle      = multi.IssueCycle
	IssueCombine    = multi.IssueCombine
	IssueUnused     = multi.IssueUnused
	IssueDatasource = multi.IssueDatasource
	IssueDuplicate  = multi.IssueDuplicate
)

// multiUsage is the model work of a cross-datasource step that Ask adds to
// a result answered on the single-datasource path.
type multiUsage struct {
	usage   Usage
	modelMS float64
}

// addModel counts a cross-datasource step's model work.
func (m *multiUsage) addModel(u multi.Usage) {
	m.usage.Add(Usage{ModelCalls: u.Calls, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens})
	m.modelMS += u.ModelMS
}

// add adds the work to res (nil-safe).
func (m multiUsage) add(res *Result) {
	if res != nil {
		res.Usage.Add(m.usage)
		res.Timings.Model += m.modelMS
	}
}

// askMulti answers a question when several datasources are configured and
// none is named. When the resolver picks one datasource it returns that
// id, and the work spent, for Ask to answer as usual; otherwise the result.
func (e *Engine) askMulti(ctx context.Context, q, today string, tr *traceRec, sw *stopwatch, tm *Timings) (*Result, string, multiUsage, error) {
	var work multiUsage
	cands, err := e.candidates(ctx, q)
	if err != nil {
		return nil, "", work, deadline(ctx, err)
	}
	if len(cands) == 1 { // one datasource reached: no resolver call, as with one configured
		return nil, cands[0].ID, work, nil
	}
	ids, usage, err := multi.Pick(ctx, e.opts.Planner, q, today, cands, e.traceModelCall)
	work.addModel(usage)
	if err != nil {
		return nil, "", work, deadline(ctx, err)
	}
	if len(ids) > 1 { // one datasource: Ask runs after_resolution on it
		if ids, err = e.resolved(ctx, q, ids, tr); err != nil {
			return nil, "", work, err
		}
		if len(ids) == 0 {
			return nil, "", work, Errorf(CodeRefusedByRule, "ask your administrator", "a rule left no datasource to answer from")
		}
	}
	tr.t.Datasource = strings.Join(ids, ",")
	if len(ids) == 1 {
		return nil, ids[0], work, nil
	}
	var picked []*datasource
	for _, id := range ids {
		ds, err := e.datasource(ctx, id)
		if err != nil {
			return nil, "", work, err
		}
		picked = append(picked, ds)
	}
	tm.Resolve = sw.Lap()
	ctx = progress(ctx, "plan")
	dec, usage, err := e.decompose(ctx, q, today, picked, tr)
	work.addModel(usage)
	if err != nil {
		return nil, "", work, deadline(ctx, err)
	}
	tm.Plan = sw.Lap()
	res, err := e.runDecomposition(ctx, q, today, dec, work, sw, tm, tr)
	return res, "", work, err
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
	tr := &traceRec{t: Trace{ID: newTraceID(), CreatedAt: time.Now().UTC(), Question: redact(q), Today: today, PlanSource: "supplied"}}
	ctx = e.startRun(withTrace(ctx, tr), "run_decomposition", tr)
	defer func() {
		tr.t.Timings = tm
		if res != nil {
			tr.t.Timings, tr.t.SQL, tr.t.RowCount = res.Timings, res.SQL, res.RowCount
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
			return nil, Errorf(CodeDatasourceNotFound, "list_datasources shows the datasources you can use", "there is no datasource %q", id)
		}
	}
	tr.t.Datasource = strings.Join(offered, ",")
	tm.Resolve = sw.Lap()
	dec, issues := multi.Check(ans, offered)
	if issues != nil {
		tr.t.Rejected = []Attempt{{Attempt: 1, Issues: issues}}
		return nil, multi.Invalid(issues, "the decomposition is invalid")
	}
	tm.Plan = sw.Lap()
	return e.runDecomposition(ctx, q, today, dec, multiUsage{}, sw, &tm, tr)
}

// decompose asks the decomposer for a decomposition of q over the picked
// datasources (engine/multi's Decomposer), each offered with the schema
// context retrieved for q, the refused attempts recorded in the trace.
func (e *Engine) decompose(ctx context.Context, q, today string, picked []*datasource, tr *traceRec) (*multi.Decomposition, multi.Usage, error) {
	blocks := make([]multi.Block, len(picked))
	for i, ds := range picked {
		blocks[i] = multi.Block{ID: ds.spec.ID, Dialect: ds.src.Dialect(), Description: ds.spec.Description, Schema: e.retrieve(ctx, ds, q)}
	}
	d := multi.Decomposer{Model: e.opts.Planner, MaxRepairs: e.opts.MaxRepairs, Trace: e.traceModelCall, Log: e.log,
		Refused: func(attempt int, issues []planast.Issue) {
			tr.mu.Lock()
			tr.t.Rejected = append(tr.t.Rejected, Attempt{attempt, issues})
			tr.mu.Unlock()
		}}
	return d.Decompose(ctx, q, today, blocks)
}

// traceModelCall records one model call of a step package in the request's
// trace.
func (e *Engine) traceModelCall(ctx context.Context, req llm.Request, resp *llm.Response, err error, took time.Duration) {
	traceCall(ctx, req, resp, err, ms(took))
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
			c.Tables = multi.TableNames(e.caller(ctx).FilterSnapshot(ds.snap).Tables)
		}
		all = append(all, c)
	}
	if len(all) == 0 {
		return nil, Errorf(CodeDatasourceNotFound, "list_datasources shows the datasources you can use", "no datasource you may use is configured")
	}
	return multi.Shortlist(question, all), nil
}
