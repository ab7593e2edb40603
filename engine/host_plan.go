package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Host planning.
//
// Most people run nl2sql inside an assistant that is itself a capable
// model. Without a planner of its own (no llm section), or when the replay
// provider holds no recording for a question and Options.HandOver is set,
// Ask does everything up to planning — before_run, resolution and
// after_resolution, the access screen, verified-query matching, retrieval
// within the caller's scope — and returns a successful Result of kind
// KindPlanItYourself instead of an error: one round trip gives the host
// what the server's planner would have had (the same budgeted schema
// context), the verified queries that match with their exact
// run_verified_query call, and the run_plan call to make once it has
// written a plan (get_plan_schema gives the plan language).
//
// With several datasources and none named, the deterministic ranking that
// feeds the resolver picks one when it leads clearly (see hostPick);
// otherwise the result lists the best candidates, each with its own
// context, and Datasource is empty: the host picks and runs the plan there.

// Result kinds: the "kind" of every Ask result's JSON.
const (
	KindAnswer         = "answer"
	KindPlanItYourself = "plan_it_yourself"
)

// Reasons of a plan-it-yourself result.
const (
	HostReasonNoPlanner   = "no_planner"   // no model is configured: the host plans
	HostReasonNoRecording = "no_recording" // the replay provider has no recording for the question
)

// HostPlan is the plan-it-yourself result (JSON shape in README's "Use it
// without a model"). It holds no rows and no data beyond the schema
// context's profile values, which are quoted as data there as in the
// planner's prompt.
type HostPlan struct {
	Kind     string `json:"kind"` // KindPlanItYourself
	Question string `json:"question"`
	Reason   string `json:"reason"`
	// Next says in one line what to do next.
	Next string `json:"next"`
	// Today is the run date relative dates resolve against (YYYY-MM-DD).
	Today string `json:"today"`
	// HostContext is the one datasource's context; its datasource and
	// dialect are "" (and its lists empty) when Candidates lists several.
	HostContext
	// Candidates, when several datasources may hold the answer, are the
	// best-ranked ones with their own contexts.
	Candidates []HostCandidate `json:"candidates,omitempty"`
	// PlanGuide and RunPlan are the calls that get the plan language and
	// run a plan (add "plan" to RunPlan's arguments).
	PlanGuide ToolCall `json:"plan_guide"`
	RunPlan   ToolCall `json:"run_plan"`
	TraceID   string   `json:"trace_id"`
}

// ToolCall is a call of one of the server's tools. Missing names what the
// caller must still add: arguments ("plan") or, for run_verified_query,
// required parameters ("params.year") the question does not state.
type ToolCall struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Missing   []string       `json:"missing,omitempty"`
}

// HostVerified is a verified query that matches the question.
type HostVerified struct {
	ID          string          `json:"id"`
	Description string          `json:"description"`
	Score       float64         `json:"score"`
	Params      []curated.Param `json:"params"`
	Call        ToolCall        `json:"call"`
}

// HostContext is what a host needs to plan over one datasource.
type HostContext struct {
	Datasource string `json:"datasource"`
	Dialect    string `json:"dialect"`
	// VerifiedQueries match the question, best first; call one as given.
	VerifiedQueries []HostVerified `json:"verified_queries"`
	// SchemaContext is the retrieved, scope-filtered schema context the
	// server's planner would get; ContextTables its tables in order and
	// ContextTokens its size in o200k_base tokens.
	SchemaContext string   `json:"schema_context"`
	ContextTables []string `json:"context_tables"`
	ContextTokens int      `json:"context_tokens"`
	// VisibleTables counts the tables the caller may read on the
	// datasource: more than len(ContextTables) when retrieval cut the
	// schema to its budget (search_schema and describe_schema show the
	// rest).
	VisibleTables int `json:"visible_tables"`
	// OmittedTables counts the visible tables not in the context. Of
	// them, CutTables are those retrieval picked for the question but the
	// context's token budget left out, best first; More is the call that
	// shows them (describe_schema with tables), and Omitted says in one
	// line what was left out and how to see it.
	OmittedTables int       `json:"omitted_tables"`
	CutTables     []string  `json:"cut_tables,omitempty"`
	More          *ToolCall `json:"more,omitempty"`
	Omitted       string    `json:"omitted,omitempty"`
}

// HostCandidate is one datasource that may hold the answer.
type HostCandidate struct {
	HostContext
	Description string  `json:"description"`
	Score       float64 `json:"score"`
}

// maxHostVerified bounds the verified queries listed per datasource, and
// maxHostCandidates the datasources offered when none leads.
const (
	maxHostVerified   = 3
	maxHostCandidates = 3
)

// noPlanner is the planner of an engine configured without one: any model
// call is the typed NO_PLANNER error (Ask never makes one; explain and the
// steps that need a model report it).
type noPlanner struct{}

func (noPlanner) Complete(context.Context, llm.Request) (*llm.Response, error) {
	return nil, errNoPlanner
}

var errNoPlanner = &Error{Code: CodeNoPlanner, Msg: "no model is configured on this server, so it does not plan questions itself",
	Hint: "ask returns a plan_it_yourself result with the schema context: write a plan (get_plan_schema) and run it with run_plan, or configure llm.default in nl2sql.yaml"}

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
	hp := &HostPlan{
		Kind: KindPlanItYourself, Question: q, Reason: reason, Today: today, HostContext: e.hostContext(ctx, ds, q, e.hostContextTokens(1)),
		PlanGuide: ToolCall{Tool: "get_plan_schema", Arguments: map[string]any{}},
		RunPlan:   ToolCall{Tool: "run_plan", Arguments: map[string]any{"datasource": ds.spec.ID}, Missing: []string{"plan"}},
		TraceID:   tr.t.ID,
	}
	hp.Next = hostNext(hp)
	return &Result{Question: q, HostPlan: hp, TraceID: tr.t.ID, Warnings: []string{}}
}

// hostPlanCandidates is the plan-it-yourself result when several
// datasources may hold the answer.
func (e *Engine) hostPlanCandidates(ctx context.Context, q, today, reason string, cands []*datasource, scores []float64, tr *traceRec) *Result {
	hp := &HostPlan{
		Kind: KindPlanItYourself, Question: q, Reason: reason, Today: today,
		HostContext: HostContext{VerifiedQueries: []HostVerified{}, ContextTables: []string{}},
		PlanGuide:   ToolCall{Tool: "get_plan_schema", Arguments: map[string]any{}},
		RunPlan:     ToolCall{Tool: "run_plan", Arguments: map[string]any{}, Missing: []string{"datasource", "plan"}},
		TraceID:     tr.t.ID,
	}
	for i, ds := range cands {
		hp.Candidates = append(hp.Candidates, HostCandidate{HostContext: e.hostContext(ctx, ds, q, e.hostContextTokens(len(cands))),
			Description: ds.spec.Description, Score: round3(scores[i])})
	}
	hp.Next = hostNext(hp)
	return &Result{Question: q, HostPlan: hp, TraceID: tr.t.ID, Warnings: []string{}}
}

// hostContextTokens is the share of the result budget the schema context
// of one of n datasources may take: a quarter of the budget over all
// contexts, since the result carries each context twice (its JSON and its
// text), with the verified queries, calls and text around them.
func (e *Engine) hostContextTokens(n int) int {
	budget := e.opts.ResultTokens
	if budget <= 0 {
		budget = config.DefaultResultTokens
	}
	return budget / 4 / max(n, 1)
}

// hostContext retrieves q's context on ds, as the caller may see it,
// within tokens: retrieval's tables from the best, as many as fit (a
// datasource without a retrieval index has its whole visible schema
// retrieved, which on a large catalog is far more than fits), and what
// was left out with the call that shows it.
func (e *Engine) hostContext(ctx context.Context, ds *datasource, q string, tokens int) HostContext {
	snap := e.retrieved(ctx, ds, q)
	sctx := ds.schemaContext(snap)
	var cut []string
	if index.ContextTokens(sctx) > tokens && len(snap.Tables) > 1 {
		// the context grows with its tables: the most leading tables that
		// fit, by bisection (a whole schema has thousands)
		render := func(n int) string {
			return ds.schemaContext(&schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: snap.Tables[:n]})
		}
		n := sort.Search(len(snap.Tables), func(n int) bool { return index.ContextTokens(render(n+1)) > tokens })
		n = max(n, 1)
		sctx = render(n)
		for _, t := range snap.Tables[n:] {
			cut = append(cut, t.Name)
		}
	}
	visible := len(e.caller(ctx).FilterSnapshot(ds.snap).Tables)
	hc := HostContext{Datasource: ds.spec.ID, Dialect: ds.src.Dialect(), VerifiedQueries: e.hostVerified(ctx, ds, q),
		SchemaContext: sctx, ContextTables: contextTables(sctx), ContextTokens: index.ContextTokens(sctx),
		VisibleTables: visible}
	hc.OmittedTables = max(visible-len(hc.ContextTables), 0)
	if len(cut) > maxHostCutTables {
		cut = cut[:maxHostCutTables]
	}
	if len(cut) > 0 {
		hc.CutTables = cut
		hc.More = &ToolCall{Tool: "describe_schema", Arguments: map[string]any{"datasource": ds.spec.ID, "tables": cut}}
	}
	switch {
	case len(cut) > 0:
		hc.Omitted = fmt.Sprintf("%d of the %d tables you may see are not in schema_context: it holds the leading retrieved tables that fit its %d-token share of the result budget; the call in more (describe_schema with the %d cut_tables) shows the next ones, search_schema and describe_schema (filter, cursor) the others", hc.OmittedTables, visible, tokens, len(cut))
	case hc.OmittedTables > 0:
		hc.Omitted = fmt.Sprintf("%d of the %d tables you may see are not in schema_context (retrieval kept those the question names best): search_schema with other words, or describe_schema with tables or a filter, shows others", hc.OmittedTables, visible)
	}
	return hc
}

// maxHostCutTables bounds the cut tables a context names.
const maxHostCutTables = 20

// hostNext is the one line that says what to do next.
func hostNext(hp *HostPlan) string {
	var v *HostVerified
	if len(hp.VerifiedQueries) > 0 {
		v = &hp.VerifiedQueries[0]
	}
	switch {
	case len(hp.Candidates) > 0:
		return "Several datasources may hold the answer: pick one of candidates, write a plan over its schema_context (get_plan_schema gives the plan language) and call run_plan with that datasource and the plan."
	case v != nil && len(v.Call.Missing) == 0:
		args, _ := json.Marshal(v.Call.Arguments)
		return "A verified query matches: call run_verified_query " + string(args) + "; if it does not answer the question, write a plan over schema_context (get_plan_schema) and call run_plan."
	case v != nil:
		return "A verified query matches: call run_verified_query with id " + quote(v.ID) + " after filling its " + joinQuoted(v.Call.Missing) + "; or write a plan over schema_context (get_plan_schema) and call run_plan."
	}
	who := "No model plans on this server"
	if hp.Reason == HostReasonNoRecording {
		who = "The server replays recorded model answers and has none for this question"
	}
	return who + ": write a plan over schema_context (get_plan_schema gives the plan language) and call run_plan with datasource " + quote(hp.Datasource) + " and the plan."
}

func joinQuoted(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += quote(n)
	}
	return out
}

// hostVerified lists the verified queries on ds the caller may run that
// match q (score at least the curated file's min_similarity), best first,
// each with its call: parameters filled where the question states them
// (curated.Query.FillFromQuestion, with the stored values q names within
// the caller's scope).
func (e *Engine) hostVerified(ctx context.Context, ds *datasource, q string) []HostVerified {
	out := []HostVerified{}
	if e.opts.Curated == nil {
		return out
	}
	cands := e.opts.Curated.Runnable(e.caller(ctx), ds.spec.ID)
	if len(cands) == 0 {
		return out
	}
	scores := e.verifiedMatcher(ctx, ds, q).Scores(q, cands)
	var values []string
	if ds.idx != nil {
		if vals, err := ds.idx.Values(ctx, q, e.caller(ctx).Reader(ds.spec.ID)); err == nil {
			for _, v := range vals {
				if v.Match == "exact" || v.Match == "stem" {
					values = append(values, v.Value)
				}
			}
		}
	}
	type scored struct {
		q     *curated.Query
		score float64
	}
	var hits []scored
	for i, c := range cands {
		if i < len(scores) && scores[i] > 0 && scores[i] >= e.opts.Curated.MinSimilarity {
			hits = append(hits, scored{c, scores[i]})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		return hits[i].score > hits[j].score || hits[i].score == hits[j].score && hits[i].q.ID < hits[j].q.ID
	})
	for i, h := range hits {
		if i == maxHostVerified {
			break
		}
		filled, missing := h.q.FillFromQuestion(q, values)
		args := map[string]any{"id": h.q.ID}
		if len(h.q.Params) > 0 {
			args["params"] = filled
		}
		var miss []string
		for _, m := range missing {
			miss = append(miss, "params."+m)
		}
		params := h.q.Params
		if params == nil {
			params = []curated.Param{}
		}
		out = append(out, HostVerified{ID: h.q.ID, Description: h.q.Description, Score: round3(h.score), Params: params,
			Call: ToolCall{Tool: "run_verified_query", Arguments: args, Missing: miss}})
	}
	return out
}

// contextTables lists the context's tables, never nil.
func contextTables(sctx string) []string {
	t := index.ContextTables(sctx)
	if t == nil {
		return []string{}
	}
	return t
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// hostPickRatio is how far the best-ranked datasource must lead the
// second (score ratio) for host planning to pick it without a resolver
// model.
const hostPickRatio = 1.5

// hostResolve resolves a question across several datasources without a
// model: the ranking the resolver would see (candidates: BM25 over
// descriptions and table names, within the caller's reach) picks the top
// one when it scores above zero and leads the next by hostPickRatio, or is
// the only one. Otherwise it returns the best maxHostCandidates that pass
// after_resolution and the access screen, for the host to choose from.
func (e *Engine) hostResolve(ctx context.Context, q string, tr *traceRec) (string, []*datasource, []float64, error) {
	cands, err := e.candidates(ctx, q)
	if err != nil {
		return "", nil, nil, err
	}
	if len(cands) == 1 || cands[0].score > 0 && (cands[1].score == 0 || cands[0].score >= hostPickRatio*cands[1].score) {
		return cands[0].id, nil, nil, nil
	}
	if len(cands) > maxHostCandidates {
		cands = cands[:maxHostCandidates]
	}
	ids := make([]string, len(cands))
	score := map[string]float64{}
	for i, c := range cands {
		ids[i], score[c.id] = c.id, c.score
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
	scores := make([]float64, len(picks))
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
