package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
)

// Field boosts of the full-text query: a document's own name matters most,
// the table a column belongs to and its comment next, the sibling column
// names of a table document and profile samples least.
var fieldBoosts = []struct {
	field string
	boost float64
}{{"name", 2}, {"table", 1}, {"text", 1}, {"cols", 0.3}, {"samples", 0.5}}

// ranked is one document of a ranking with its score.
type ranked struct {
	doc   int // index into ix.docs
	score float64
}

// bm25Rank searches the schema documents with the question (an OR of its
// analysed words over every field, boosted per fieldBoosts, each field
// as acc permits it: access.fieldQuery) and returns the documents that
// matched, allowed ones only, best first; equal scores
// (rounded to 1e-9, so summation order cannot reorder them) by id.
func (ix *Index) bm25Rank(ctx context.Context, question string, acc access) ([]ranked, error) {
	ok := acc.doc
	var qs []query.Query
	for _, f := range fieldBoosts {
		m := bleve.NewMatchQuery(question)
		m.SetField(f.field)
		m.SetBoost(f.boost)
		qs = append(qs, acc.fieldQuery(f.field, m))
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), len(ix.docs), 0, false)
	res, err := ix.text.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	var out []ranked
	for _, h := range res.Hits {
		i, found := ix.byID[h.ID]
		if !found || !ok[i] || h.Score <= 0 {
			continue
		}
		out = append(out, ranked{i, round9(h.Score)})
	}
	sortRanked(out)
	return out, nil
}

// vectorRank embeds the question and ranks every allowed document by exact
// cosine similarity (a full scan, no approximate index), ties by id.
func (ix *Index) vectorRank(ctx context.Context, question string, ok []bool) ([]ranked, error) {
	if len(ix.vecs) == 0 {
		return nil, nil
	}
	qv, err := embedAll(ctx, ix.emb, []string{question}, 1)
	if err != nil {
		return nil, err
	}
	if len(qv[0]) != ix.dims {
		return nil, fmt.Errorf("index: question vector has %d dimensions, documents %d", len(qv[0]), ix.dims)
	}
	return cosineRank(qv[0], ix.vecs, ok), nil
}

// cosineRank scores each allowed vector against q (all unit length) and
// sorts best first, ties by position (documents are in id order).
func cosineRank(q []float32, vecs []vector, ok []bool) []ranked {
	out := make([]ranked, 0, len(vecs))
	for i, v := range vecs {
		if ok != nil && !ok[i] {
			continue
		}
		out = append(out, ranked{i, round9(dotSparse(q, v))})
	}
	sortRanked(out)
	return out
}

// sortRanked orders by score, best first, then by document: a total
// order (documents are distinct), so any sort gives the same result.
func sortRanked(rs []ranked) {
	slices.SortFunc(rs, func(a, b ranked) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
}

func round9(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// rrf fuses rankings: each document's score is the sum over the rankings
// that hold it of weight/(k + rank), rank from 1 (weights[i] for lists[i]).
// The result holds every document of any ranking, best first, ties by
// document order.
func rrf(k int, weights []float64, lists ...[]ranked) []ranked {
	score := map[int]float64{}
	for i, l := range lists {
		for r, x := range l {
			score[x.doc] += weights[i] / float64(k+r+1)
		}
	}
	out := make([]ranked, 0, len(score))
	for d, s := range score {
		out = append(out, ranked{d, round9(s)})
	}
	sortRanked(out)
	return out
}

// mentionRank ranks the allowed documents whose name the question spells
// out: "table.column" (4), an identifier-like name as written
// ("first_name", "positionOrder", "Free Meal Count (K-12)": any name that
// is not one plain word; 3), or a name of two or more words as a phrase
// ("first name", plurals aside; 2), or a column name that shortens words
// the question uses ("Fname" ← "first name", "surname" ← "name"; see
// abbreviates; 1). Plain one-word names are otherwise left to BM25.
// Matching is case- and accent-insensitive and needs word boundaries. A
// column name that several tables share ("raceId") counts for the table
// whose primary key it is, else only when at most two tables share it.
func (ix *Index) mentionRank(question string, ok []bool) []ranked {
	ql := lex.Fold(question)
	qstem := lex.Words(question)
	imp := implied(qstem)
	var content []string // qstem without stop words, for abbreviates
	for i, w := range qstem {
		qstem[i] = lex.Singular(w)
		if !lex.StopWord(w) {
			content = append(content, qstem[i])
		}
	}
	var out []ranked
	for i, d := range ix.docs {
		if !ok[i] {
			continue
		}
		t := ix.snap.Tables[d.table]
		name := t.Name
		if d.col >= 0 {
			name = t.Columns[d.col].Name
		}
		raw := lex.Fold(name)
		w := ix.names.table[d.table] // split once per index; shared, so read only
		if d.col >= 0 {
			w = ix.names.column[d.table][d.col]
		}
		score := 0.0
		switch {
		case d.col >= 0 && sqlscan.ContainsWord(ql, lex.Fold(t.Name)+"."+raw):
			score = 4
		case !plainWord(name) && sqlscan.ContainsWord(ql, raw):
			score = 3
		case len(w) >= 2:
			if lex.ContainsSeq(qstem, w, func(a, b string) bool { return a == lex.Singular(b) }) {
				score = 2
			}
		}
		if score == 0 && d.col >= 0 && lex.Abbreviates(w, content) {
			score = 1
		}
		if score == 0 && d.col >= 0 && impliesName(w, imp) {
			score = 1
		}
		if score > 0 {
			out = append(out, ranked{i, score})
		}
	}
	// Resolve shared column names.
	byName := map[string][]int{}
	for k, r := range out {
		if d := ix.docs[r.doc]; d.col >= 0 && r.score < 4 {
			n := lex.Fold(ix.snap.Tables[d.table].Columns[d.col].Name)
			byName[n] = append(byName[n], k)
		}
	}
	drop := map[int]bool{}
	for _, ks := range byName {
		if len(ks) < 2 {
			continue
		}
		var pk []int
		for _, k := range ks {
			d := ix.docs[out[k].doc]
			if slices.Contains(ix.keys[d.table], d.col) {
				pk = append(pk, k)
			}
		}
		for _, k := range ks {
			if (len(pk) > 0 && !slices.Contains(pk, k)) || (len(pk) == 0 && len(ks) > 2) {
				drop[k] = true
			}
		}
	}
	kept := out[:0]
	for k, r := range out {
		if !drop[k] {
			kept = append(kept, r)
		}
	}
	sortRanked(kept)
	return kept
}

// plainWord reports whether name is one lower-case (or capitalised) word
// of letters: "name", "Name"; not "first_name", "FirstName", "A2".
func plainWord(name string) bool {
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z':
		case r >= 'A' && r <= 'Z' && i == 0:
		default:
			if !unicode.IsLetter(r) || unicode.IsUpper(r) {
				return false
			}
		}
	}
	return name != ""
}
