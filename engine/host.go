package engine

import (
	"context"
	"errors"
	"sort"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/engine/verified"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Host planning (engine/hostplan builds the result): without a planner
// of its own, or when replay has no recording and Options.HandOver is
// set, Ask stops before planning and returns what the host needs to plan.

// Result kinds: the "kind" of every Ask result's JSON.
const (
	KindAnswer         = result.KindAnswer
	KindPlanItYourself = hostplan.KindPlanItYourself
)

// Reasons of a plan-it-yourself result.
const (
	HostReasonNoPlanner   = hostplan.HostReasonNoPlanner
	HostReasonNoRecording = hostplan.HostReasonNoRecording
)

// The plan-it-yourself result's types keep their engine names.
type (
	HostPlan      = hostplan.HostPlan
	ToolCall      = hostplan.ToolCall
	HostVerified  = hostplan.HostVerified
	HostContext   = hostplan.HostContext
	HostCandidate = hostplan.HostCandidate
)

// noPlanner is the planner of an engine configured without one: any model
// call is the typed NO_PLANNER error (Ask never makes one; explain and the
// steps that need a model report it).
type noPlanner struct{}

func (noPlanner) Complete(context.Context, llm.Request) (*llm.Response, error) {
	return nil, errNoPlanner
}

var errNoPlanner = &Error{Code: CodeNoPlanner, Msg: "no model is configured on this server, so it does not plan questions itself",
	Hint: "plan it yourself: write a plan (get_plan_schema gives the guide and JSON Schema), then check_plan shows its validation and SQL without running it (the no-model explain_plan) and run_plan runs it; ask returns plan_it_yourself with the schema context"}

// HostPlanning reports whether the engine has no planner of its own: the
// host plans through get_plan_schema and run_plan.
func (e *Engine) HostPlanning() bool { return e.hostMode }

// handsOver reports whether a planning error means the host should plan:
// there is no planner, or (with Options.HandOver) replay has no
// recording for the question.
func (e *Engine) handsOver(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	if e.hostMode || AsError(err).Code == CodeNoPlanner {
		return HostReasonNoPlanner, true
	}
	var nr *llm.NoRecordingError
	if e.opts.HandOver && (errors.As(err, &nr) || AsError(err).Code == CodeNoRecording) {
		return HostReasonNoRecording, true
	}
	return "", false
}

// hostPlan builds the plan-it-yourself result for q on ds.
func (e *Engine) hostPlan(ctx context.Context, ds *datasource, q, today, reason string, tr *traceRec) *Result {
	hp := hostplan.Plan(ctx, stepSource{e, ds}, q, today, reason, tr.t.ID, e.opts.ResultTokens)
	return &Result{Question: q, HostPlan: hp, TraceID: tr.t.ID, Warnings: []string{}}
}

// hostPlanCandidates is the plan-it-yourself result when several
// datasources may hold the answer.
func (e *Engine) hostPlanCandidates(ctx context.Context, q, today, reason string, cands []*datasource, scores []float64, tr *traceRec) *Result {
	srcs := make([]hostplan.Source, len(cands))
	for i, ds := range cands {
		srcs[i] = stepSource{e, ds}
	}
	hp := hostplan.Candidates(ctx, q, today, reason, tr.t.ID, srcs, scores, e.opts.ResultTokens)
	return &Result{Question: q, HostPlan: hp, TraceID: tr.t.ID, Warnings: []string{}}
}

// stepSource is one datasource as the step packages see it
// (hostplan.Source, multi.Source): the pipeline's own retrieval, schema
// context, verified-query matcher and value index, all within the
// caller's scope.
type stepSource struct {
	e  *Engine
	ds *datasource
}

func (h stepSource) ID() string          { return h.ds.spec.ID }
func (h stepSource) Dialect() string     { return h.ds.src.Dialect() }
func (h stepSource) Description() string { return h.ds.spec.Description }
func (h stepSource) RowLimit() int       { return h.ds.spec.RowLimit }

func (h stepSource) Retrieve(ctx context.Context, q string) string { return h.e.retrieve(ctx, h.ds, q) }

func (h stepSource) Retrieved(ctx context.Context, q string) *schema.Snapshot {
	return h.e.retrieved(ctx, h.ds, q)
}

func (h stepSource) SchemaContext(snap *schema.Snapshot) string { return h.ds.schemaContext(snap) }

func (h stepSource) VisibleTables(ctx context.Context) int {
	visible := len(h.e.caller(ctx).FilterSnapshot(h.ds.snap).Tables)
	return visible
}

func (h stepSource) Verified(ctx context.Context, q string) ([]*curated.Query, []float64) {
	if h.e.opts.Curated == nil {
		return nil, nil
	}
	cands := h.e.opts.Curated.Runnable(h.e.caller(ctx), h.ds.spec.ID)
	if len(cands) == 0 {
		return nil, nil
	}
	return cands, h.e.verifiedMatcher(ctx, h.ds, q).Scores(q, cands)
}

func (h stepSource) MinSimilarity() float64 { return h.e.opts.Curated.MinSimilarity }

func (h stepSource) Values(ctx context.Context, q string) []string {
	return verified.NamedValues(ctx, h.ds.idx, q, h.e.caller(ctx).Reader(h.ds.spec.ID))
}

// hostResolve resolves a question across several datasources without a
// model: the ranking the resolver would see (candidates: BM25 over
// descriptions and table names, within the caller's reach) picks the top
// one when it leads (hostplan.Leads). Otherwise it returns the best hostplan.MaxCandidates that pass
// after_resolution and the access screen, for the host to choose from.
func (e *Engine) hostResolve(ctx context.Context, q string, tr *traceRec) (string, []*datasource, []float64, error) {
	cands, err := e.candidates(ctx, q)
	if err != nil {
		return "", nil, nil, err
	}
	scores := make([]float64, len(cands))
	for i, c := range cands {
		scores[i] = c.Score
	}
	if hostplan.Leads(scores) {
		return cands[0].ID, nil, nil, nil
	}
	if len(cands) > hostplan.MaxCandidates {
		cands = cands[:hostplan.MaxCandidates]
	}
	ids := make([]string, len(cands))
	score := map[string]float64{}
	for i, c := range cands {
		ids[i], score[c.ID] = c.ID, c.Score
	}
	ids, err = e.resolved(ctx, q, ids, tr)
	if err != nil {
		return "", nil, nil, err
	}
	if len(ids) == 1 {
		return ids[0], nil, nil, nil
	}
	type pick struct {
		ds    *datasource
		score float64
	}
	var picks []pick
	for _, id := range ids {
		ds, err := e.datasource(ctx, id)
		if err != nil {
			e.log.Warn("candidate datasource left out of the plan-it-yourself result", "datasource", id, "err", err)
			continue
		}
		if e.screen(ctx, ds, q) != nil {
			continue
		}
		picks = append(picks, pick{ds, score[id]})
	}
	sort.SliceStable(picks, func(i, j int) bool { // the ranking's order (after_resolution may reorder ids)
		return picks[i].score > picks[j].score || picks[i].score == picks[j].score && picks[i].ds.spec.ID < picks[j].ds.spec.ID
	})
	dss := make([]*datasource, len(picks))
	scores = make([]float64, len(picks))
	for i, p := range picks {
		dss[i], scores[i] = p.ds, p.score
	}
	switch len(dss) {
	case 0:
		return "", nil, nil, Errorf(CodeAccessDenied, "ask about tables you can see (describe_schema lists them)", "this question cannot be answered from what you may read")
	case 1:
		return dss[0].spec.ID, nil, nil, nil
	}
	return "", dss, scores, nil
}
