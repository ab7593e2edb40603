package index

import (
	"context"
	"errors"
	"slices"
	"sort"

	"github.com/nl2sql/nl2sql/index/values"
)

// Value is a stored value found in the question: Value is the exact stored
// spelling of column Schema.Table.Column.
type Value struct {
	Schema string `json:"schema"`
	Table  string `json:"table"`
	Column string `json:"column"`
	Value  string `json:"value"`
	// Match is "exact" (same words, case, accents and separators aside:
	// "ACDC" for AC/DC), "stem"
	// (plural or possessive forms differ), "fuzzy" (a word one or two
	// edits away), "prefix" (a stored word begins a longer question word:
	// "Asia" for "Asian"), "country" (the question names the country's
	// people: "Canada" for "Canadian", "UK" for "British"; package places)
	// or, in a search only, "word" (the value holds one word of the text:
	// 'Morning Yoga' for "yoga").
	Match string `json:"match"`
}

// Values returns the stored values the question names (see values.Index.Match
// for the matching rules) in the columns allow permits, best match first.
// Errors: ctx's, bleve's, or a closed index.
func (ix *Index) Values(ctx context.Context, question string, allow Allow) ([]Value, error) {
	return ix.valuesMatched(ctx, question, allow, true)
}

// ExactValues is Values with exact matches only ("exact": the value's words
// occur as they are among the question's), found without the fuzzy search
// (its automatons were most of the cost of opening a datasource's
// verified queries, which keep exact matches only).
func (ix *Index) ExactValues(ctx context.Context, question string, allow Allow) ([]Value, error) {
	return ix.valuesMatched(ctx, question, allow, false)
}

// valuesMatched is Values with fuzzy matching, or ExactValues without.
func (ix *Index) valuesMatched(ctx context.Context, question string, allow Allow, fuzzy bool) ([]Value, error) {
	if ix == nil || ix.text == nil {
		return nil, errors.New("index: Values on a closed or nil index")
	}
	acc := ix.access(allow)
	hits, err := ix.vals.Match(ctx, question, func(t, c int) bool { return acc.col[t][c] }, fuzzy)
	if err != nil {
		return nil, err
	}
	out := []Value{}
	for _, h := range hits {
		if !fuzzy && h.Match != "exact" {
			continue
		}
		t := ix.snap.Tables[h.Table]
		out = append(out, Value{Schema: t.Schema, Table: t.Name, Column: t.Columns[h.Col].Name, Value: h.Value, Match: h.Match})
	}
	return out, nil
}

// ValuesWithWord is the stored values of the columns allow permits that
// hold word as one of their words (values.Index.WithWord), at most max,
// each of Match "word".
func (ix *Index) ValuesWithWord(ctx context.Context, word string, allow Allow, max int) ([]Value, error) {
	if ix == nil || ix.text == nil {
		return nil, errors.New("index: ValuesWithWord on a closed or nil index")
	}
	acc := ix.access(allow)
	docs, err := ix.vals.WithWord(ctx, word, func(t, c int) bool { return acc.col[t][c] }, max)
	if err != nil {
		return nil, err
	}
	out := make([]Value, 0, len(docs))
	for _, d := range docs {
		t := ix.snap.Tables[d.Table]
		out = append(out, Value{Schema: t.Schema, Table: t.Name, Column: t.Columns[d.Col].Name, Value: d.Value, Match: "word"})
	}
	return out, nil
}

// yearColumns are the columns allowed by ok, keys and referencing columns
// aside, that a year the question names may filter (values.YearColumns).
func (ix *Index) yearColumns(question string, ok func(t, c int) bool) [][2]int {
	return values.YearColumns(ix.snap, question, func(t, c int) bool {
		return ok(t, c) && !ix.refCol[t][c] && !slices.Contains(ix.keys[t], c)
	})
}

// ColumnValues are the stored values the index holds of one text column
// (every distinct value up to Options.MaxDistinctValues, else the
// profile's samples; none of a column whose name says it holds secrets),
// in index order; nil for a column it holds none of. The value documents
// are sorted by table and column, so this is a binary search.
func (ix *Index) ColumnValues(schemaName, table, column string) []string {
	ti, ci := -1, -1
	for i := range ix.snap.Tables {
		if t := &ix.snap.Tables[i]; t.Schema == schemaName && t.Name == table {
			ti = i
			for j := range t.Columns {
				if t.Columns[j].Name == column {
					ci = j
				}
			}
		}
	}
	if ci < 0 {
		return nil
	}
	docs := ix.vals.Docs()
	at := func(i int) [2]int { return [2]int{docs[i].Table, docs[i].Col} }
	less := func(a, b [2]int) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }
	want := [2]int{ti, ci}
	lo := sort.Search(len(docs), func(i int) bool { return !less(at(i), want) })
	var out []string
	for i := lo; i < len(docs) && at(i) == want; i++ {
		out = append(out, docs[i].Value)
	}
	return out
}
