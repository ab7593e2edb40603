package index

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Budget bounds one retrieval. The zero value means the defaults.
type Budget struct {
	// MaxTables caps the tables kept, bridges included; ≤ 0 means 8.
	MaxTables int
	// MaxColumns caps the columns kept over all tables; key columns (primary
	// keys, keys joining two kept tables) count but are never dropped for it; ≤ 0
	// means 40.
	MaxColumns int
	// MaxValues caps the matched values reported; ≤ 0 means 10.
	MaxValues int
	// WholeSchemaTokens is the whole-schema rule's threshold: when the
	// whole schema context is at most this many tokens, everything allowed
	// is selected (Selection.Whole). 0 means DefaultWholeSchemaTokens; < 0
	// turns the rule off (always retrieve).
	WholeSchemaTokens int
}

// FocusColumns is the number of best-ranked columns in a whole selection's
// Focus (besides the columns holding values the question names): every
// column is in the prompt anyway, the focus only decides which come with
// their values, so it is much tighter than a retrieval that decides what
// the planner sees at all.
const FocusColumns = 8

func (b Budget) withDefaults() Budget {
	if b.MaxTables <= 0 {
		b.MaxTables = 8
	}
	if b.MaxColumns <= 0 {
		b.MaxColumns = 40
	}
	if b.MaxValues <= 0 {
		b.MaxValues = 10
	}
	if b.WholeSchemaTokens == 0 {
		b.WholeSchemaTokens = DefaultWholeSchemaTokens
	}
	return b
}

// Allow says whether the caller may see a table (column "") or one of its
// columns. Retrieve never selects, reports a value of, or routes a join
// through what it denies. nil allows everything.
type Allow func(schemaName, table, column string) bool

// Selection is what one retrieval keeps. It marshals deterministically:
// tables in snapshot order (schema, name), columns in table order, values
// best match first.
type Selection struct {
	Datasource string `json:"datasource"`
	// Whole is true when the whole (allowed) schema was selected because it
	// is under Budget.WholeSchemaTokens.
	Whole  bool             `json:"whole,omitempty"`
	Tables []TableSelection `json:"tables"`
	// Focus, set with Whole, is what the ranked retrieval would have kept:
	// Filter keeps every table and column of a whole selection but the
	// profile details (values, examples, numeric ranges) only of these, so
	// the whole schema's outline costs few tokens and the question's tables
	// come with their values.
	Focus  []TableSelection `json:"focus,omitempty"`
	Values []Value          `json:"values,omitempty"`
	// Unmatched, set by a search (not by Retrieve), lists the words of the
	// text nothing the caller may read holds (Index.Unmatched).
	Unmatched []string `json:"unmatched,omitempty"`
	// DefaultSchema is the schema whose tables plans name bare (the
	// snapshot's Default): a table elsewhere is named schema.table.
	DefaultSchema string `json:"-"`
}

// ByScore is the tables best score first, ties in the selection's order:
// a selection lists its tables in schema order, which a search's reader
// took for a ranking.
func (s *Selection) ByScore() []TableSelection {
	ts := slices.Clone(s.Tables)
	slices.SortStableFunc(ts, func(a, b TableSelection) int { return cmp.Compare(b.Score, a.Score) })
	return ts
}

// PlanName is t's name as plans write it (schema.Snapshot.PlanName).
func (s *Selection) PlanName(t TableSelection) string {
	return schema.PlanName(s.DefaultSchema, t.Schema, t.Name)
}

// TableSelection is one kept table and its kept columns.
type TableSelection struct {
	Schema  string   `json:"schema"`
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	// Bridge is true for a table kept only to join two others.
	Bridge bool `json:"bridge,omitempty"`
	// Score is the fused retrieval score of the table's best document
	// (relative: comparable within one selection only); Evidence lists
	// what ties it to the question (relevance.go), empty for a table kept
	// by rank alone.
	Score    float64  `json:"score,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
}

// Retrieve selects the tables, columns and stored values that question
// needs, within budget and what allow permits. The question may carry
// hints (BIRD's evidence, a user's notes) appended to it.
//
//  1. Whole-schema rule: when the whole schema context is at most
//     Budget.WholeSchemaTokens, everything allowed is selected, and what
//     the steps below keep becomes the selection's Focus.
//  2. Four rankings of the allowed table and column documents: BM25 over
//     names, comments and samples (bleve); exact cosine of the question's
//     and the documents' embeddings; the columns holding stored values
//     found in the question (see Value); and the documents whose name the
//     question spells out (see mentionRank).
//  3. Weighted reciprocal rank fusion of the four (Tuning.RRFK, Weights),
//     ties by document id.
//  4. Seed tables: the best tables, the tables of the best documents and
//     the tables the question names (see plan.seeds; past the first, only
//     tables the question evidences when Index.accounted finds every
//     weighed word of it named: plan.evidenced); then foreign-key
//     expansion: bridge tables on shortest join paths (declared keys, or
//     inferred ones in a schema that declares none; see joins.Graph).
//  5. Link tables between kept tables that join no other way directly
//     (see plan.links). Columns per kept table: its primary key and the
//     keys joining kept tables, value columns, year and date columns a year in the
//     question may filter (seeds and bridges), the columns the question
//     names, spells out or implies and the label of a table it names
//     (not bridges), then the best ranked ones (see plan.columns; only
//     each table's least when Index.accounted finds every weighed word
//     of the question named).
//  6. Fill: further tables, best first, while the kept columns stay within
//     Tuning.FillShare of the schema and Budget.MaxColumns (none for a
//     question Index.accounted finds every weighed word of named).
//
// The same index, question, budget and allow give the same Selection.
// Errors: the embedder's (the question is embedded once), bleve's, ctx's.
func (ix *Index) Retrieve(ctx context.Context, question string, budget Budget, allow Allow) (*Selection, error) {
	if ix == nil || ix.text == nil {
		return nil, errors.New("index: Retrieve on a closed or nil index")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := budget.withDefaults()
	acc := ix.access(allow)
	r, err := ix.rank(ctx, question, acc)
	if err != nil {
		return nil, err
	}
	// The columns the question names are kept whatever their rank: those
	// it spells out or shortens (mentionRank) and those namedColumns finds.
	named := ix.namedColumns(questionWords(question), acc)
	for _, m := range r.mentions {
		if d := ix.docs[m.doc]; d.col >= 0 {
			named[[2]int{d.table, d.col}] = true
		}
	}
	p := plan{ix: ix, acc: acc, b: b, tun: ix.opts.Tuning.withDefaults(), fused: r.fused, valueCols: r.valueCols, yearCols: r.yearCols, named: ix.namedTables(question, acc), namedCols: named, asksWho: asksWho(question)}
	p.accounted = ix.accounted(question, p.named, named, r.hits)
	sel := p.selection()
	sel.Values = ix.reportValues(r.hits, sel, b.MaxValues)
	ix.annotate(sel, r)
	if b.WholeSchemaTokens >= 0 && ix.wholeTokens <= b.WholeSchemaTokens {
		all := ix.whole(acc)
		all.Focus = p.focus(FocusColumns)
		all.Values = ix.reportValues(r.hits, &Selection{Tables: all.Focus}, b.MaxValues)
		return all, nil
	}
	return sel, nil
}

// rankings are the inputs and output of the fusion.
type rankings struct {
	lexical, vector, values, mentions, fused []ranked
	hits                                     []values.Hit
	valueCols                                map[[2]int]bool
	yearCols                                 map[[2]int]bool // yearColumns
}

func (ix *Index) rank(ctx context.Context, question string, acc access) (*rankings, error) {
	hits, err := ix.vals.Match(ctx, question, func(t, c int) bool { return acc.col[t][c] }, true)
	if err != nil {
		return nil, err
	}
	lex, err := ix.bm25Rank(ctx, question, acc)
	if err != nil {
		return nil, err
	}
	vec, err := ix.vectorRank(ctx, question, acc.doc)
	if err != nil {
		return nil, err
	}
	r := &rankings{lexical: lex, vector: vec, hits: hits, valueCols: map[[2]int]bool{}, yearCols: map[[2]int]bool{}}
	for _, h := range hits {
		key := [2]int{h.Table, h.Col}
		if !r.valueCols[key] {
			r.valueCols[key] = true
			r.values = append(r.values, ranked{ix.byID[colID(h.Table, h.Col)], h.Quality})
		}
	}
	for _, k := range ix.yearColumns(question, func(t, c int) bool { return acc.col[t][c] }) {
		r.yearCols[k] = true
	}
	r.mentions = ix.mentionRank(question, acc.doc)
	tun := ix.opts.Tuning.withDefaults()
	r.fused = rrf(tun.RRFK, tun.Weights[:], lex, vec, r.values, r.mentions)
	return r, nil
}

// access is allow evaluated once per table, column and document.
type access struct {
	table []bool
	col   [][]bool
	doc   []bool // per ix.docs
	// whole is true when every allowed table has all its columns allowed;
	// else fullTables lists the ids of the table documents that do
	// (fieldQuery).
	whole      bool
	fullTables []string
}

func (ix *Index) access(allow Allow) access {
	a := access{table: make([]bool, len(ix.snap.Tables)), col: make([][]bool, len(ix.snap.Tables)), doc: make([]bool, len(ix.docs))}
	for ti, t := range ix.snap.Tables {
		a.table[ti] = allow == nil || allow(t.Schema, t.Name, "")
		a.col[ti] = make([]bool, len(t.Columns))
		for ci, c := range t.Columns {
			a.col[ti][ci] = a.table[ti] && (allow == nil || allow(t.Schema, t.Name, c.Name))
		}
	}
	a.whole = true
	for i, d := range ix.docs {
		if d.col < 0 {
			a.doc[i] = a.table[d.table]
			if a.doc[i] && !slices.Contains(a.col[d.table], false) {
				a.fullTables = append(a.fullTables, d.id)
			} else if a.doc[i] {
				a.whole = false
			}
		} else {
			a.doc[i] = a.col[d.table][d.col]
		}
	}
	return a
}

// fieldQuery is q searched in field of the schema documents acc permits.
// A table document's cols field holds the names of all the table's
// columns, so where acc denies some column of an allowed table the field
// counts only in the tables whose every column acc permits: else a denied
// column's name would rank its table and make a question naming it
// match, telling the caller the column exists. Each column's own document
// holds its name too (and acc leaves a denied one out), so a permitted
// column's name still matches.
func (acc access) fieldQuery(field string, q query.Query) query.Query {
	if field != "cols" || acc.whole {
		return q
	}
	if len(acc.fullTables) == 0 {
		return bleve.NewMatchNoneQuery()
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(q)
	b.AddFilter(bleve.NewDocIDQuery(acc.fullTables)) // a filter does not score
	return b
}

// whole selects every allowed table and column.
func (ix *Index) whole(acc access) *Selection {
	sel := &Selection{Datasource: ix.snap.Datasource, DefaultSchema: ix.snap.Default(), Whole: true, Tables: []TableSelection{}}
	for ti, t := range ix.snap.Tables {
		if !acc.table[ti] {
			continue
		}
		ts := TableSelection{Schema: t.Schema, Name: t.Name, Columns: []string{}}
		for ci, c := range t.Columns {
			if acc.col[ti][ci] {
				ts.Columns = append(ts.Columns, c.Name)
			}
		}
		sel.Tables = append(sel.Tables, ts)
	}
	return sel
}

// reportValues lists the matched values of kept columns, best first, at
// most max of them.
func (ix *Index) reportValues(hits []values.Hit, sel *Selection, max int) []Value {
	kept := map[[3]string]bool{}
	for _, t := range sel.Tables {
		for _, c := range t.Columns {
			kept[[3]string{t.Schema, t.Name, c}] = true
		}
	}
	var out []Value
	for _, h := range hits {
		if len(out) >= max {
			break
		}
		t := ix.snap.Tables[h.Table]
		c := t.Columns[h.Col]
		if !kept[[3]string{t.Schema, t.Name, c.Name}] {
			continue
		}
		out = append(out, Value{Schema: t.Schema, Table: t.Name, Column: c.Name, Value: h.Value, Match: h.Match})
	}
	return out
}
