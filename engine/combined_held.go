package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/engine/multi"
	"github.com/nl2sql/nl2sql/planast"
)

// Held implements multi.Host: the keys of a combination that matched no
// row of a source whose plan filters (the bookings of members not Gold,
// left out of "bookings of Gold members" by intent) are looked up in the
// stored table column the source selects, so that only keys its database
// does not hold at all are named as records the databases disagree on.
// The lookup is a plan of the caller's, validated as any (access, row
// filters), run on the source's datasource:
//
//	SELECT DISTINCT k.col FROM table AS k WHERE k.col IN (keys…)
func (h *multiHost) Held(ctx context.Context, run multi.SubRun, column string, keys []any) (map[string]bool, bool) {
	plan := run.Query.Plan
	if plan == nil || len(keys) == 0 {
		return nil, false
	}
	var ref *planast.Column
	for _, it := range plan.Select {
		c, ok := it.Expr.(*planast.Column)
		if ok && (it.Alias == column || it.Alias == "" && c.Column == column) {
			ref = c
		}
	}
	if ref == nil || ref.ReadAs != "" || ref.Money {
		return nil, false
	}
	var from *planast.From
	for i, f := range plan.From {
		if f.Alias == ref.Table && f.Subquery == nil && !isCTE(plan, f.Table) {
			from = &plan.From[i]
		}
	}
	if from == nil {
		return nil, false
	}
	list := make([]planast.Expr, 0, len(keys))
	for _, k := range keys {
		lit, ok := keyLiteral(k)
		if !ok {
			return nil, false
		}
		list = append(list, lit)
	}
	col := &planast.Column{Table: "k", Column: ref.Column}
	probe := &planast.Query{
		Distinct: true,
		Select:   []planast.SelectItem{{Expr: col, Alias: "key"}},
		From:     []planast.From{{Schema: from.Schema, Table: from.Table, Alias: "k"}},
		Where:    &planast.In{Expr: col, List: list},
	}
	ds, err := h.e.datasource(ctx, run.Query.Datasource)
	if err != nil {
		return nil, false
	}
	v, err := h.e.validateFor(ctx, ds, probe)
	if err != nil {
		return nil, false
	}
	sql, err := h.e.renderRows(ds, &planned{plan: v.Plan}, len(keys))
	if err != nil {
		return nil, false
	}
	rows, err := h.e.executeRows(ctx, ds, sql, len(keys))
	if err != nil {
		return nil, false
	}
	held := make(map[string]bool, len(rows.Rows))
	for _, r := range rows.Rows {
		if len(r) == 1 {
			held[fmt.Sprint(r[0])] = true
		}
	}
	return held, true
}

// isCTE reports whether name is one of q's CTEs (a From naming it reads
// the CTE's rows, not a stored table).
func isCTE(q *planast.Query, name string) bool {
	for _, c := range q.With {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}

// keyLiteral is a key value read back from the combination as a literal
// of the lookup: whole numbers and text only (other values compare by
// type rules the lookup would have to repeat).
func keyLiteral(v any) (planast.Expr, bool) {
	switch k := v.(type) {
	case int64:
		return &planast.Literal{Type: planast.TInteger, Int: k, Text: strconv.FormatInt(k, 10)}, true
	case int32:
		return &planast.Literal{Type: planast.TInteger, Int: int64(k), Text: strconv.FormatInt(int64(k), 10)}, true
	case string:
		return &planast.Literal{Type: planast.TString, Text: k}, true
	}
	return nil, false
}
