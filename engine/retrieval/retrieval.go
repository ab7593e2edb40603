package retrieval

import (
	"context"
	"log/slog"
	"slices"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/scope"
)

// For is retrieval over one datasource for one caller.
type For struct {
	// Datasource is the datasource's id, as the caller's scope names it.
	Datasource string
	// Snap is the datasource's whole snapshot; the caller sees it through
	// Scope.
	Snap *schema.Snapshot
	// Index is the datasource's retrieval index; nil sends the whole
	// visible schema.
	Index  *index.Index
	Scope  *scope.Scope
	Budget index.Budget
	Log    *slog.Logger
	// Description is the datasource's description: a word of it (or of
	// its id) names the data, and is never unmatched.
	Description string
}

// Retrieve is the part of the snapshot the planner sees for a question:
// the visible tables and columns the index ranks highest (bleve BM25 +
// exact-cosine vectors, fused, then foreign-key expansion), or the whole
// visible schema when that is small (see index.Budget), when there is no
// index or when retrieval fails (logged). The index is asked with the
// caller's scope as its filter, and values are dropped for tables the
// caller sees through a row filter (they come from all rows). The
// selection is what the trace records; nil when the index was not asked.
func (r For) Retrieve(ctx context.Context, question string) (*schema.Snapshot, *index.Selection) {
	visible := r.Scope.FilterSnapshot(r.Snap)
	if r.Index == nil {
		return visible, nil
	}
	sel, err := r.Index.Retrieve(ctx, question, r.Budget, r.Scope.Reader(r.Datasource))
	if err != nil {
		r.Log.Warn("retrieval failed; sending the whole visible schema", "datasource", r.Datasource, "err", err)
		return visible, nil
	}
	sel.Values = r.filteredValues(sel.Values)
	return sel.Filter(visible), sel
}

// Search ranks the tables, their kept columns and the stored values
// matching words of text, all within the caller's scope, always ranking
// (never the whole schema), for clients that plan themselves.
func (r For) Search(ctx context.Context, text string) (*index.Selection, error) {
	if r.Index == nil {
		return nil, fault.Errorf(fault.CodeDatasourceDown, "describe_schema lists the whole schema", "datasource %q has no retrieval index", r.Datasource)
	}
	budget := r.Budget
	budget.WholeSchemaTokens = -1 // a search always ranks
	sel, err := r.Index.Retrieve(ctx, text, budget, r.Scope.Reader(r.Datasource))
	if err != nil {
		return nil, fault.AsError(err)
	}
	sel.Values = r.filteredValues(sel.Values)
	if sel.Unmatched, err = r.Index.Unmatched(ctx, text, r.Scope.Reader(r.Datasource)); err != nil {
		return nil, fault.AsError(err)
	}
	named := lex.Words(r.Datasource + " " + r.Description)
	sel.Unmatched = slices.DeleteFunc(sel.Unmatched, func(w string) bool {
		f := lex.Fold(w)
		return slices.ContainsFunc(named, func(n string) bool { return n == f || lex.Singular(n) == lex.Singular(f) })
	})
	return sel, nil
}

// Word values: maxWordValues per word of the text, maxSearchValues in all.
const (
	maxWordValues   = 5
	maxSearchValues = 10
)

// WordValues adds to a search's values those holding one of its words
// ('Morning Yoga', 'Hot Yoga' for "yoga") that it does not list already:
// the values a text spells whole are found by retrieval, and a host
// searching one word of a class name was shown none, or, where a
// trainer's specialty is 'Yoga', that one alone, and filtered the
// specialty for the classes. Only the search a caller reads asks (the
// searches behind ask's relevance and ranking read no values).
func (r For) WordValues(ctx context.Context, text string, sel *index.Selection) error {
	if !sel.Relevant() {
		// one word inside a song title ('Long Tall Sally' for "how tall
		// is mount everest") is no sign the data answers the text
		return nil
	}
	added := 0
	for _, w := range lex.Words(text) {
		if added >= maxSearchValues || lex.StopWord(w) || len([]rune(w)) < 3 {
			continue
		}
		vs, err := r.Index.ValuesWithWord(ctx, w, r.Scope.Reader(r.Datasource), maxWordValues)
		if err != nil {
			return err
		}
		for _, v := range r.filteredValues(vs) {
			listed := slices.ContainsFunc(sel.Values, func(u index.Value) bool {
				return u.Schema == v.Schema && u.Table == v.Table && u.Column == v.Column && u.Value == v.Value
			})
			if !listed && added < maxSearchValues {
				sel.Values = append(sel.Values, v)
				added++
			}
		}
	}
	return nil
}

// StoredValues lists a text column's stored values for the warnings of a
// run or a check (a spelling, a literal no value equals, keys that match
// only loosely): from the retrieval index, and never for a
// table the caller reads through a row filter (the index holds values of
// every row). Nil without an index.
func (r For) StoredValues() func(schemaName, table, column string) []string {
	if r.Index == nil {
		return nil
	}
	return func(schemaName, table, column string) []string {
		if len(r.Scope.RowFilters(r.Datasource, schemaName, table)) > 0 {
			return nil
		}
		return r.Index.ColumnValues(schemaName, table, column)
	}
}

// filteredValues drops matched values of row-filtered tables.
func (r For) filteredValues(vals []index.Value) []index.Value {
	out := vals[:0:0]
	for _, v := range vals {
		if len(r.Scope.RowFilters(r.Datasource, v.Schema, v.Table)) == 0 {
			out = append(out, v)
		}
	}
	return out
}
