package index

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// ValueSource lists the distinct non-NULL values of one column, at most
// limit of them, in a stable order. Build asks it for text columns only.
type ValueSource interface {
	DistinctValues(ctx context.Context, schemaName, table, column string, limit int) ([]string, error)
}

// QueryFunc runs one read-only SELECT and returns at most maxRows rows and
// whether more were left (an internal/source adapter's Query, with its
// Result's Rows and Truncated).
type QueryFunc func(ctx context.Context, sql string, maxRows int) (rows [][]any, truncated bool, err error)

// ValuesFromQuery is a ValueSource over SQL: it pages through
//
//	SELECT DISTINCT "col" FROM "schema"."table" WHERE "col" IS NOT NULL
//	ORDER BY 1 LIMIT n OFFSET k
//
// (double-quoted identifiers: SQLite, DuckDB and PostgreSQL) in pages of
// 1,000 rows, so an adapter's row cap does not cut the list short. Non-text
// values are skipped.
func ValuesFromQuery(q QueryFunc) ValueSource { return queryValues(q) }

type queryValues QueryFunc

func (q queryValues) DistinctValues(ctx context.Context, schemaName, table, column string, limit int) ([]string, error) {
	const page = 1000
	col := quote(column)
	from := quote(table)
	if schemaName != "" {
		from = quote(schemaName) + "." + from
	}
	var out []string
	for off := 0; off < limit; {
		n := min(page, limit-off)
		sql := fmt.Sprintf("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL ORDER BY 1 LIMIT %d OFFSET %d", col, from, col, n, off)
		rows, truncated, err := q(ctx, sql, n)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if len(r) > 0 {
				if s, ok := r[0].(string); ok {
					out = append(out, s)
				}
			}
		}
		off += len(rows)
		if len(rows) == 0 || (len(rows) < n && !truncated) {
			break
		}
	}
	return out, nil
}

func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

// valueDoc is one distinct value of one column.
type valueDoc struct {
	table, col int
	value      string
	words      []string // lex.Words(value)
}

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

// buildValues collects each text column's values (all of them when the
// profile lists all or the ValueSource can supply them, else the profile's
// samples) and indexes them, one bleve document per (column, value).
// Fetching goes from the columns with the fewest distinct values up and
// stops at Options.MaxTotalValues, so a wide schema of high-cardinality
// text cannot exhaust memory.
func (ix *Index) buildValues(ctx context.Context, dir string) error {
	type colRef struct {
		t, c     int
		distinct int64 // -1 when not profiled
	}
	var fetch []colRef
	vals := map[[2]int][]string{}
	for ti, t := range ix.snap.Tables {
		for ci, c := range t.Columns {
			if !valueColumn(c) {
				continue
			}
			vals[[2]int{ti, ci}] = sampleStrings(c)
			p := c.Profile
			switch {
			case ix.opts.Values == nil || t.Kind != schema.KindTable:
			case p == nil:
				fetch = append(fetch, colRef{ti, ci, -1})
			case !p.AllValues && p.DistinctCount > int64(len(p.SampleValues)) && p.DistinctCount <= int64(ix.opts.MaxDistinctValues):
				fetch = append(fetch, colRef{ti, ci, p.DistinctCount})
			}
		}
	}
	sort.SliceStable(fetch, func(i, j int) bool { return fetch[i].distinct < fetch[j].distinct })
	budget := ix.opts.MaxTotalValues
	for i, f := range fetch {
		if budget <= 0 {
			break
		}
		if ix.opts.Progress != nil && (i%100 == 0 || i == len(fetch)-1) {
			ix.opts.Progress("values", i+1, len(fetch))
		}
		t := ix.snap.Tables[f.t]
		c := t.Columns[f.c]
		all, err := ix.opts.Values.DistinctValues(ctx, t.Schema, t.Name, c.Name, min(ix.opts.MaxDistinctValues, budget))
		if err != nil {
			return fmt.Errorf("index: values of %s.%s: %w", t.Name, c.Name, err)
		}
		budget -= len(all)
		vals[[2]int{f.t, f.c}] = append(vals[[2]int{f.t, f.c}], all...)
	}
	seen := map[string]bool{}
	for ti, t := range ix.snap.Tables {
		for ci := range t.Columns {
			clear(seen)
			for _, v := range vals[[2]int{ti, ci}] {
				if seen[v] || len(v) > ix.opts.MaxValueLen {
					continue
				}
				seen[v] = true
				if w := lex.Words(v); len(w) > 0 {
					ix.values = append(ix.values, valueDoc{table: ti, col: ci, value: v, words: w})
				}
			}
		}
	}
	var err error
	if ix.vals, err = newBleve(valueMapping(), dir); err != nil {
		return err
	}
	for start := 0; start < len(ix.values); start += valuesPerBatch {
		b := ix.vals.NewBatch()
		for i := start; i < min(start+valuesPerBatch, len(ix.values)); i++ {
			if err := b.Index(valueID(i), map[string]any{"v": valueText(ix.values[i].words)}); err != nil {
				return fmt.Errorf("index: %w", err)
			}
		}
		if err := ix.vals.Batch(b); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
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
	// edits away) or "prefix" (a stored word begins a longer question word:
	// "Asia" for "Asian").
	Match string `json:"match"`
}

// valueHit is a verified value match with its quality.
type valueHit struct {
	doc     int     // index into ix.values
	quality float64 // 1 exact, 0.9 stem, 0.7 fuzzy, times length weight
	match   string
}

// valueCandidates is how many value documents the full-text search
// proposes for verification.
const valueCandidates = 400

// matchValues finds stored values whose words occur, in order and
// contiguously, among the question's words: exactly, after stripping
// plural endings, with each word of five or more letters one edit away
// (two from nine letters), or as prefixes (see prefixWord). Values made only of stop words or of one or two
// characters need an exact match. Candidates come from a fuzzy full-text
// query over the value index; the verification is done here. Hits are
// sorted by quality, then value document order. Without fuzzy the search
// proposes no candidate by edit distance (only exact, stem and prefix
// matches can be found).
func (ix *Index) matchValues(ctx context.Context, question string, allow func(table, col int) bool, fuzzy bool) ([]valueHit, error) {
	qw := lex.Words(question)
	if len(qw) == 0 || len(ix.values) == 0 {
		return nil, nil
	}
	ids, err := ix.valueCandidatesFor(ctx, qw, fuzzy)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	qstem := make([]string, len(qw))
	for i, w := range qw {
		qstem[i] = lex.Singular(w)
	}
	var hits []valueHit
	for _, i := range ids {
		v := ix.values[i]
		if !allow(v.table, v.col) {
			continue
		}
		q, how := matchWords(v.words, qw, qstem)
		if q == 0 {
			continue
		}
		hits = append(hits, valueHit{doc: i, quality: q, match: how})
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].quality != hits[b].quality {
			return hits[a].quality > hits[b].quality
		}
		return hits[a].doc < hits[b].doc
	})
	return hits, nil
}

// matchWords scores value words vw against question words: 0 when they do
// not occur. The score grows with the matched length, so "New York City"
// outranks "York".
func matchWords(vw, qw, qstem []string) (float64, string) {
	trivial := true
	chars := 0
	for _, w := range vw {
		chars += len(w)
		if !lex.StopWord(w) && len(w) > 2 {
			trivial = false
		}
	}
	weight := 1 + 0.05*float64(min(chars, 20))
	if containsSeq(qw, vw, func(a, b string) bool { return a == b }) {
		return weight, "exact"
	}
	if joinedMatch(vw, qw) {
		return 0.95 * weight, "exact"
	}
	if trivial {
		return 0, ""
	}
	if containsSeq(qstem, vw, func(a, b string) bool { return a == lex.Singular(b) }) {
		return 0.9 * weight, "stem"
	}
	if containsSeq(qw, vw, fuzzyWord) {
		return 0.7 * weight, "fuzzy"
	}
	if containsSeq(qw, vw, prefixWord) {
		return 0.6 * weight, "prefix"
	}
	return 0, ""
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

// containsSeq reports whether needle occurs contiguously in hay under eq.
func containsSeq(hay, needle []string, eq func(h, n string) bool) bool {
	for i := 0; i+len(needle) <= len(hay); i++ {
		ok := true
		for j, n := range needle {
			if !eq(hay[i+j], n) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
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

// Values returns the stored values the question names (see matchValues for
// the matching rules) in the columns allow permits, best match first.
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
	hits, err := ix.matchValues(ctx, question, func(t, c int) bool { return acc.col[t][c] }, fuzzy)
	if err != nil {
		return nil, err
	}
	out := []Value{}
	for _, h := range hits {
		if !fuzzy && h.match != "exact" {
			continue
		}
		v := ix.values[h.doc]
		t := ix.snap.Tables[v.table]
		out = append(out, Value{Schema: t.Schema, Table: t.Name, Column: t.Columns[v.col].Name, Value: v.value, Match: h.match})
	}
	return out, nil
}
