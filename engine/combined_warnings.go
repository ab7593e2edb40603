package engine

import (
	"context"
	"strings"

	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// The combine plan reads the sources' rows, not tables, so the warnings a
// plan earns from its datasource's profile (values spelled several ways
// grouped apart, join keys that differ in case or spaces, a NOT IN over a
// column holding NULL, casts that read values as NULL) saw nothing of it,
// and a combined answer was wrong with no word where the same plan on one
// datasource was warned. sourceTable describes each source's rows as a
// table named by its sub-query id, a column that is a source table's
// column carrying that column's profile as the caller may see it (the
// values the source kept are among the profiled ones); the combine plan
// then gets warnings.Of as any plan does.

// Warnings implements multi.Host: warnings.Of for the combine plan over
// res's rows, each sub-query id in them said as its source's name, for a
// client's combined plan and a decomposer's alike.
func (h *multiHost) Warnings(ctx context.Context, dec *multi.Decomposition, runs []multi.SubRun, res *Result) []string {
	if res == nil || res.Plan == nil {
		return nil
	}
	snap := &schema.Snapshot{}
	for i, s := range dec.Subs {
		snap.Tables = append(snap.Tables, h.e.sourceTable(ctx, s, runs[i].Query.Plan))
	}
	ws := warnings.Of(snap, "duckdb", res.Plan, warnings.Run{Rows: res.Rows})
	named := make([]string, 0, 2*len(dec.Subs))
	for _, s := range dec.Subs {
		named = append(named, s.ID, s.Ref)
	}
	r := strings.NewReplacer(named...)
	for i, w := range ws {
		ws[i] = "combine: " + r.Replace(w)
	}
	return ws
}

// sourceTable is the table a sub-query's rows are loaded as: its expected
// columns, each with the profile of the source column its validated plan
// selects as is.
func (e *Engine) sourceTable(ctx context.Context, s multi.Sub, plan *planast.Query) schema.Table {
	t := schema.Table{Schema: "main", Name: s.ID, Kind: schema.KindTable}
	var seen *schema.Snapshot
	if plan != nil {
		if ds, err := e.datasource(ctx, s.Datasource); err == nil {
			seen = e.caller(ctx).FilterSnapshot(ds.snap)
		}
	}
	for i, c := range s.Expected {
		col := schema.Column{Name: c.Name, Type: c.Type, Nullable: true}
		if plan != nil && seen != nil && i < len(plan.Select) {
			if ref, ok := plan.Select[i].Expr.(*planast.Column); ok {
				for _, f := range plan.From {
					if f.Alias != ref.Table || f.Subquery != nil {
						continue
					}
					if src, ok := seen.Lookup(f.Schema, f.Table); ok {
						for _, sc := range src.Columns {
							if strings.EqualFold(sc.Name, ref.Column) && sc.Type == c.Type {
								col.Profile, col.Nullable = sc.Profile, sc.Nullable
							}
						}
					}
				}
			}
		}
		t.Columns = append(t.Columns, col)
	}
	return t
}
