package curated

import (
	"context"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/scope"
)

// Matcher scores how closely a question matches each candidate verified
// query, in [0, 1] (1: the same question). Implementations must be
// deterministic. The engine matches through the retrieval index
// (engine/verified/match.go: phrases.PhraseIndex in index/phrases, whose stored-value slots
// let "Rock" stand where an example said "Jazz"); TokenMatcher is the
// fallback and what Match uses for a nil Matcher.
type Matcher interface {
	Scores(question string, candidates []*Query) []float64
}

// TokenMatcher scores by normalised token overlap: the Jaccard similarity
// |A∩B| / |A∪B| of the question's word set and each of the candidate's
// questions and its description, taking the best. Words are lower-cased
// letters and digits, plurals reduced (sales → sale), with stop words and
// numbers dropped (a unit glued to one kept: "km" of "4km"), so "revenue by country in 2023" matches "What was
// revenue by country in 2024?" at 1.0.
type TokenMatcher struct{}

// Scores implements Matcher.
func (TokenMatcher) Scores(question string, candidates []*Query) []float64 {
	qs := tokenSet(question)
	out := make([]float64, len(candidates))
	for i, c := range candidates {
		for _, text := range append(append([]string(nil), c.Questions...), c.Description) {
			if s := jaccard(qs, tokenSet(text)); s > out[i] {
				out[i] = s
			}
		}
	}
	return out
}

var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of in on at to for from by per with and or is are was were be been
		what which who whom how many much show me list give get tell find i we you our my your it its this that these those
		do does did please all each every there their them than as into about`) {
		stopWords[w] = true
	}
}

func tokenSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if unit, isNumber := lex.NumberUnit(w); isNumber {
			w = unit // "4km", the "5km" of "4.5km": a value and its unit
		}
		if w == "" || stopWords[w] {
			continue
		}
		set[singular(w)] = true
	}
	return set
}

func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// Runnable returns the accepted queries on datasource ds (every one when
// ds is "") that sc may run: it reaches the datasource, may read every
// table and column the query reads, and any row filters apply. This is
// what list_verified_queries lists and what Match considers.
func (s *Set) Runnable(sc *scope.Scope, ds string) []*Query {
	var out []*Query
	for _, q := range s.Queries() {
		if ds != "" && q.Datasource != ds {
			continue
		}
		if q.runnable(sc) {
			out = append(out, q)
		}
	}
	return out
}

// runnable: sc may run q and any row filters apply.
func (q *Query) runnable(sc *scope.Scope) bool {
	if q.access(sc) != nil {
		return false
	}
	_, err := q.wrap(sc)
	return err == nil
}

// Match returns the candidate that best matches question when its score
// reaches s.MinSimilarity (ties go to the earlier candidate); false
// otherwise. m nil means TokenMatcher. Pass s.Runnable(sc, ds) as
// candidates so that a caller is never matched to a query it may not run.
func (s *Set) Match(m Matcher, question string, candidates []*Query) (*Query, float64, bool) {
	if m == nil {
		m = TokenMatcher{}
	}
	if len(candidates) == 0 {
		return nil, 0, false
	}
	scores := m.Scores(question, candidates)
	best := -1
	for i, sc := range scores {
		if i < len(candidates) && (best < 0 || sc > scores[best]) {
			best = i
		}
	}
	if best < 0 || scores[best] < s.MinSimilarity || scores[best] <= 0 {
		return nil, scores[max(best, 0)], false
	}
	return candidates[best], scores[best], true
}

// Filler asks the model for a matched query's parameter values: it returns
// one JSON object (see ParamRequest). The engine implements it with its
// LLM client (response format: req.Schema).
type Filler interface {
	FillParams(ctx context.Context, req ParamRequest) ([]byte, error)
}

// Answer is the verified path of ask.
type Answer struct {
	Query  *Query
	Score  float64
	Params map[string]any
	*Execution
}

// Answer tries to answer question on datasource ds from a verified query:
// it matches among the queries sc may run; without a match it returns
// (nil, false, nil) and the generated path runs. With one, the model only
// fills the parameters (f; skipped when the query has none), Bind checks
// them, and Run executes the verified SQL: no planner call. A match whose
// parameters fail returns (nil, true, err) with CodeParams: the engine
// may ask again or fall back to the generated path.
func (s *Set) Answer(ctx context.Context, m Matcher, f Filler, src Source, ds, question string, sc *scope.Scope, maxRows int, gates ...Gate) (*Answer, bool, error) {
	q, score, ok := s.Match(m, question, s.Runnable(sc, ds))
	if !ok {
		return nil, false, nil
	}
	params := map[string]any{}
	if len(q.Params) > 0 {
		raw, err := f.FillParams(ctx, NewParamRequest(q, question))
		if err != nil {
			return nil, true, err
		}
		if params, err = DecodeParams(raw); err != nil {
			return nil, true, err
		}
	}
	ex, err := Run(ctx, src, q, params, sc, maxRows, gates...)
	if err != nil {
		return nil, true, err
	}
	return &Answer{Query: q, Score: score, Params: params, Execution: ex}, true, nil
}
