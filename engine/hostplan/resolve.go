package hostplan

import (
	"context"
	"errors"
	"slices"
	"sort"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// HandsOver reports whether a planning error means the host should plan,
// and why: there is no planner (hostMode, or the model call said
// NO_PLANNER), or, when handOver is set, replay has no recording for the
// question.
func HandsOver(err error, hostMode, handOver bool) (string, bool) {
	if err == nil {
		return "", false
	}
	if hostMode || fault.AsError(err).Code == fault.CodeNoPlanner {
		return HostReasonNoPlanner, true
	}
	var nr *llm.NoRecordingError
	if handOver && (errors.As(err, &nr) || fault.AsError(err).Code == fault.CodeNoRecording) {
		return HostReasonNoRecording, true
	}
	return "", false
}

// NoPlanner is the planner of an engine configured without one: any model
// call is the typed NO_PLANNER error (Ask never makes one; explain and the
// steps that need a model report it, and HandsOver hands the question to
// the host).
type NoPlanner struct{}

// Complete refuses every call with ErrNoPlanner.
func (NoPlanner) Complete(context.Context, llm.Request) (*llm.Response, error) {
	return nil, ErrNoPlanner
}

// ErrNoPlanner is NoPlanner's error: it says how the host plans instead.
var ErrNoPlanner = &fault.Error{Code: fault.CodeNoPlanner, Msg: "no model is configured on this server, so it does not plan questions itself",
	Hint: "plan it yourself: write a plan (get_plan_schema gives the guide and JSON Schema), then check_plan shows its validation and SQL without running it (the no-model explain_plan) and run_plan runs it; ask returns plan_it_yourself with the schema context"}

// Resolver is what choosing a datasource without a resolver model needs
// of the pipeline: its ranking, its after_resolution hooks and its access
// screen, all within the caller's scope.
type Resolver interface {
	// Ranked is every datasource the caller reaches, ranked for q as the
	// resolver model would see them (no model call), best first.
	Ranked(ctx context.Context, q string) (ids []string, scores []float64, err error)
	// Resolved runs the after_resolution hooks over ids and returns the
	// narrowed set, each still within the caller's reach.
	Resolved(ctx context.Context, q string, ids []string) ([]string, error)
	// Usable opens datasource id for q; nil when it cannot be opened or
	// the access screen refuses q there (a candidate left out, not an
	// error of the run).
	Usable(ctx context.Context, id, q string) Source
}

// Resolve resolves q across several datasources without a model. The
// ranking picks its top datasource when it leads (Leads) and holds a word
// of q (leaderMatches); otherwise the
// best MaxCandidates that pass after_resolution and the access screen are
// returned with their scores, in the ranking's order, for the host to
// choose from. One left is picked; none left is ACCESS_DENIED.
func Resolve(ctx context.Context, r Resolver, q string) (pick string, cands []Source, scores []float64, err error) {
	ids, scores, err := r.Ranked(ctx, q)
	if err != nil {
		return "", nil, nil, err
	}
	if Leads(scores) && (len(ids) == 1 || leaderMatches(ctx, r, ids[0], q)) {
		return ids[0], nil, nil, nil
	}
	if len(ids) > MaxCandidates {
		ids, scores = ids[:MaxCandidates], scores[:MaxCandidates]
	}
	score := map[string]float64{}
	for i, id := range ids {
		score[id] = scores[i]
	}
	if ids, err = r.Resolved(ctx, q, ids); err != nil {
		return "", nil, nil, err
	}
	if len(ids) == 1 {
		return ids[0], nil, nil, nil
	}
	for _, id := range ids {
		if src := r.Usable(ctx, id, q); src != nil {
			cands = append(cands, src)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { // the ranking's order (after_resolution may reorder ids)
		si, sj := score[cands[i].ID()], score[cands[j].ID()]
		return si > sj || si == sj && cands[i].ID() < cands[j].ID()
	})
	switch len(cands) {
	case 0:
		return "", nil, nil, fault.Errorf(fault.CodeAccessDenied, "ask about tables you can see (describe_schema lists them)", "this question cannot be answered from what you may read")
	case 1:
		return cands[0].ID(), nil, nil, nil
	}
	if id := verifiedOwner(ctx, cands, q); id != "" {
		return id, nil, nil, nil
	}
	scores = make([]float64, len(cands))
	for i, c := range cands {
		scores[i] = score[c.ID()]
	}
	return "", cands, scores, nil
}

// leaderMatches reports whether the ranking's leader holds a word of q
// (Source.Matches). A lead won by a fuzzy value or a title spelling a
// word a plan computes ("Today" for "what is the weather today") is no
// reason to plan over one datasource: the candidates are offered, and
// when none matches the result says so (NoMatch) as for one datasource.
// A leader that cannot be opened is left to the usual path.
func leaderMatches(ctx context.Context, r Resolver, id, q string) bool {
	src := r.Usable(ctx, id, q)
	if src == nil {
		return true
	}
	return src.Matches(ctx, q).Relevant
}

// VerifiedCertain is the score at which a verified query's listed question
// is the question asked (word for word, or all but a word).
const VerifiedCertain = 0.95

// verifiedOwner is the one candidate holding a verified query written for
// q (VerifiedCertain): its author answered this very question there, which
// outweighs the ranking's near tie (a verified query's own example
// question went to a datasource without it). "" when none or several do.
func verifiedOwner(ctx context.Context, cands []Source, q string) string {
	owner := ""
	for _, c := range cands {
		_, scores := c.Verified(ctx, q)
		if len(scores) == 0 || slices.Max(scores) < max(VerifiedCertain, c.MinSimilarity()) {
			continue
		}
		if owner != "" {
			return ""
		}
		owner = c.ID()
	}
	return owner
}
