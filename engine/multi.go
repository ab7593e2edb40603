package engine

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/engine/internal/modeltext"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/planast"
)

// Questions across datasources.
//
// With several datasources configured and none named, Ask hands the
// question to askMulti:
//
//  1. resolve: every datasource the caller reaches (Engine.reaches, asked
//     before any model call) is ranked against the question, exactly
//     (BM25 over description and table names, ties by id); one model call
//     (step "resolve") picks the datasources or answers NOT_ANSWERABLE
//     with a reason. One datasource picked: Ask answers as usual.
//  2. decompose: one model call (step "decompose", datasource = the picked
//     ids joined by "+") splits the question into sub-queries, each bound
//     to one datasource with a semantic intent (never SQL) and an expected
//     output schema, combine groups (join, compare, union) and a post plan
//     over the results. multi.Check refuses SQL in text fields,
//     unresolved references, cycles, uncoercible join keys and unused
//     results, and validates every group and the post plan with planast
//     before anything runs; a refused answer goes back to the model
//     ("decompose_repair") at most MaxRepairs times. Sub-query ids are
//     sha256 content hashes (sq_…; repeats get _2, _3), group ids likewise
//     (cg_…), and layers come from a topological sort that sorts each ready
//     set.
//  3. each sub-query runs the single-datasource path (retrieve → plan with
//     its intent as the question and its expected columns → validate →
//     render → execute), its plan recorded and cached under its own intent
//     and datasource; the sub-queries of one layer run concurrently, at
//     most maxParallel at a time.
//  4. duckcompute loads each result into an in-memory DuckDB table named by
//     the sub-query id (join keys cast to one type; values that do not
//     convert are warnings) and runs the combination plan.
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
	CodeNotAnswerable Code = "NOT_ANSWERABLE"
	// CodeDecompositionInvalid: the decomposition failed its checks after
	// every repair attempt (or, supplied, at once).
	CodeDecompositionInvalid Code = "DECOMPOSITION_INVALID"
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

// maxParallel bounds the sub-queries run at once.
const maxParallel = 4

// multiUsage is the model work of a cross-datasource step that Ask adds to
// a result answered on the single-datasource path.
type multiUsage struct {
	usage   Usage
	modelMS float64
}

// add adds the work to res (nil-safe).
func (m multiUsage) add(res *Result) {
	if res != nil {
		res.Usage.add(m.usage)
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
		return nil, cands[0].id, work, nil
	}
	ids, usage, callMS, err := e.resolveMulti(ctx, q, today, cands)
	work.usage.add(usage)
	work.modelMS += callMS
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
	tm.Resolve = sw.lap()
	ctx = progress(ctx, "plan")
	dec, usage, callMS, err := e.decompose(ctx, q, today, picked, tr)
	work.usage.add(usage)
	work.modelMS += callMS
	if err != nil {
		return nil, "", work, deadline(ctx, err)
	}
	tm.Plan = sw.lap()
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
	ans, offered, err := suppliedDecomposition(doc)
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
	tm.Resolve = sw.lap()
	dec, issues := multi.Check(ans, offered)
	if issues != nil {
		tr.t.Rejected = []Attempt{{Attempt: 1, Issues: issues}}
		return nil, decompositionError(issues, "the decomposition is invalid")
	}
	tm.Plan = sw.lap()
	return e.runDecomposition(ctx, q, today, dec, multiUsage{}, sw, &tm, tr)
}

func decompositionError(issues []planast.Issue, lead string) *Error {
	return &Error{Code: CodeDecompositionInvalid, Issues: issues, Msg: lead + ": " + (&planast.Error{Issues: issues}).Error(),
		Hint: "fix the listed issues (each names its path in the decomposition)"}
}

// decompose asks the decomposer for a decomposition of q over the picked
// datasources and checks it, sending the issues back at most MaxRepairs
// times.
func (e *Engine) decompose(ctx context.Context, q, today string, picked []*datasource, tr *traceRec) (*multi.Decomposition, Usage, float64, error) {
	var usage Usage
	var modelMS float64
	blocks := make([]multi.Block, len(picked))
	offered := make([]string, len(picked))
	for i, ds := range picked {
		blocks[i] = multi.Block{ID: ds.spec.ID, Dialect: ds.src.Dialect(), Description: ds.spec.Description, Schema: e.retrieve(ctx, ds, q)}
		offered[i] = ds.spec.ID
	}
	var issues []planast.Issue
	for attempt := 0; attempt <= e.opts.MaxRepairs; attempt++ {
		msgs := multi.Prompt(today, q, blocks, issues)
		step := "decompose"
		if attempt > 0 {
			step = "decompose_repair"
		}
		req := llm.Request{Step: step, Datasource: strings.Join(offered, "+"), Intent: q, Sample: attempt,
			Messages: msgs, SchemaName: "decomposition", Schema: multi.Schema, PromptHash: modeltext.Hash(msgs, today)}
		t0 := time.Now()
		resp, err := e.opts.Planner.Complete(ctx, req)
		callMS := ms(time.Since(t0))
		modelMS += callMS
		usage.ModelCalls++
		traceCall(ctx, req, resp, err, callMS)
		var bad *llm.InvalidOutputError
		var nr *llm.NoRecordingError
		switch {
		case errors.As(err, &bad):
			issues = []planast.Issue{{Code: planast.CodeMalformed, Message: bad.Reason}}
		case attempt > 0 && errors.As(err, &nr):
			return nil, usage, modelMS, decompositionError(issues, "the recorded decomposition is invalid and no repair is recorded")
		case err != nil:
			return nil, usage, modelMS, providerError(err)
		default:
			usage.InputTokens += resp.Usage.InputTokens
			usage.OutputTokens += resp.Usage.OutputTokens
			ans, derr := multi.Decode(resp.Content)
			if derr != nil {
				issues = derr.(*planast.Error).Issues
				break
			}
			dec, iss := multi.Check(ans, offered)
			if iss == nil {
				return dec, usage, modelMS, nil
			}
			issues = iss
		}
		tr.mu.Lock()
		tr.t.Rejected = append(tr.t.Rejected, Attempt{attempt + 1, issues})
		tr.mu.Unlock()
		e.log.Info("decomposition refused", "attempt", attempt+1, "issues", len(issues), "first", issues[0].Code)
	}
	return nil, usage, modelMS, decompositionError(issues, "the decomposer gave no valid decomposition")
}

// suppliedDecomposition decodes a decomposition document supplied from
// outside (a client, a recording) and lists the datasources its
// sub-queries name, in first-use order. Errors are *Error.
func suppliedDecomposition(doc []byte) (*DecomposeAnswer, []string, error) {
	ans, err := multi.Decode(doc)
	if err != nil {
		return nil, nil, decompositionError(err.(*planast.Error).Issues, "the decomposition is not valid JSON of the expected shape")
	}
	var offered []string
	seen := map[string]bool{}
	for _, sq := range ans.SubQueries {
		if !seen[sq.Datasource] {
			seen[sq.Datasource] = true
			offered = append(offered, sq.Datasource)
		}
	}
	return ans, offered, nil
}
