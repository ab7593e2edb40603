package values

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/nl2sql/nl2sql/index/datafile"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/index/places"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Doc is one distinct value of one column: the column by its table's and
// its own position in the snapshot, the value as stored. It is the data
// file's value (index/datafile), so a stored index's values are written
// and read back without a copy of them all.
type Doc = datafile.Value

// Hit is a stored value the question names, with the quality of the
// match: 1 exact, 0.9 stem, 0.7 fuzzy, times a weight that grows with the
// value's length (see matchWords), and how it matched ("exact", "stem",
// "fuzzy" or "prefix").
type Hit struct {
	Doc
	Quality float64
	Match   string
	doc     int // position in the index, the last tie-break
}

// Index is the value index of one snapshot: its value documents and the
// bleve index over their words. It is immutable once built or opened and
// safe for concurrent Match calls; Close releases the bleve index.
type Index struct {
	docs     []Doc // by their numeric id
	vals     bleve.Index
	searches memo // recent searches (memo.go)
	fetched  map[string][]string
	reused   int
	// Unlisted names the columns (table.column) whose values the Source
	// could not list: they keep their profile's samples only.
	Unlisted []string
}

// Options bound what Build fetches and indexes; all sizes must be set
// (package index supplies its defaults).
type Options struct {
	// Source, when set, supplies every distinct value of text columns with
	// at most MaxDistinct of them; nil indexes the profile's samples only.
	Source Source
	// MaxDistinct bounds the values fetched per column, MaxTotal those
	// fetched over all columns, MaxLen (bytes) the length of a value
	// indexed.
	MaxDistinct, MaxTotal, MaxLen int
	// Progress, when set, is told how many of the columns to fetch were
	// fetched.
	Progress func(done, total int)
	// Prior, when set, is an earlier build's Fetched: a column whose fetch
	// key is there takes those values instead of asking Source (reuse.go).
	Prior map[string][]string
}

// perBatch is how many value documents go to bleve in one batch: one
// batch of a large catalog builds one huge in-memory segment; small
// batches keep memory flat.
const perBatch = 5000

// valueColumns are the columns whose values are indexed: text columns
// that are not temporal (dates are compared by range, not spelled) and
// whose names do not say they hold secrets (lex.SecretColumn: their values
// are read from the database here, past the profile, so the check is
// needed here too).
func valueColumn(c schema.Column) bool {
	if c.Type != planast.TypeText && c.Type != planast.TypeUnknown {
		return false
	}
	if lex.SecretColumn(c.Name) {
		return false
	}
	return c.Profile == nil || c.Profile.Temporal == ""
}

// Build collects each text column's values of snap (all of them when the
// profile lists all or the Source can supply them, else the profile's
// samples) and indexes them, one bleve document per (column, value), at
// dir ("" keeps the index in memory). Fetching goes from the columns with
// the fewest distinct values up and stops at Options.MaxTotal, so a wide
// schema of high-cardinality text cannot exhaust memory. Errors: the
// Source's (wrapped with the column), bleve's.
func Build(ctx context.Context, snap *schema.Snapshot, opts Options, dir string) (*Index, error) {
	type colRef struct {
		t, c     int
		distinct int64 // -1 when not profiled
	}
	var fetch []colRef
	for ti, t := range snap.Tables {
		for ci, c := range t.Columns {
			if !valueColumn(c) {
				continue
			}
			p := c.Profile
			switch {
			case opts.Source == nil || t.Kind != schema.KindTable:
			case p == nil:
				fetch = append(fetch, colRef{ti, ci, -1})
			case !p.AllValues && p.DistinctCount > int64(len(p.SampleValues)) && p.DistinctCount <= int64(opts.MaxDistinct):
				fetch = append(fetch, colRef{ti, ci, p.DistinctCount})
			}
		}
	}
	sort.SliceStable(fetch, func(i, j int) bool { return fetch[i].distinct < fetch[j].distinct })
	x := &Index{fetched: map[string][]string{}}
	fetched := map[[2]int][]string{} // the values fetched, by column
	tkeys := map[int]string{}
	budget := opts.MaxTotal
	for i, f := range fetch {
		if budget <= 0 {
			break
		}
		if opts.Progress != nil && (i%100 == 0 || i == len(fetch)-1) {
			opts.Progress(i+1, len(fetch))
		}
		t := snap.Tables[f.t]
		c := t.Columns[f.c]
		tk, ok := tkeys[f.t]
		if !ok {
			tk = tableKey(t)
			tkeys[f.t] = tk
		}
		limit := min(opts.MaxDistinct, budget)
		key := fetchKey(tk, c.Name, limit)
		all, ok := opts.Prior[key]
		if ok && key != "" {
			x.reused++
		} else {
			got, err := opts.Source.DistinctValues(ctx, t.Schema, t.Name, c.Name, limit)
			if err != nil {
				if ctx.Err() != nil {
					return nil, fmt.Errorf("index: values of %s.%s: %w", t.Name, c.Name, err)
				}
				// a column whose values cannot be listed (PostgreSQL's point
				// has no equality for DISTINCT) keeps its profile's samples;
				// the other columns' values are indexed all the same, where
				// failing here left the whole datasource without search
				x.Unlisted = append(x.Unlisted, t.Name+"."+c.Name)
				continue
			}
			all = indexable(got, opts.MaxLen)
		}
		if key != "" {
			x.fetched[key] = all
		}
		budget -= len(all)
		fetched[[2]int{f.t, f.c}] = all
	}
	var err error
	if x.vals, err = bleve.NewUsing(dir, valueMapping(), scorch.Name, scorch.Name, nil); err != nil {
		return nil, fmt.Errorf("index: open bleve: %w", err)
	}
	// Each column's samples then fetched values, once each, go to bleve
	// perBatch documents at a time as they are made: a value's words are
	// not kept (Match splits the few it verifies again).
	b := x.vals.NewBatch()
	flush := func() error {
		if b.Size() == 0 {
			return nil
		}
		err := x.vals.Batch(b)
		b = x.vals.NewBatch()
		return err
	}
	// At most every sample and fetched value becomes a document: room for
	// them all at once spares the copies of a slice grown 250,000 times.
	n := 0
	for _, vs := range fetched {
		n += len(vs)
	}
	for _, t := range snap.Tables {
		for _, c := range t.Columns {
			if valueColumn(c) && c.Profile != nil {
				n += len(c.Profile.SampleValues)
			}
		}
	}
	x.docs = make([]Doc, 0, n)
	seen := map[string]bool{}
	for ti, t := range snap.Tables {
		for ci, c := range t.Columns {
			if !valueColumn(c) {
				continue
			}
			clear(seen)
			for _, list := range [][]string{Samples(c), fetched[[2]int{ti, ci}]} {
				for _, v := range list {
					if seen[v] || len(v) > opts.MaxLen {
						continue
					}
					seen[v] = true
					w := lex.Words(v)
					if len(w) == 0 {
						continue
					}
					x.docs = append(x.docs, Doc{Table: ti, Col: ci, Value: v})
					err := b.Index(valueID(len(x.docs)-1), valueDoc{V: valueText(w)})
					if err == nil && b.Size() == perBatch {
						err = flush()
					}
					if err != nil {
						x.Close()
						return nil, fmt.Errorf("index: %w", err)
					}
				}
			}
		}
	}
	if err := flush(); err != nil {
		x.Close()
		return nil, fmt.Errorf("index: %w", err)
	}
	return x, nil
}

// indexable keeps the values no longer than maxLen bytes (free text is
// not a literal anyone types): only those count against the budget and
// are recorded for reuse.
func indexable(vs []string, maxLen int) []string {
	out := vs[:0:0]
	for _, v := range vs {
		if len(v) <= maxLen {
			out = append(out, v)
		}
	}
	return out
}

// Open is the value index of docs (as Docs listed them when it was built)
// over their bleve index b, opened from storage; Close closes b.
func Open(b bleve.Index, docs []Doc) *Index {
	return &Index{docs: docs, vals: b}
}

// Docs are the value documents by their numeric id; read only.
func (x *Index) Docs() []Doc { return x.docs }

// Close releases the bleve index.
func (x *Index) Close() error { return x.vals.Close() }

// Samples are the profile's text sample values.
func Samples(c schema.Column) []string {
	if c.Profile == nil {
		return nil
	}
	var out []string
	for _, v := range c.Profile.SampleValues {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// valueMapping: values split on Unicode word boundaries and lower-cased,
// no stop words or stems (values are names), BM25 scoring. Searches ask
// terms of field "v" only, so no term positions are kept and there is no
// "_all" field: bleve made a location per word and an empty "_all" field
// per value, garbage a build paid for.
func valueMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	m.ScoringModel = bindex.BM25Scoring
	if err := m.AddCustomAnalyzer("value", map[string]any{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []any{lowercase.Name},
	}); err != nil {
		panic(err) // static configuration
	}
	m.DefaultAnalyzer = "value"
	dm := bleve.NewDocumentStaticMapping()
	fm := bleve.NewTextFieldMapping()
	fm.Analyzer = "value"
	fm.Store = false
	fm.IncludeInAll = false
	fm.IncludeTermVectors = false
	dm.AddFieldMappingsAt("v", fm)
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	m.DefaultMapping = dm
	return m
}

// valueDoc is what bleve maps of a value document: its field "v" (a
// struct rather than a map, which cost a few hundred bytes per value).
type valueDoc struct {
	V string `json:"v"`
}

func valueID(i int) string { return fmt.Sprintf("v/%08d", i) }

// valueText is what the value index holds of a value: its words, and for
// a value of several words also the words written together, so "acdc"
// finds AC/DC and "pg13" finds PG-13 (see joinedMatch).
func valueText(w []string) string {
	t := strings.Join(w, " ")
	if len(w) > 1 {
		t += " " + strings.Join(w, "")
	}
	return t
}

// joinedMatch reports whether the value's words written together equal
// some contiguous question words written together, with more than one
// word on at least one side: a name spelled with or without its
// separators ("ACDC" / "AC/DC", "pg 13" / "PG-13", "Mc Donald" /
// "McDonald"). Under four letters the join is too likely by chance.
func joinedMatch(vw, qw []string) bool {
	joined := strings.Join(vw, "")
	if len(joined) < 4 {
		return false
	}
	for i := range qw {
		n := 0
		for j := i; j < len(qw) && n < len(joined); j++ {
			n += len(qw[j])
			if n == len(joined) && (j > i || len(vw) > 1) && strings.Join(qw[i:j+1], "") == joined {
				return true
			}
		}
	}
	return false
}

// valueCandidates is how many value documents the full-text search
// proposes for verification.
const valueCandidates = 400

// Match finds stored values whose words occur, in order and
// contiguously, among the question's words: exactly, after stripping
// plural endings, with each word of five or more letters one edit away
// (two from nine letters), or as prefixes (see prefixWord); or that are
// one of the names of a country whose people a question word names
// (places.Names: "Canada", "CAN" for "Canadian"). Values made only of stop words or of one or two
// characters need an exact match. Candidates come from a fuzzy full-text
// query over the value index; the verification is done here. Only values
// of columns allow permits count. Hits are
// sorted by quality, then value document order. Without fuzzy the search
// proposes no candidate by edit distance (only exact, stem and prefix
// matches can be found).
func (x *Index) Match(ctx context.Context, question string, allow func(table, col int) bool, fuzzy bool) ([]Hit, error) {
	qw := lex.Words(question)
	if len(qw) == 0 || len(x.docs) == 0 {
		return nil, nil
	}
	countries, terms := countryNames(qw)
	ids, err := x.candidates(ctx, append(qw, terms...), fuzzy)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	qstem := make([]string, len(qw))
	for i, w := range qw {
		qstem[i] = lex.Singular(w)
	}
	var hits []Hit
	for _, i := range ids {
		v := x.docs[i]
		if !allow(v.Table, v.Col) {
			continue
		}
		vw := lex.Words(v.Value)
		q, how := matchWords(vw, qw, qstem)
		if q == 0 && namesCountry(vw, countries) {
			q, how = 0.85*valueWeight(vw), "country"
		}
		if q == 0 {
			continue
		}
		hits = append(hits, Hit{Doc: v, doc: i, Quality: q, Match: how})
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].Quality != hits[b].Quality {
			return hits[a].Quality > hits[b].Quality
		}
		return hits[a].doc < hits[b].doc
	})
	return hits, nil
}

// maxWordHits bounds the value documents HoldsWord reads for one word: a
// word more values hold than that is held.
const maxWordHits = 1000

// HoldsWord reports whether a stored value of a column allow permits holds
// word as one of its words, in the singular or as written: "Radio" of
// 'Sky Radio'. Match finds the values a question spells whole; a search
// for one word of a value must not be told the data never holds it.
func (x *Index) HoldsWord(ctx context.Context, word string, allow func(table, col int) bool) (bool, error) {
	res, err := x.wordSearch(ctx, word)
	if err != nil {
		return false, err
	}
	if res.Total > uint64(len(res.Hits)) {
		return true, nil
	}
	for _, h := range res.Hits {
		if i, ok := x.docIndex(h.ID); ok && allow(x.docs[i].Table, x.docs[i].Col) {
			return true, nil
		}
	}
	return false, nil
}

// WithWord is the stored values of columns allow permits that hold word
// as one of their words, as written or in the singular, at most max, in
// value document order: 'Morning Yoga' and 'Hot Yoga' for "yoga". Match
// finds only values the text spells whole, and a search for "yoga" was
// shown no class of a yoga timetable.
func (x *Index) WithWord(ctx context.Context, word string, allow func(table, col int) bool, max int) ([]Doc, error) {
	res, err := x.wordSearch(ctx, word)
	if err != nil {
		return nil, err
	}
	var idx []int
	for _, h := range res.Hits {
		if i, ok := x.docIndex(h.ID); ok && allow(x.docs[i].Table, x.docs[i].Col) {
			idx = append(idx, i)
		}
	}
	sort.Ints(idx)
	out := make([]Doc, 0, min(len(idx), max))
	for _, i := range idx[:min(len(idx), max)] {
		out = append(out, x.docs[i])
	}
	return out, nil
}

// wordSearch is the value documents holding word as one of their words,
// as written or in the singular (at most maxWordHits of them).
func (x *Index) wordSearch(ctx context.Context, word string) (*bleve.SearchResult, error) {
	w := lex.Fold(word)
	var qs []query.Query
	for _, t := range uniq([]string{w, lex.Singular(w)}) {
		q := bleve.NewTermQuery(t)
		q.SetField("v")
		qs = append(qs, q)
	}
	res, err := x.vals.SearchInContext(ctx, bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), maxWordHits, 0, false))
	if err != nil {
		return nil, fmt.Errorf("index: value search: %w", err)
	}
	return res, nil
}

// docIndex is the position in x.docs of the value document with bleve id
// (valueID's form), false for an id of no document.
func (x *Index) docIndex(id string) (int, bool) {
	var i int
	if _, err := fmt.Sscanf(id, "v/%d", &i); err != nil || i < 0 || i >= len(x.docs) {
		return 0, false
	}
	return i, true
}

// matchWords scores value words vw against question words: 0 when they do
// not occur. The score grows with the matched length, so "New York City"
// outranks "York".
func matchWords(vw, qw, qstem []string) (float64, string) {
	trivial := true
	for _, w := range vw {
		if !lex.StopWord(w) && len(w) > 2 {
			trivial = false
		}
	}
	weight := valueWeight(vw)
	if lex.ContainsSeq(qw, vw, func(a, b string) bool { return a == b }) {
		return weight, "exact"
	}
	if joinedMatch(vw, qw) {
		return 0.95 * weight, "exact"
	}
	if trivial {
		return 0, ""
	}
	if lex.ContainsSeq(qstem, vw, func(a, b string) bool { return a == lex.Singular(b) }) {
		return 0.9 * weight, "stem"
	}
	if lex.ContainsSeq(qw, vw, fuzzyWord) {
		return 0.7 * weight, "fuzzy"
	}
	if lex.ContainsSeq(qw, vw, prefixWord) {
		return 0.6 * weight, "prefix"
	}
	return 0, ""
}

// valueWeight grows with a value's length, so "New York City" outranks
// "York".
func valueWeight(vw []string) float64 {
	chars := 0
	for _, w := range vw {
		chars += len(w)
	}
	return 1 + 0.05*float64(min(chars, 20))
}

// countryNames is, for each question word naming a country's people
// ("canadian"), the words of each name the country may be stored under
// (places.Names), and all their words for the candidate search.
func countryNames(qw []string) (names [][]string, terms []string) {
	for _, w := range qw {
		for _, n := range places.Names(w) {
			nw := lex.Words(n)
			names = append(names, nw)
			terms = append(terms, nw...)
		}
	}
	return names, terms
}

// namesCountry reports whether a value's words are one of the names, whole:
// "Canada" for "Canadian", never "United" of "United Kingdom".
func namesCountry(vw []string, names [][]string) bool {
	for _, n := range names {
		if slices.Equal(vw, n) {
			return true
		}
	}
	return false
}

// prefixWord: the value word, of four or more letters, begins the
// question word, which is at most three letters longer ("asia" in "asian",
// "europe" in "european").
func prefixWord(q, v string) bool {
	n, m := len([]rune(v)), len([]rune(q))
	return n >= 4 && m > n && m-n <= 3 && strings.HasPrefix(q, v)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func fuzzyWord(q, v string) bool {
	if q == v {
		return true
	}
	n := len([]rune(v))
	switch {
	case n >= 9:
		return lex.EditDistanceAtMost(q, v, 2)
	case n >= 5:
		return lex.EditDistanceAtMost(q, v, 1)
	}
	return false
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
