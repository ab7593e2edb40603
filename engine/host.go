package engine

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/hostplan"
	"github.com/nl2sql/nl2sql/engine/result"
	"github.com/nl2sql/nl2sql/engine/verified"
	"github.com/nl2sql/nl2sql/index"
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
	HostRelated   = hostplan.HostRelated
)

// HostPlanning reports whether the engine has no planner of its own: the
// host plans through get_plan_schema and run_plan.
func (e *Engine) HostPlanning() bool { return e.hostMode }

// handsOver reports whether a planning error means the host should plan
// (hostplan.HandsOver), and why.
func (e *Engine) handsOver(err error) (string, bool) {
	return hostplan.HandsOver(err, e.hostMode, e.opts.HandOver)
}

// otherOpenWait bounds the wait for the other datasources to open so
// that the question's words can be looked up there too (all of them
// together: opens run concurrently, each started by its Await).
const otherOpenWait = time.Second

// hostPlan builds the plan-it-yourself result for q on ds.
func (e *Engine) hostPlan(ctx context.Context, ds *datasource, q, today, reason string, tr *traceRec) *Result {
	var others []string
	for _, id := range e.DatasourceIDs() {
		if id != ds.spec.ID && e.reaches(ctx, id) {
			others = append(others, id)
		}
	}
	// asked which of the question's unmatched words they hold: one not
	// open yet starts opening and is waited for, all of them within
	// otherOpenWait, since a word it holds would otherwise be called
	// stored nowhere
	opened := func() (open []hostplan.Source, unsearched []string) {
		wctx, cancel := context.WithTimeout(ctx, otherOpenWait)
		defer cancel()
		for _, id := range others {
			e.sources.Await(wctx, id, time.Nanosecond) // starts its open, if none has
		}
		for _, id := range others {
			if o, err := e.sources.Await(wctx, id, otherOpenWait); err == nil {
				open = append(open, stepSource{e, o})
			} else if e.sources.Failed(id) == nil {
				// still opening; one that is down is no place to look
				unsearched = append(unsearched, id)
			}
		}
		return open, unsearched
	}
	if len(others) == 0 {
		opened = nil
	}
	hp := hostplan.Plan(ctx, stepSource{e, ds}, opened, q, today, reason, tr.T.ID, e.opts.ResultTokens)
	// the question was matched to one datasource; its answer may need
	// rows of another, which the host can only reach this way; one whose
	// last open failed (after Plan, which may have tried it) would only
	// fail the combined run
	var up []string
	for _, id := range others {
		if e.sources.Failed(id) == nil {
			up = append(up, id)
		}
	}
	if len(up) > 0 && !hp.NoMatch { // nothing here to combine with
		hp.Next += " If the answer also needs rows from " + strings.Join(up, ", ") +
			", call run_combined_plan: one plan per datasource and a combine plan over their rows."
	}
	return hostResult(q, hp, tr)
}

func hostResult(q string, hp *HostPlan, tr *traceRec) *Result {
	return &Result{Question: q, HostPlan: hp, TraceID: tr.T.ID, Warnings: []string{}}
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

func (h stepSource) Matches(ctx context.Context, q string) hostplan.Match {
	sel, err := h.e.retrieval(ctx, h.ds).Search(ctx, q)
	if err != nil {
		// no index to ask: no claim either way, and the whole schema's
		// newest is said
		return hostplan.Match{Relevant: true}
	}
	if h.e.noneHeld(ctx, h.ds, q, sel) {
		return hostplan.Match{Unmatched: sel.Unmatched, Ranked: evidenced(sel)}
	}
	return hostplan.Match{Relevant: sel.Relevant(), Unmatched: sel.Unmatched, Ranked: evidenced(sel)}
}

// evidenced is the plan names of the tables a selection ties to the
// question by evidence, best score first. A selection lists its tables
// in schema order, and one kept by rank or to join others is not the
// question's.
func evidenced(sel *index.Selection) []string {
	ts := slices.DeleteFunc(sel.ByScore(), func(t index.TableSelection) bool { return len(t.Evidence) == 0 })
	names := make([]string, len(ts))
	for i := range ts {
		names[i] = sel.PlanName(ts[i])
	}
	return names
}

func (h stepSource) ColumnValues(ctx context.Context, schemaName, table, column string) []string {
	if vals := h.e.retrieval(ctx, h.ds).StoredValues(); vals != nil {
		return vals(schemaName, table, column)
	}
	return nil
}

func (h stepSource) SchemaContext(snap *schema.Snapshot) string { return h.ds.sem.SchemaContext(snap) }

func (h stepSource) Visible(ctx context.Context) *schema.Snapshot {
	return h.e.caller(ctx).FilterSnapshot(h.ds.snap)
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

// hostResolver is the pipeline's side of choosing a datasource without a
// resolver model (hostplan.Resolve): its ranking, after_resolution hooks
// and access screen, with this run's trace.
type hostResolver struct {
	e  *Engine
	tr *traceRec
}

func (r hostResolver) Ranked(ctx context.Context, q string) ([]string, []float64, error) {
	cands, err := r.e.candidates(ctx, q)
	ids, scores := make([]string, len(cands)), make([]float64, len(cands))
	for i, c := range cands {
		ids[i], scores[i] = c.ID, c.Score
	}
	return ids, scores, err
}

func (r hostResolver) Resolved(ctx context.Context, q string, ids []string) ([]string, error) {
	return r.e.resolved(ctx, q, ids, r.tr)
}

func (r hostResolver) Usable(ctx context.Context, id, q string) hostplan.Source {
	ds, err := r.e.datasource(ctx, id)
	if err != nil {
		r.e.log.Warn("candidate datasource left out of the plan-it-yourself result", "datasource", id, "err", err)
		return nil
	}
	if r.e.screen(ctx, ds, q) != nil {
		return nil
	}
	return stepSource{r.e, ds}
}
