package curated

import (
	"context"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
	"github.com/nl2sql/nl2sql/scope"
)

// Execution is one run of a verified query.
type Execution struct {
	QueryID string
	// SQL is the text that ran (row filters applied, placeholders in the
	// dialect's form) and Args the values bound to it, in order. For
	// traces; SQL may hold a filter's literals, so show it to
	// administrators only.
	SQL    string
	Args   []any
	Result *source.Result
}

// Run runs the verified q for the caller sc on src with params (by name,
// as DecodeParams returns them) and returns at most maxRows rows (≤ 0:
// the adapter's row limit). In order it:
//
//   - refuses (VERIFIED_QUERY_NOT_FOUND) when sc does not reach q's
//     datasource, exactly as for an unknown id;
//   - refuses (ACCESS_DENIED) when sc may not read every table q reads, or
//     any column: when a table has columns hidden from sc, q may not use *,
//     NATURAL joins, whole-row references or any column name equal to a
//     hidden one (a conservative, name-based rule);
//   - types and checks every value (INVALID_PARAMS), binds them by
//     position, never into the text;
//   - wraps every read of a row-filtered table in the parse text as
//     "(SELECT <visible columns> FROM <table> WHERE <filter>) AS <name>"
//     (the filter rendered from the plan language with the caller's
//     attributes as literals), at the table reference's parse-tree
//     position; refuses (ROW_FILTER) when that cannot be done safely:
//     ONLY t, a name the tree and the text disagree on, a filter that
//     cannot be applied (see scope.ApplyRowFilters), or a result that no
//     longer parses as one SELECT.
//
// Source errors are returned as they come (*source.Error).
//
// Each gate (the engine's extension hooks) is called with q and the text
// about to run, after every check above and before the database sees it;
// a gate's error stops the run and is returned as it is.
func Run(ctx context.Context, src Source, q *Query, params map[string]any, sc *scope.Scope, maxRows int, gates ...Gate) (*Execution, error) {
	if q == nil || !q.checked {
		return nil, refusef(CodeNotValidated, "the verified query was not validated")
	}
	if err := q.access(sc); err != nil {
		return nil, err
	}
	if src.Dialect() != q.dialect {
		return nil, refusef(CodeNotFound, "verified query %s is not on this datasource", q.ID)
	}
	args, err := q.Bind(params)
	if err != nil {
		return nil, err
	}
	text, ferr := q.wrap(sc)
	if ferr != nil {
		return nil, ferr
	}
	if text == q.prep.parse && q.sent != "" {
		text = q.sent // no row filter changed the text: converted once, at Check
	} else {
		text = placeholders(text, q.dialect)
	}
	for _, g := range gates {
		if err := g(q, text); err != nil {
			return nil, err
		}
	}
	res, err := src.Query(ctx, text, args, maxRows)
	if err != nil {
		return nil, err
	}
	return &Execution{QueryID: q.ID, SQL: text, Args: args, Result: res}, nil
}

// Gate decides, just before a verified query runs, whether it may: q and
// the statement text that would run (placeholders in the dialect's form,
// row filters applied). See Run.
type Gate func(q *Query, sql string) error

// Reads lists the stored tables q reads ("schema.table") and the columns
// it may read ("schema.table.column"): every column of a read table whose
// name q mentions, all of them when q uses * or a NATURAL join, so the
// list over-approximates across tables (a rule keyed on it only gets
// stricter). Sorted, without duplicates.
func (q *Query) Reads() (tables, columns []string) {
	named := map[string]bool{}
	for _, c := range q.an.columns {
		if len(c) > 0 {
			named[strings.ToLower(c[len(c)-1])] = true
		}
	}
	for _, u := range q.an.using {
		named[strings.ToLower(u)] = true
	}
	all := q.an.star || q.an.natural
	for _, r := range q.tables {
		t := r.info.Schema + "." + r.info.Name
		tables = append(tables, t)
		for _, c := range r.info.Columns {
			if all || named[strings.ToLower(c.Name)] {
				columns = append(columns, t+"."+c.Name)
			}
		}
	}
	sort.Strings(tables)
	sort.Strings(columns)
	return compact(tables), compact(columns)
}

// ParamColumn is a stored column a parameter is compared to with =.
type ParamColumn struct{ Schema, Table, Column string }

// ParamColumns maps each parameter compared to a column of a read table
// with = (WHERE c.last_name = :last_name) to that column, so that a run
// that matched nothing can say which stored value the argument nearly
// is. A reference that names no read table's column, or several, is left
// out.
func (q *Query) ParamColumns() map[string]ParamColumn {
	out := map[string]ParamColumn{}
	for _, pc := range q.an.compared {
		if pc.param < 1 || pc.param > len(q.prep.order) || len(pc.names) == 0 {
			continue
		}
		col := pc.names[len(pc.names)-1]
		qual := ""
		if len(pc.names) > 1 {
			qual = pc.names[len(pc.names)-2]
		}
		var hits []ParamColumn
		for _, r := range q.tables {
			if qual != "" {
				name := r.ref.name
				if r.ref.hasAlias {
					name = r.ref.alias
				}
				if !strings.EqualFold(qual, name) {
					continue
				}
			}
			for _, c := range r.info.Columns {
				if strings.EqualFold(c.Name, col) {
					hits = append(hits, ParamColumn{r.info.Schema, r.info.Name, c.Name})
				}
			}
		}
		if len(hits) == 1 {
			out[q.prep.order[pc.param-1]] = hits[0]
		}
	}
	return out
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// access checks that sc may run q (see Run).
func (q *Query) access(sc *scope.Scope) *Error {
	if !sc.Reaches(q.Datasource) {
		return refusef(CodeNotFound, "there is no verified query %s", q.ID)
	}
	denied := refusef(CodeNotAllowed, "verified query %s reads data you may not read", q.ID)
	hidden := map[string]bool{}
	wholeRow := map[string]bool{}
	for _, r := range q.tables {
		if !sc.AllowTable(q.Datasource, r.info.Schema, r.info.Name) {
			return denied
		}
		n := 0
		for _, c := range r.info.Columns {
			if !sc.AllowColumn(q.Datasource, r.info.Schema, r.info.Name, c.Name) {
				hidden[strings.ToLower(c.Name)] = true
				n++
			}
		}
		if n > 0 {
			wholeRow[strings.ToLower(r.info.Name)] = true
			if r.ref.hasAlias {
				wholeRow[strings.ToLower(r.ref.alias)] = true
			}
		}
	}
	if len(hidden) == 0 {
		return nil
	}
	if q.an.star || q.an.natural {
		return denied
	}
	for _, c := range q.an.columns {
		if len(c) == 0 || hidden[strings.ToLower(c[len(c)-1])] || len(c) == 1 && wholeRow[strings.ToLower(c[0])] {
			return denied
		}
	}
	for _, u := range q.an.using {
		if hidden[strings.ToLower(u)] {
			return denied
		}
	}
	return nil
}

// wrap returns q's parse text with every row-filtered table read replaced
// by its filtered derived table for sc.
func (q *Query) wrap(sc *scope.Scope) (string, *Error) {
	text := q.prep.parse
	type edit struct {
		start, end int
		repl       string
	}
	var edits []edit
	for _, r := range q.tables {
		if len(sc.RowFilters(q.Datasource, r.info.Schema, r.info.Name)) == 0 {
			continue
		}
		fail := refusef(CodeRowFilter, "a row filter applies to %s and cannot be applied to this verified query; ask an administrator", r.ref.name)
		if r.ref.only {
			return "", fail
		}
		want := 1
		if r.ref.schema != "" {
			want = 2
		}
		end, last, parts, err := nameSpan(text, r.ref.loc)
		if err != nil || parts != want {
			return "", fail
		}
		inner, ferr := filteredTable(q.Datasource, q.dialect, r.info, sc)
		if ferr != nil {
			return "", refusef(CodeRowFilter, "%s: %s", fail.Msg, ferr.Error())
		}
		repl := "(" + inner + ")"
		if !r.ref.hasAlias {
			repl += " AS " + last
		}
		edits = append(edits, edit{r.ref.loc, end, repl})
	}
	if len(edits) == 0 {
		return text, nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	for i, e := range edits {
		if i > 0 && e.end > edits[i-1].start {
			return "", refusef(CodeRowFilter, "overlapping table references")
		}
		text = text[:e.start] + e.repl + text[e.end:]
	}
	an, err := analyze(text, q.dialect, true)
	if err != nil || len(an.tables) != len(q.tables) {
		return "", refusef(CodeRowFilter, "a row filter cannot be applied to verified query %s safely", q.ID)
	}
	return text, nil
}

// filteredTable renders "SELECT <visible columns> FROM <table> WHERE
// <filter>" for sc in dialect, through the plan language: the derived
// table scope.ApplyRowFilters builds for a generated plan, validated with
// the caller's checker and rendered the same way.
func filteredTable(ds, dialect string, t *planast.TableInfo, sc *scope.Scope) (string, error) {
	p := &planast.Query{From: []planast.From{{Schema: t.Schema, Table: t.Name, Alias: "t"}}}
	for _, c := range sc.VisibleColumns(ds, t) {
		p.Select = append(p.Select, planast.SelectItem{Expr: &planast.Column{Table: "t", Column: c.Name}, Alias: c.Name})
	}
	cat := oneTable{t}
	fp, err := scope.ApplyRowFilters(p, ds, sc, cat)
	if err != nil {
		return "", err
	}
	// fp is SELECT … FROM (<filtered table>) AS t: keep the inner query.
	if len(fp.From) != 1 || fp.From[0].Subquery == nil {
		return "", refusef(CodeRowFilter, "the row filter did not apply")
	}
	v, err := validate.Plan(fp.From[0].Subquery, cat, validate.Options{Access: sc.Checker(ds)})
	if err != nil {
		return "", err
	}
	d, ok := render.Lookup(dialect)
	if !ok {
		return "", refusef(CodeRowFilter, "no renderer for %s", dialect)
	}
	return render.SQL(v.Plan, d, render.Options{NoTotalOrder: true})
}

// oneTable is a catalog of exactly one table.
type oneTable struct{ t *planast.TableInfo }

func (o oneTable) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if (schema == "" || schema == o.t.Schema) && name == o.t.Name {
		cp := *o.t
		return &cp, true
	}
	return nil, false
}
