package curated

import (
	"context"
	"errors"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/scope"
)

// Source is what verified queries need of a datasource adapter
// (internal/source's SQLite, DuckDB and Postgres satisfy it): Query runs one
// read-only statement with args bound by position.
type Source interface {
	Dialect() string
	Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error)
}

// Explainer may be implemented by a Source to plan a statement without
// running it (EXPLAIN). Without it, Check plans a query by running
// "SELECT 1 FROM (<query>) AS q LIMIT 0", which every engine compiles in
// full (names, types, functions) and stops before reading a row.
type Explainer interface {
	Explain(ctx context.Context, sql string, args []any) error
}

// Target is one datasource as Check sees it: its adapter and a schema
// snapshot of it. A nil Source skips planning (static checks only).
type Target struct {
	Source   Source
	Snapshot *schema.Snapshot
}

// resolved is one stored-table read of a checked query.
type resolved struct {
	ref  tableRef
	info *planast.TableInfo
}

// Set is the verified queries that passed Check, ready to match and run.
// It is immutable and safe for concurrent use.
type Set struct {
	MinSimilarity float64
	queries       []*Query
}

// Queries returns every accepted query, in file order.
func (s *Set) Queries() []*Query {
	if s == nil {
		return nil
	}
	return append([]*Query(nil), s.queries...)
}

// Get returns the accepted query id.
func (s *Set) Get(id string) (*Query, bool) {
	if s == nil {
		return nil, false
	}
	for _, q := range s.queries {
		if q.ID == id {
			return q, true
		}
	}
	return nil, false
}

// Check validates every query of f and returns the accepted ones and a
// refusal (with its reason) for each other, in file order:
//
//  1. its definition: id, datasource, questions, params and their
//     examples; placeholders exactly the declared params (lexical pass);
//  2. its parse (PostgreSQL's parser, pg_query): exactly one statement,
//     passing the adapters' statement gate (source.CheckStatement, the
//     check every run meets),
//     SELECT or WITH … SELECT only (no data-modifying CTE, no INTO, no
//     locking), WITH RECURSIVE only if f.AllowRecursive, functions on the
//     dialect's allow-list, no table functions;
//  3. its tables: each exists in the target's snapshot and some role of
//     pol may read it (every table when pol has no roles);
//  4. its plan: the database compiles it with the example values (or
//     zero values) bound, under f.PlanTimeout, without running it.
//
// A datasource missing from targets refuses its queries (PLAN_FAILED).
// Nothing is ever executed for a query refused by steps 1-3.
func (f *File) Check(ctx context.Context, cfg *config.Config, pol *scope.Policy, targets map[string]Target) (*Set, []Refusal) {
	set := &Set{MinSimilarity: f.MinSimilarity}
	var refused []Refusal
	seen := map[string]bool{}
	for i, q := range f.Queries {
		if err := f.checkOne(ctx, q, cfg, pol, targets, seen); err != nil {
			refused = append(refused, Refusal{ID: label(q, i), Err: err})
			continue
		}
		q.checked = true
		set.queries = append(set.queries, q)
	}
	return set, refused
}

func (f *File) checkOne(ctx context.Context, q *Query, cfg *config.Config, pol *scope.Policy, targets map[string]Target, seen map[string]bool) *Error {
	if err := f.define(q, cfg, seen); err != nil {
		return err
	}
	an, err := analyze(q.prep.parse, q.dialect, f.AllowRecursive)
	if err != nil {
		return err
	}
	// The gate every run meets (the adapter's Query applies it to the text
	// Run sends): what validates must be what runs.
	q.sent = placeholders(q.prep.parse, q.dialect)
	if se := source.CheckStatement(q.dialect, q.sent); se != nil {
		return refusef(CodeNotSelect, "the statement gate every run applies refuses it: %s (%s)", se.Msg, se.Hint)
	}
	if an.params != len(q.prep.order) {
		return refusef(CodePlacehold, "the parsed statement has %d parameters, the text %d", an.params, len(q.prep.order))
	}
	q.an = an
	tg, ok := targets[q.Datasource]
	if !ok || tg.Snapshot == nil {
		return refusef(CodePlan, "datasource %s is not available to check against", q.Datasource)
	}
	q.tables = nil
	for _, ref := range an.tables {
		t, ok := tg.Snapshot.Lookup(ref.schema, ref.name)
		if !ok {
			return refusef(CodeTable, "there is no table %q in %s (or the name is ambiguous)", qualified(ref.schema, ref.name), q.Datasource)
		}
		if !pol.ReadableBySomeRole(q.Datasource, t.Schema, t.Name) {
			return refusef(CodeUnreadable, "no role may read %s.%s", t.Schema, t.Name)
		}
		q.tables = append(q.tables, resolved{ref: ref, info: t.Info()})
	}
	if tg.Source == nil {
		return nil
	}
	if tg.Source.Dialect() != q.dialect {
		return refusef(CodePlan, "datasource %s is %s, the query was read as %s", q.Datasource, tg.Source.Dialect(), q.dialect)
	}
	return f.plan(ctx, q, tg.Source)
}

// plan makes the database compile q without running it.
func (f *File) plan(ctx context.Context, q *Query, src Source) *Error {
	ctx, cancel := context.WithTimeout(ctx, f.PlanTimeout)
	defer cancel()
	args := make([]any, len(q.prep.order))
	for i, name := range q.prep.order {
		p := q.param(name)
		v := p.Example
		if v == nil {
			v = p.Default
		}
		if b, err := p.check(v); v != nil && err == nil {
			args[i] = b
		} else {
			args[i] = zeroOf(p.Type)
		}
	}
	text := q.sent
	var err error
	if ex, ok := src.(Explainer); ok {
		err = ex.Explain(ctx, text, args)
	} else {
		_, err = src.Query(ctx, "SELECT 1 FROM ("+text+"\n) AS nl2sql_check LIMIT 0", args, 1)
	}
	if err != nil {
		var se *source.Error
		if errors.As(err, &se) {
			return refusef(CodePlan, "the database refused to plan it: %s", se.Error())
		}
		return refusef(CodePlan, "the database refused to plan it: %v", err)
	}
	return nil
}

func zeroOf(typ string) any {
	switch typ {
	case TypeInteger:
		return int64(0)
	case TypeNumber:
		return float64(0)
	case TypeBoolean:
		return false
	case TypeDate:
		return "2000-01-01"
	}
	return ""
}

func qualified(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}
