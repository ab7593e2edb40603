package hostplan

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
)

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

// KindPlanItYourself is the "kind" of a plan-it-yourself result's JSON.
const KindPlanItYourself = "plan_it_yourself"

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
	// NoMatch is set when nothing the caller may read shares a word with
	// the question, on any datasource offered: the data may not hold the
	// answer (satisfaction scores asked of a clinic's billing), and the
	// context is the schema, not a match.
	NoMatch bool `json:"no_match,omitempty"`
	// Unmatched, when something matched, lists the words of the question
	// nothing the caller may read holds on any datasource offered ("reason"
	// in "accounts closed for which reason"): a question turning on them
	// may not be answerable.
	Unmatched []string `json:"unmatched,omitempty"`
	// HeldElsewhere lists the words of the question this datasource holds
	// nothing of but another open one the caller may read does ("town"
	// asked of billing, where operations keeps premises.town): the answer
	// may need that datasource's rows too. Such words are not Unmatched.
	HeldElsewhere []Held `json:"held_elsewhere,omitempty"`
	// Related are the datasources holding words of the question this one
	// holds nothing of (HeldElsewhere), most such words first, at most
	// MaxCandidates-1, each with its context for the question at half
	// this one's share: the answer's other half is there, and a host shown
	// only this schema planned over it alone or spent calls finding the
	// other. Their rows join this one's through run_combined_plan.
	Related []HostRelated `json:"related,omitempty"`
	// Links are the columns this datasource and a related one join on:
	// a key of one whose values a column of the other holds (links.go).
	Links []Link `json:"links,omitempty"`
	// NotSearched names the other datasources the caller reaches whose
	// holdings were not looked up (still opening): Unmatched says nothing
	// of them.
	NotSearched []string `json:"not_searched,omitempty"`
	// PlanGuide and RunPlan are the calls that get the plan language and
	// run a plan (add "plan" to RunPlan's arguments).
	PlanGuide ToolCall `json:"plan_guide"`
	RunPlan   ToolCall `json:"run_plan"`
	TraceID   string   `json:"trace_id"`
}

// Held is a word of the question and the other datasources that hold it.
type Held struct {
	Word        string   `json:"word"`
	Datasources []string `json:"datasources"`
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
	OmittedTables int `json:"omitted_tables"`
	// OmittedColumns counts the columns of the context's tables that
	// retrieval left out; ColumnsOf says of the first tables how many of
	// how many columns the context shows.
	OmittedColumns int       `json:"omitted_columns,omitempty"`
	ColumnsOf      string    `json:"-"`
	CutTables      []string  `json:"cut_tables,omitempty"`
	More           *ToolCall `json:"more,omitempty"`
	Omitted        string    `json:"omitted,omitempty"`
	// Newest is the latest date or time a date or timestamp column held
	// when profiled, up to today, with the column ("2025-07-01 09:12:00 in
	// delivery_events.ingested_at"), of the tables the question ranks best
	// (questionNewest), else of the datasource: data extracted a year ago
	// answers "currently" as of then, not today.
	Newest string `json:"newest,omitempty"`
}

// Match is a search of a question over one datasource (Source.Matches):
// whether anything the caller may read shares a word with it (a table or
// column name, a comment, a sample or a stored value: what search_schema
// calls relevant), the words nothing holds, and the tables the search ties
// to the question by evidence (a name, a value, a mention), best first, as
// plan names. One search gives all three: each was a search of its own.
type Match struct {
	Relevant  bool
	Unmatched []string
	Ranked    []string
}

// HostRelated is another datasource holding part of the answer.
type HostRelated struct {
	HostContext
	Description string `json:"description"`
}

// HostCandidate is one datasource that may hold the answer.
type HostCandidate struct {
	HostContext
	Description string  `json:"description"`
	Score       float64 `json:"score"`
}

// maxHostVerified bounds the verified queries listed per datasource, and
// MaxCandidates the datasources offered when none leads.
const (
	maxHostVerified = 3
	MaxCandidates   = 3
)

// Source is one datasource as the caller may plan over it: what the
// pipeline's own steps (retrieval within the caller's scope, the schema
// context, the verified-query matcher, the value index) give for it.
type Source interface {
	ID() string
	Dialect() string
	Description() string
	// Retrieved is q's retrieval over what the caller may read, best
	// table first.
	Retrieved(ctx context.Context, q string) *schema.Snapshot
	// SchemaContext writes a snapshot as the planner's prompt holds it.
	SchemaContext(snap *schema.Snapshot) string
	// Visible is the schema the caller may read.
	Visible(ctx context.Context) *schema.Snapshot
	// Verified is the verified queries the caller may run here with their
	// scores against q (nil when none), and MinSimilarity the score a
	// match needs.
	Verified(ctx context.Context, q string) (cands []*curated.Query, scores []float64)
	MinSimilarity() float64
	// Values is the stored values q names exactly (or by stem) within the
	// caller's scope.
	Values(ctx context.Context, q string) []string
	// Matches reports whether anything the caller may read shares a word
	// with q: a table or column name, a comment, a sample or a stored
	// value (what search_schema calls relevant), and the words of q
	// nothing of those holds.
	Matches(ctx context.Context, q string) Match
	// ColumnValues is a text column's stored values (nil when none are
	// stored or the caller reads the table through a row filter).
	ColumnValues(ctx context.Context, schemaName, table, column string) []string
}

// Plan builds the plan-it-yourself result for q on ds; others gives the
// other datasources the caller reaches, asked which of q's unmatched words
// they hold, and the ids of those that could not be asked (still opening;
// called only when some word is unmatched, since it may wait for them to
// open; nil for none); resultTokens is the result budget the whole result
// fits (see fit).
func Plan(ctx context.Context, ds Source, others func() ([]Source, []string), q, today, reason, traceID string, resultTokens int) *HostPlan {
	r := retrieve(ctx, ds, q, today)
	relevant, unmatched := r.match.Relevant, r.match.Unmatched
	if !relevant {
		unmatched = nil
	}
	unmatched, held, unsearched, holders := heldElsewhere(ctx, q, unmatched, others)
	var related []*retrieved
	var ls []Link
	for _, o := range holders[:min(len(holders), MaxCandidates-1)] {
		related = append(related, retrieve(ctx, o, q, today))
		ls = append(ls, links(ctx, r, related[len(related)-1])...)
	}
	return fit(resultTokens, 1, func(tokens int) *HostPlan {
		hp := &HostPlan{
			Kind: KindPlanItYourself, Question: q, Reason: reason, Today: today, HostContext: r.context(tokens), NoMatch: !relevant, Unmatched: unmatched, HeldElsewhere: held, NotSearched: unsearched,
			PlanGuide: ToolCall{Tool: "get_plan_schema", Arguments: map[string]any{"form": "guide"}},
			RunPlan:   ToolCall{Tool: "run_plan", Arguments: map[string]any{"datasource": ds.ID()}, Missing: []string{"plan"}},
			TraceID:   traceID,
		}
		for _, o := range related {
			hp.Related = append(hp.Related, HostRelated{HostContext: o.context(tokens / 2), Description: o.ds.Description()})
		}
		hp.Links = ls[:min(len(ls), maxLinks)]
		hp.Next = hostNext(hp)
		return hp
	})
}

// heldElsewhere splits unmatched, the words of q one datasource holds
// nothing of, into those no other holds either and those others hold,
// with the ids of the ones that do; unsearched are the others that could
// not be asked (said only beside words still unmatched), and holders the
// others holding any, most words first (then in others' order).
func heldElsewhere(ctx context.Context, q string, unmatched []string, others func() ([]Source, []string)) (rest []string, held []Held, unsearched []string, holders []Source) {
	if len(unmatched) == 0 || others == nil {
		return unmatched, nil, nil, nil
	}
	type match struct {
		src       Source
		unmatched []string
		holds     int
	}
	var matched []*match // each other datasource searched once
	open, unsearched := others()
	for _, o := range open {
		if m := o.Matches(ctx, q); m.Relevant {
			matched = append(matched, &match{src: o, unmatched: m.Unmatched})
		}
	}
	for _, w := range unmatched {
		h := Held{Word: w}
		for _, m := range matched {
			if !slices.Contains(m.unmatched, w) {
				h.Datasources = append(h.Datasources, m.src.ID())
				m.holds++
			}
		}
		if len(h.Datasources) > 0 {
			held = append(held, h)
		} else {
			rest = append(rest, w)
		}
	}
	if len(rest) == 0 {
		unsearched = nil
	}
	slices.SortStableFunc(matched, func(a, b *match) int { return b.holds - a.holds })
	for _, m := range matched {
		if m.holds > 0 {
			holders = append(holders, m.src)
		}
	}
	return rest, held, unsearched, holders
}

// Candidates is the plan-it-yourself result when several datasources may
// hold the answer: cands with their ranking scores.
func Candidates(ctx context.Context, q, today, reason, traceID string, cands []Source, scores []float64, resultTokens int) *HostPlan {
	rs := make([]*retrieved, len(cands))
	noMatch := true
	var unmatched []string // the words no candidate holds
	for i, ds := range cands {
		rs[i] = retrieve(ctx, ds, q, today)
		relevant, un := rs[i].match.Relevant, rs[i].match.Unmatched
		noMatch = noMatch && !relevant
		if i == 0 {
			unmatched = un
		} else {
			unmatched = slices.DeleteFunc(unmatched, func(w string) bool { return !slices.Contains(un, w) })
		}
	}
	if noMatch {
		unmatched = nil
	}
	var ls []Link
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			ls = append(ls, links(ctx, rs[i], rs[j])...)
		}
	}
	return fit(resultTokens, len(cands), func(tokens int) *HostPlan {
		hp := &HostPlan{
			Kind: KindPlanItYourself, Question: q, Reason: reason, Today: today, NoMatch: noMatch, Unmatched: unmatched,
			HostContext: HostContext{VerifiedQueries: []HostVerified{}, ContextTables: []string{}},
			PlanGuide:   ToolCall{Tool: "get_plan_schema", Arguments: map[string]any{"form": "guide"}},
			RunPlan:     ToolCall{Tool: "run_plan", Arguments: map[string]any{}, Missing: []string{"datasource", "plan"}},
			TraceID:     traceID,
		}
		for i, r := range rs {
			hp.Candidates = append(hp.Candidates, HostCandidate{HostContext: r.context(tokens),
				Description: cands[i].Description(), Score: round3(scores[i])})
		}
		if !noMatch {
			hp.Links = ls[:min(len(ls), maxLinks)]
		}
		hp.Next = hostNext(hp)
		return hp
	})
}

// ContextTokens is the first share of the result budget the schema
// context of one of n datasources may take: a quarter of the budget over
// all contexts, since the result carries each context twice (its JSON and
// its text), with the verified queries, calls and text around them.
func ContextTokens(budget, n int) int {
	if budget <= 0 {
		budget = config.DefaultResultTokens
	}
	return budget / 4 / max(n, 1)
}

// fit builds the result with each context at its first share and, while
// the whole result would not fit the budget, with smaller shares: the
// parts around the contexts (names, notes, verified queries) differ from
// question to question, so no fixed share is safe. A tool result carries
// the plan twice, its JSON and a text of the same parts (the text is
// JSON-quoted on the wire, so it costs about what the JSON does); the
// test is against the target tools cut every result to (97% of the
// budget) less an envelope. When even one table per context is too much,
// the smallest build stands and the tool layer refuses it as too large.
func fit(budget, n int, build func(tokens int) *HostPlan) *HostPlan {
	if budget <= 0 {
		budget = config.DefaultResultTokens
	}
	target := budget - budget*3/100 - resultEnvelopeTokens
	tokens := ContextTokens(budget, n)
	for {
		hp := build(tokens)
		b, err := json.Marshal(hp)
		if err != nil || 2*schemactx.ContextTokens(string(b)) <= target || tokens < minContextTokens {
			return hp
		}
		tokens = tokens * 3 / 4
	}
}

const (
	// resultEnvelopeTokens is what a tool result adds around its two
	// copies of the plan (content list, type and key names).
	resultEnvelopeTokens = 24
	// minContextTokens ends the shrinking: below it a context holds its
	// one leading table whatever the share.
	minContextTokens = 32
)

// retrieved is one datasource's retrieval for q, done once however
// often its context is cut.
type retrieved struct {
	ds       Source
	snap     *schema.Snapshot
	sctx     string
	verified []HostVerified
	visible  *schema.Snapshot
	match    Match
	newest   string
}

func retrieve(ctx context.Context, ds Source, q, today string) *retrieved {
	snap := ds.Retrieved(ctx, q)
	visible := ds.Visible(ctx)
	m := ds.Matches(ctx, q)
	return &retrieved{ds: ds, snap: snap, sctx: ds.SchemaContext(snap), verified: hostVerified(ctx, ds, q), visible: visible,
		match: m, newest: questionNewest(visible, m.Ranked, today)}
}

// newestOf is how many of the tables a question ranks best say when the
// data it asks about was taken.
const newestOf = 3

// questionNewest is newest over the question's best-ranked tables (ranked),
// else over every visible table: one table that runs ahead of the rest
// (contacts created into September beside invoices that end in June)
// told a host that "now" in the data was months after the facts it asked
// about, and it looked for a month's rate the data does not hold.
func questionNewest(visible *schema.Snapshot, ranked []string, today string) string {
	ranked = ranked[:min(len(ranked), newestOf)]
	var tables []schema.Table
	for _, t := range visible.Tables {
		if slices.Contains(ranked, visible.PlanName(&t)) {
			tables = append(tables, t)
		}
	}
	if n := newest(visible.WithTables(tables), today); n != "" {
		return n
	}
	return newest(visible, today)
}

// newest is HostContext.Newest of snap: the greatest profiled maximum of a
// date or timestamp column (or of text the profile reads as dates, of a
// number column of Unix times, of the Unix times a date column stores as
// numbers) that is not after today (a due date next year says nothing of
// when the data was taken), "" when none. A column that
// names when something ends or falls due (valid_to, end_date, expires_at,
// due) is left out: a tariff valid to next April, set long before, is no
// record of when the data was taken.
func newest(snap *schema.Snapshot, today string) string {
	best, where := "", ""
	for _, t := range snap.Tables {
		for _, c := range t.Columns {
			// dates kept as text (SQLite's '2024-03-31') count as dates,
			// and numbers that read as Unix times
			if c.Profile == nil || endsSomething(c.Name) {
				continue
			}
			var vs []string
			if _, to, _, _, ok := schemactx.EpochRange(&c); ok {
				vs = append(vs, to.Format("2006-01-02 15:04:05"))
			} else if c.Profile.Max != nil && (c.Type.IsTemporal() || c.Profile.Temporal != "") {
				vs = append(vs, fmt.Sprint(c.Profile.Max))
			}
			// the Unix times a date or timestamp column stores as numbers
			// (a loader wrote time() beside ISO text) are left out of its
			// range: the newest event may be one of them, or all are
			if _, _, to, _, _, ok := c.Profile.UnixTimes(); ok && c.Type.IsTemporal() {
				vs = append(vs, to.Format("2006-01-02 15:04:05"))
			}
			for _, v := range vs {
				if len(v) < 10 || v[:10] > today || v <= best {
					continue
				}
				best, where = v, snap.PlanName(&t)+"."+c.Name
			}
		}
	}
	if best == "" {
		return ""
	}
	return best + " in " + where
}

// endsSomething reports whether a column's name says when something ends
// or falls due rather than when it happened.
func endsSomething(name string) bool {
	for _, w := range lex.SplitWords(name) {
		switch strings.ToLower(w) {
		case "to", "until", "till", "end", "ends", "ending", "ended", "expiry", "expires", "expiration", "due", "deadline", "valid":
			return true
		}
	}
	return false
}

// context is the retrieved context within tokens: retrieval's tables
// from the best, as many as fit (a datasource without a retrieval index
// has its whole visible schema retrieved, which on a large catalog is far
// more than fits), and what was left out with the call that shows it.
func (r *retrieved) context(tokens int) HostContext {
	ds, snap, sctx := r.ds, r.snap, r.sctx
	var cut []string
	shown := snap
	if schemactx.ContextTokens(sctx) > tokens && len(snap.Tables) > 1 {
		// the context grows with its tables: the most leading tables that
		// fit, by bisection (a whole schema has thousands)
		render := func(n int) string {
			return ds.SchemaContext(snap.WithTables(snap.Tables[:n]))
		}
		n := sort.Search(len(snap.Tables), func(n int) bool { return schemactx.ContextTokens(render(n+1)) > tokens })
		n = max(n, 1)
		sctx = render(n)
		shown = snap.WithTables(snap.Tables[:n])
		for i := range snap.Tables[n:] {
			cut = append(cut, snap.PlanName(&snap.Tables[n+i]))
		}
	}
	visible := len(r.visible.Tables)
	hc := HostContext{Datasource: ds.ID(), Dialect: ds.Dialect(), VerifiedQueries: r.verified,
		SchemaContext: sctx, ContextTables: schemactx.TableNames(shown), ContextTokens: schemactx.ContextTokens(sctx),
		VisibleTables: visible, Newest: r.newest}
	hc.OmittedTables = max(visible-len(hc.ContextTables), 0)
	var columnsOf string
	hc.OmittedColumns, columnsOf = omittedColumns(r.visible, snap, hc.ContextTables)
	if len(cut) > maxHostCutTables {
		cut = cut[:maxHostCutTables]
	}
	if len(cut) > 0 {
		hc.CutTables = cut
		hc.More = &ToolCall{Tool: "describe_schema", Arguments: map[string]any{"datasource": ds.ID(), "tables": cut}}
	}
	var notes []string
	switch {
	case len(cut) > 0:
		notes = append(notes, fmt.Sprintf("%d of the %d tables you may see are not in schema_context: it holds the leading retrieved tables that fit its %d-token share of the result budget; the call in more (describe_schema with the %d cut_tables) shows the next ones, search_schema and describe_schema (filter, cursor) the others", hc.OmittedTables, visible, tokens, len(cut)))
	case hc.OmittedTables > 0:
		notes = append(notes, fmt.Sprintf("%d of the %d tables you may see are not in schema_context (retrieval kept those the question names best): search_schema with other words, or describe_schema with tables or a filter, shows others", hc.OmittedTables, visible))
	}
	if hc.OmittedColumns > 0 {
		// a host that sees cards without cards.name takes the context for
		// the table and plans around a column it does not know is there
		notes = append(notes, fmt.Sprintf("%d columns of the tables in schema_context are left out (retrieval kept those the question points to; %s): describe_schema with tables lists every column", hc.OmittedColumns, columnsOf))
	}
	hc.Omitted = strings.Join(notes, "; ")
	return hc
}

// omittedColumns counts the columns of the context's tables (names as
// plans write them) that the retrieved snapshot left out, and says of
// the first few tables how many of how many they show.
func omittedColumns(visible, retrieved *schema.Snapshot, tables []string) (int, string) {
	shown := map[string]int{}
	for i := range retrieved.Tables {
		shown[retrieved.PlanName(&retrieved.Tables[i])] = len(retrieved.Tables[i].Columns)
	}
	all := map[string]int{}
	for i := range visible.Tables {
		all[visible.PlanName(&visible.Tables[i])] = len(visible.Tables[i].Columns)
	}
	n := 0
	var of []string
	for _, t := range tables {
		has, ok := shown[t]
		if !ok || all[t] <= has {
			continue
		}
		n += all[t] - has
		if len(of) < maxOmittedColumnTables {
			of = append(of, fmt.Sprintf("%s shows %d of %d", t, has, all[t]))
		}
	}
	return n, strings.Join(of, ", ")
}

// maxOmittedColumnTables bounds the tables the omitted-columns note names.
const maxOmittedColumnTables = 4

// maxHostCutTables bounds the cut tables a context names.
const maxHostCutTables = 20

// hostNext is the one line that says what to do next.
func hostNext(hp *HostPlan) string {
	if hp.NoMatch && len(hp.Candidates) > 0 {
		// several datasources and none matched: the same warning, with
		// no claim that one of them may hold the answer
		return "Nothing any datasource holds matched the question: no table or column name, comment, sample or stored value of any of them shares a word with it. " + otherLanguage + "The data may not hold the answer: check the candidates' schema_context (describe_schema lists every table) and say so if nothing answers it, rather than answering from tables that do not. If one does answer it, write a plan over its schema_context (get_plan_schema gives the plan language) and call run_plan with that datasource and the plan."
	}
	if hp.NoMatch {
		return "Nothing the datasource holds matched the question: no table or column name, comment, sample or stored value shares a word with it. " + otherLanguage + "The data may not hold the answer: check schema_context (describe_schema lists every table) and say so if nothing answers it, rather than answering from tables that do not. " + planNext(hp)
	}
	var notes []string
	if len(hp.HeldElsewhere) > 0 {
		// first: it says where the answer's other half is
		var parts []string
		for _, h := range hp.HeldElsewhere {
			parts = append(parts, strconv.Quote(h.Word)+" ("+strings.Join(h.Datasources, ", ")+")")
		}
		notes = append(notes, "Words of the question this datasource holds nothing of are held by another: "+strings.Join(parts, ", ")+
			"; if the answer turns on them, "+relatedNext(hp))
	}
	if len(hp.Unmatched) > 0 {
		notes = append(notes, unmatchedNote(hp))
	}
	if len(hp.VerifiedQueries) > 0 && len(hp.Candidates) == 0 {
		// a verified query that matches comes first: its author answered
		// the question, whatever words the schema lacks
		return strings.Join(append([]string{planNext(hp)}, notes...), " ")
	}
	return strings.Join(append(notes, planNext(hp)), " ")
}

// relatedNext says where the other datasources' schemas are: in related
// (their contexts for the question), or, for a holder beyond those,
// search_schema.
func relatedNext(hp *HostPlan) string {
	var ids []string
	for _, r := range hp.Related {
		ids = append(ids, r.Datasource)
	}
	var rest []string
	for _, h := range hp.HeldElsewhere {
		for _, id := range h.Datasources {
			if !slices.Contains(ids, id) && !slices.Contains(rest, id) {
				rest = append(rest, id)
			}
		}
	}
	var out []string
	if len(ids) > 0 {
		out = append(out, "related holds the schema context of "+strings.Join(ids, ", ")+" for the question")
	}
	if len(rest) > 0 {
		out = append(out, "search_schema "+strings.Join(rest, ", "))
	}
	next := strings.Join(out, "; ") + ": plan each datasource's part and combine their rows with run_combined_plan (one plan per datasource and a combine plan over their rows)."
	if n := linkNote(hp.Links); n != "" {
		next += " " + n
	}
	return next
}

// otherLanguage is said of a question nothing matched, or most of whose
// words nothing holds (mostlyUnmatched): one asked in another language
// than the schema's names and values ("Quantos membros ativos há em
// Lisboa?" of a members table) matches nothing, or only its names and
// numbers ("Jazz"), and a host told only that the data may not hold the
// answer, or that "Kunden" names a fact the data does not store, said so.
const otherLanguage = "If the question is in another language than the schema's names and values, search_schema (or ask) again in the schema's words before concluding anything. "

// unmatchedNote says which words of the question nothing holds. The
// words were weighed beside others the datasource holds (a question none
// of whose words it holds is NoMatch), so the context matches those. A
// noun nothing holds names a fact the data would have to store: the host
// is told to say so unless the schema has a synonym; a verb or an
// adjective (lex.Descriptive: "refunded", "fastest") is weak evidence,
// often said by a column of another name, so the host is only told to
// look for it.
func unmatchedNote(hp *HostPlan) string {
	var facts, described []string
	for _, w := range hp.Unmatched {
		if lex.Descriptive(w) {
			described = append(described, strconv.Quote(w))
		} else {
			facts = append(facts, strconv.Quote(w))
		}
	}
	where := ""
	if len(hp.NotSearched) > 0 {
		where = " here (" + strings.Join(hp.NotSearched, ", ") + " not searched: still opening)"
	}
	matches := "the schema context matches the question's other words"
	if len(hp.Candidates) > 0 {
		matches = "the candidates' schema contexts match the question's other words"
	}
	var out []string
	if mostlyUnmatched(hp.Question, hp.Unmatched) {
		out = append(out, strings.TrimSpace(otherLanguage))
	}
	if len(facts) > 0 {
		out = append(out, "No table or column name, comment, sample or stored value holds "+strings.Join(facts, ", ")+where+" ("+matches+
			"): a measure a plan computes is fine, but if one names a fact the data would have to store (a reason, a kind of thing), look in schema_context for a synonym of it first; with none, that fact may not be stored: say so rather than answer without it.")
		where, matches = "", ""
	}
	if len(described) > 0 {
		m := ""
		if matches != "" {
			m = " (" + matches + ")"
		}
		out = append(out, "No table or column name, comment, sample or stored value spells "+strings.Join(described, ", ")+where+m+
			", but a column of another name may hold what it says (a date, a flag, a status, a synonym): look for one in schema_context before concluding the data does not hold it.")
	}
	return strings.Join(out, " ")
}

// mostlyUnmatched reports whether nothing holds half or more of q's
// words (of two letters or more, English function words aside): a
// question in another language than the schema's, whose names and
// numbers alone matched. An English question lacking a fact or two is
// not.
func mostlyUnmatched(q string, unmatched []string) bool {
	n := 0
	for _, w := range lex.Words(q) {
		if len([]rune(w)) >= 2 && !lex.StopWord(w) {
			n++
		}
	}
	return n > 0 && 2*len(unmatched) >= n
}

// planNext is hostNext for a question something matched.
func planNext(hp *HostPlan) string {
	var v *HostVerified
	if len(hp.VerifiedQueries) > 0 {
		v = &hp.VerifiedQueries[0]
	}
	switch {
	case len(hp.Candidates) > 0:
		return strings.TrimSpace("Several datasources may hold the answer: pick one of candidates, write a plan over its schema_context (get_plan_schema gives the plan language) and call run_plan with that datasource and the plan; when the answer needs rows from more than one, call run_combined_plan with one plan per datasource and a combine plan over their rows. " + linkNote(hp.Links))
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
func hostVerified(ctx context.Context, ds Source, q string) []HostVerified {
	out := []HostVerified{}
	cands, scores := ds.Verified(ctx, q)
	if len(cands) == 0 {
		return out
	}
	values := ds.Values(ctx, q)
	type scored struct {
		q     *curated.Query
		score float64
	}
	var hits []scored
	for i, c := range cands {
		if i < len(scores) && scores[i] > 0 && scores[i] >= ds.MinSimilarity() {
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

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// pickRatio is how far the best-ranked datasource must lead the second
// (score ratio) for host planning to pick it without a resolver model.
const pickRatio = 1.5

// Leads reports whether a ranking of datasources (scores best first, at
// least one) picks its top one without a resolver model: it is the only
// one, or it scores above zero and leads the next by pickRatio.
func Leads(scores []float64) bool {
	return len(scores) == 1 || scores[0] > 0 && (scores[1] == 0 || scores[0] >= pickRatio*scores[1])
}

// quote writes a name in double quotes, as the pipeline's messages do.
func quote(s string) string { return `"` + s + `"` }
