package values

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/nl2sql/nl2sql/index/lex"
)

// memoMax bounds the questions whose value search an index remembers;
// past it the memory starts over.
const memoMax = 1024

// memo remembers the candidate value documents of recent questions.
// The full-text search behind them (fuzzy terms over every stored value)
// was a fifth of the CPU of an ask answered from the plan cache, where the
// verified-query step matches the same question's values on every call.
// An index never changes once built, so the candidates of the same words
// are the same; who may see which column is applied after, per call.
type memo struct {
	mu  sync.Mutex
	ids map[string][]int
}

// candidates is the value documents the full-text search proposes
// for question words qw, best first (see Match), from the memo when
// these words were searched before. The slice is shared: read only.
func (x *Index) candidates(ctx context.Context, qw []string, fuzzy bool) ([]int, error) {
	key := strings.Join(qw, "\x00")
	if !fuzzy {
		key = "exact\x01" + key
	}
	m := &x.searches
	m.mu.Lock()
	ids, ok := m.ids[key]
	m.mu.Unlock()
	if ok {
		return ids, nil
	}
	ids, err := x.search(ctx, qw, fuzzy)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.ids == nil || len(m.ids) >= memoMax {
		m.ids = map[string][]int{}
	}
	m.ids[key] = ids
	m.mu.Unlock()
	return ids, nil
}

// search runs the full-text search of Match: each word that is
// not a stop word, its singular and its prefixes as terms, words of five
// letters or more also fuzzily when fuzzy is true; at most valueCandidates
// documents by score, then id.
func (x *Index) search(ctx context.Context, qw []string, fuzzy bool) ([]int, error) {
	var qs []query.Query
	terms := map[string]bool{}
	for _, w := range uniq(qw) {
		if lex.StopWord(w) {
			continue
		}
		terms[w], terms[lex.Singular(w)] = true, true
		rs := []rune(w)
		for n := max(4, len(rs)-3); n < len(rs); n++ {
			terms[string(rs[:n])] = true // "asia" for "asian"
		}
		if n := len(rs); fuzzy && n >= 5 {
			f := bleve.NewFuzzyQuery(w)
			f.SetField("v")
			f.SetFuzziness(min(2, 1+(n-5)/4)) // 1 from five letters, 2 from nine
			qs = append(qs, f)
		}
	}
	for i := 0; i+1 < len(qw); i++ {
		// "ac dc" asks for ACDC too: adjacent words written together, as
		// valueText indexes several-word values
		for j := i + 1; j < len(qw) && j < i+3; j++ {
			if w := strings.Join(qw[i:j+1], ""); len(w) >= 4 {
				terms[w] = true
			}
		}
	}
	for _, t := range sortedKeys(terms) {
		q := bleve.NewTermQuery(t)
		q.SetField("v")
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), valueCandidates, 0, false)
	req.SortBy([]string{"-_score", "_id"})
	res, err := x.vals.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index: value search: %w", err)
	}
	ids := []int{}
	for _, h := range res.Hits {
		if i, ok := x.docIndex(h.ID); ok {
			ids = append(ids, i)
		}
	}
	return ids, nil
}
