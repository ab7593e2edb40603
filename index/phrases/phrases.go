package phrases

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/nl2sql/nl2sql/index/lex"
)

// Phrase is one short text to match questions against, such as one of a
// verified query's example questions or its description. Key groups the
// phrases of one item (a verified query id): PhraseIndex.Match scores an
// item by its best phrase.
type Phrase struct {
	Key  string
	Text string
	// Values are example values of the item's parameters ("Jazz" in
	// "Which tracks are in the Jazz genre?"): where one occurs in Text, its
	// words are a slot, left out of the phrase's terms, that a value the
	// question names may fill (see PhraseIndex.Match).
	Values []string
}

// PhraseScore is an item's similarity to a question, in [0, 1].
type PhraseScore struct {
	Key   string
	Score float64
}

// PhraseIndex matches questions against phrases with the retrieval index's
// full-text machinery: the phrases are documents of an in-memory bleve
// (scorch) index under the schema index's English analysis (possessives,
// lower case, stop words, Porter stems); a question's candidates are the
// documents its BM25 query finds, and each candidate's score is the
// IDF-weighted Jaccard similarity of the two analysed term sets,
//
//	sim(Q, D) = Σ_{t ∈ Q∩D} idf(t) / Σ_{t ∈ Q∪D} idf(t),  idf(t) = ln(1 + (N+1)/(df(t)+0.5))
//
// over the N phrases (a term no phrase has gets the largest idf, so a
// question's own unmatched words weigh most against it). Unlike a BM25
// score this is bounded (1 for the same words, 0 for none shared) and so
// can be held to a fixed threshold; the IDF weighting makes words every
// phrase shares ("revenue" in a catalogue of revenue queries) count less
// than the words that tell the phrases apart. Numbers (lex.NumberUnit:
// "2023", "4.5", "4,5", "1,200") are left out on both sides, a unit glued
// to one kept as its word: they are parameter values ("in 2023" matches
// "in 2024", "longer than 4.5km" matches "longer than 4 km"). Ties are broken by key; the same phrases and question always
// give the same scores.
type PhraseIndex struct {
	b     bleve.Index
	docs  []phraseDoc
	df    map[string]int
	nDocs int
}

type phraseDoc struct {
	key   string
	terms map[string]bool
	slots bool // the phrase has a parameter value's slot
}

// BuildPhrases indexes phrases (an empty list gives an index that matches
// nothing). Errors: bleve's.
func BuildPhrases(phrases []Phrase) (*PhraseIndex, error) {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName
	dm := bleve.NewDocumentStaticMapping()
	fm := bleve.NewTextFieldMapping()
	fm.Analyzer = en.AnalyzerName
	fm.Store = false
	fm.IncludeInAll = false
	dm.AddFieldMappingsAt("text", fm)
	m.DefaultMapping = dm
	b, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("index: open bleve: %w", err)
	}
	p := &PhraseIndex{b: b, df: map[string]int{}}
	batch := b.NewBatch()
	for i, ph := range phrases {
		terms := p.terms(ph.Text)
		slots := false
		for _, v := range ph.Values {
			vt := p.terms(v)
			if len(vt) > 0 && containsAll(terms, vt) {
				slots = true
				for t := range vt {
					delete(terms, t)
				}
			}
		}
		p.docs = append(p.docs, phraseDoc{key: ph.Key, terms: terms, slots: slots})
		for t := range terms {
			p.df[t]++
		}
		if err := batch.Index(fmt.Sprintf("p/%08d", i), map[string]any{"text": ph.Text}); err != nil {
			b.Close()
			return nil, fmt.Errorf("index: phrase %d: %w", i, err)
		}
	}
	if err := b.Batch(batch); err != nil {
		b.Close()
		return nil, fmt.Errorf("index: phrases: %w", err)
	}
	p.nDocs = len(phrases)
	return p, nil
}

// terms analyses text as the index does, numbers left out (lex.NumberUnit:
// digits, decimals, thousands; a unit glued to one is kept as its word).
func (p *PhraseIndex) terms(text string) map[string]bool {
	out := map[string]bool{}
	an := p.b.Mapping().AnalyzerNamed(en.AnalyzerName)
	for _, tok := range an.Analyze([]byte(text)) {
		t := string(tok.Term)
		if unit, isNumber := lex.NumberUnit(t); isNumber {
			// "4.5", "4,5" and "4.5km" are a value as "4" and "4 km" are:
			// the unit is a word of the question, the number is not
			for u := range p.terms(unit) {
				out[u] = true
			}
			continue
		}
		if strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
			continue
		}
		out[t] = true
	}
	return out
}

func (p *PhraseIndex) idf(t string) float64 {
	return math.Log(1 + float64(p.nDocs+1)/(float64(p.df[t])+0.5))
}

func containsAll(set, sub map[string]bool) bool {
	for t := range sub {
		if !set[t] {
			return false
		}
	}
	return true
}

// similarity is the IDF-weighted Jaccard similarity of two term sets; a
// question term in fill is left out when the phrase has a slot (it is the
// parameter's value).
func (p *PhraseIndex) similarity(q, d map[string]bool, slots bool, fill map[string]bool) float64 {
	var inter, union float64
	for t := range q {
		if slots && fill[t] && !d[t] {
			continue
		}
		w := p.idf(t)
		union += w
		if d[t] {
			inter += w
		}
	}
	for t := range d {
		if !q[t] {
			union += p.idf(t)
		}
	}
	if union == 0 {
		return 0
	}
	return inter / union
}

// Match scores the items (keys) whose phrases the question's BM25 query
// finds, best first, ties by key; keys limits the answer to those keys
// (nil: all). values are the stored values the question names (the schema
// index's Index.Values): their words fill a phrase's slot, so "Which
// tracks are in the Rock genre?" matches "Which tracks are in the Jazz
// genre?" (Jazz a parameter's example) fully when Rock is a stored genre,
// while a word that names no stored value ("country" in "customers in each
// country") still counts against the match. Errors: ctx's, bleve's.
func (p *PhraseIndex) Match(ctx context.Context, question string, keys map[string]bool, values []string) ([]PhraseScore, error) {
	if p == nil || p.nDocs == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	qt := p.terms(question)
	if len(qt) == 0 {
		return nil, nil
	}
	var qs []query.Query
	for t := range qt {
		tq := bleve.NewTermQuery(t)
		tq.SetField("text")
		qs = append(qs, tq)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), p.nDocs, 0, false)
	res, err := p.b.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index: phrase search: %w", err)
	}
	fill := map[string]bool{}
	for _, v := range values {
		for t := range p.terms(v) {
			fill[t] = true
		}
	}
	best := map[string]float64{}
	for _, h := range res.Hits {
		var i int
		if _, err := fmt.Sscanf(h.ID, "p/%d", &i); err != nil || i < 0 || i >= len(p.docs) {
			continue
		}
		d := p.docs[i]
		if keys != nil && !keys[d.key] {
			continue
		}
		if s := p.similarity(qt, d.terms, d.slots, fill); s > best[d.key] {
			best[d.key] = s
		}
	}
	out := make([]PhraseScore, 0, len(best))
	for k, s := range best {
		out = append(out, PhraseScore{Key: k, Score: math.Round(s*1e9) / 1e9})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].Key < out[j].Key
	})
	return out, nil
}

// Close releases the bleve index.
func (p *PhraseIndex) Close() error {
	if p == nil || p.b == nil {
		return nil
	}
	return p.b.Close()
}
