package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/planast"
)

// RunCombined runs a question across datasources that the client planned
// itself (a multi.PlannedQuery document): every source's plan is decoded
// and validated on its own datasource exactly as RunPlan's (the caller's
// access and row filters, the before_run, after_resolution and
// after_planning hooks), and the combine plan is checked against the
// sources' output columns, all before anything runs; then each source runs
// read-only, bringing up to multi.SourceRowCap rows, and the rows are
// combined in DuckDB as a question across datasources is (engine/multi). The result's
// sub-queries hold each source's plan and SQL, with plan_source
// "supplied"; each source's warnings come named by its source. A refused
// document is an *Error with CodePlanInvalid and Issues whose paths start
// at sources[i].plan or combine.
func (e *Engine) RunCombined(ctx context.Context, doc []byte) (res *Result, err error) {
	ctx, cancel := e.withDeadline(ctx)
	defer cancel()
	sw := newStopwatch()
	var tm Timings
	ctx, tr, end, err := e.suppliedRun(ctx, "run_combined_plan")
	defer func() { end(res, err) }()
	if err != nil {
		return nil, err
	}
	ctx = withTrace(ctx, tr) // each source's steps record into the run's trace
	pq, err := multi.DecodePlanned(doc)
	if err != nil {
		return nil, combinedInvalid(err.(*planast.Error).Issues, tr)
	}
	plans := make([]*planast.Query, len(pq.Sources))
	cols := make([][]duckcompute.Column, len(pq.Sources))
	var issues []planast.Issue
	var used []string
	for i, s := range pq.Sources {
		_, p, err := e.supplied(ctx, s.Datasource, s.Plan, tr, sw, &tm)
		if err != nil {
			ee := AsError(err)
			if ee.Code != CodePlanInvalid {
				return nil, &Error{Code: ee.Code, Msg: fmt.Sprintf("source %q: %s", s.Name, ee.Msg), Hint: ee.Hint, Retryable: ee.Retryable, Err: err}
			}
			for _, is := range ee.Issues {
				is.Path = strings.TrimSuffix(fmt.Sprintf("sources[%d].plan.%s", i, is.Path), ".")
				issues = append(issues, is)
			}
			continue
		}
		plans[i] = p.planner // as the client wrote it: its source validates it again, row filters and all
		for k, name := range p.columns {
			cols[i] = append(cols[i], duckcompute.Column{Name: name, Type: p.types[k]})
		}
		used = append(used, s.Datasource)
	}
	if len(issues) > 0 {
		return nil, combinedInvalid(issues, tr)
	}
	tr.T.Datasource = strings.Join(used, ",")
	dec, issues := multi.CheckPlanned(pq, plans, cols)
	if issues != nil {
		return nil, combinedInvalid(issues, tr)
	}
	tm.Plan = sw.Lap()
	return e.asker(tr, tr.T.Today).Run(ctx, suppliedQuestion, dec, multi.Usage{}, tr.T.ID, sw, &tm)
}

// combinedInvalid is the refusal of a combined plan: its issues, each
// naming its path, recorded as the run's one rejected attempt.
func combinedInvalid(issues []planast.Issue, tr *traceRec) *Error {
	tr.T.Rejected = []Attempt{{Attempt: 1, Issues: issues}}
	pe := &planast.Error{Issues: issues}
	return &Error{Code: CodePlanInvalid, Msg: pe.Brief(), Issues: issues, Err: pe,
		Hint: "fix the listed issues: sources[i].plan is the plan of source i, run on its datasource as run_plan runs one; combine reads the sources by name"}
}
