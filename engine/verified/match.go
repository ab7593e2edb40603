package verified

import (
	"context"
	"sync"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/phrases"
)

// phraseMatcher is the verified-query matcher of Ask: the accepted queries'
// example questions and descriptions in an phrases.PhraseIndex (the
// retrieval index's full-text analysis, bounded IDF-weighted similarity;
// see there), each query scored by its best phrase. It implements
// curated.Matcher; the threshold is the curated file's min_similarity.
type phraseMatcher struct {
	ctx    context.Context
	ix     *phrases.PhraseIndex
	values []string // stored values the question names (index.Index.Values)
}

// Scores implements curated.Matcher. A search error scores every
// candidate 0 (the generated path runs).
func (m phraseMatcher) Scores(question string, candidates []*curated.Query) []float64 {
	keys := map[string]bool{}
	for _, c := range candidates {
		keys[c.ID] = true
	}
	out := make([]float64, len(candidates))
	scores, err := m.ix.Match(m.ctx, question, keys, m.values)
	if err != nil {
		return out
	}
	byKey := map[string]float64{}
	for _, s := range scores {
		byKey[s.Key] = s.Score
	}
	for i, c := range candidates {
		out[i] = byKey[c.ID]
	}
	return out
}

// minPhraseValue is the shortest stored value (bytes) taken as a slot of a
// verified query's phrase when it is not a parameter's example: short
// values ("One", a track) are too often ordinary words.
const minPhraseValue = 4

// verifiedPhrases lists the questions and description of every accepted
// verified query on datasource ds as phrases keyed by the query id. A
// phrase's slot values are its parameters' examples and choices and, when
// ds has a retrieval index, the stored values its text names exactly
// ("Brazil" in "Which customers are in Brazil?"; see minPhraseValue). The
// question's fillers are likewise only exact or plural-form matches: a
// fuzzy one ("released" near a track named "Release") is a word, not a
// value.
func verifiedPhrases(ctx context.Context, set *curated.Set, ds Source) []phrases.Phrase {
	var out []phrases.Phrase
	for _, q := range set.Queries() {
		if q.Datasource != ds.ID {
			continue
		}
		var examples []string
		for _, p := range q.Params {
			if s, ok := p.Example.(string); ok && s != "" {
				examples = append(examples, s)
			}
			examples = append(examples, p.Choices...)
		}
		for _, text := range append(append([]string(nil), q.Questions...), q.Description) {
			if text == "" {
				continue
			}
			vals := append([]string(nil), examples...)
			if ds.Index != nil && len(q.Params) > 0 {
				found, _ := ds.Index.ExactValues(ctx, text, nil)
				for _, v := range found {
					if v.Match == "exact" && len(v.Value) >= minPhraseValue {
						vals = append(vals, v.Value)
					}
				}
			}
			out = append(out, phrases.Phrase{Key: q.ID, Text: text, Values: vals})
		}
	}
	return out
}

// Source is one datasource as the matcher reads it: its id, the
// fingerprint of its snapshot, and its retrieval index (nil without one).
type Source struct {
	ID      string
	Version string
	Index   *index.Index
}

// Matchers holds the phrase index of each datasource's verified
// queries, built on first use and again when the datasource's snapshot
// changes (its stored values may have). The zero value is ready.
type Matchers struct {
	mu   sync.Mutex
	byDS map[string]phraseEntry
}

type phraseEntry struct {
	version string
	ix      *phrases.PhraseIndex
}

// phraseIndex returns ds's phrase index.
func (m *Matchers) phraseIndex(ctx context.Context, set *curated.Set, ds Source) (*phrases.PhraseIndex, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if pe, ok := m.byDS[ds.ID]; ok && pe.version == ds.Version {
		return pe.ix, nil
	}
	ix, err := phrases.BuildPhrases(verifiedPhrases(ctx, set, ds))
	if err != nil {
		return nil, err
	}
	if m.byDS == nil {
		m.byDS = map[string]phraseEntry{}
	}
	if old, ok := m.byDS[ds.ID]; ok {
		old.ix.Close()
	}
	m.byDS[ds.ID] = phraseEntry{version: ds.Version, ix: ix}
	return ix, nil
}

// Matcher returns the matcher of set's queries for one question on ds:
// ds's phrase index with the stored values the question names (through
// ds's retrieval index, within allow, the caller's scope) as slot
// fillers. When the phrase index cannot be built, curated's word-overlap
// matcher serves, and err says why (for the log).
func (m *Matchers) Matcher(ctx context.Context, set *curated.Set, ds Source, question string, allow index.Allow) (curated.Matcher, error) {
	ix, err := m.phraseIndex(ctx, set, ds)
	if err != nil {
		return curated.TokenMatcher{}, err
	}
	return phraseMatcher{ctx: ctx, ix: ix, values: NamedValues(ctx, ds.Index, question, allow)}, nil
}

// NamedValues is the stored values question names exactly (or in a
// plural form) within allow, through idx (none when idx is nil). A fuzzy
// match is a word, not a value.
func NamedValues(ctx context.Context, idx *index.Index, question string, allow index.Allow) []string {
	var values []string
	if idx != nil {
		if vals, err := idx.Values(ctx, question, allow); err == nil {
			for _, v := range vals {
				if v.Match == "exact" || v.Match == "stem" {
					values = append(values, v.Value)
				}
			}
		}
	}
	return values
}
