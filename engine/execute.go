package engine

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// execute runs the rendered SQL read-only, stopping at the row limit. A
// statement that failed on a table or column the snapshot holds and the
// database no longer has (source.SchemaChanged) makes this call read the
// schema again before it returns the error, which is retryable: the
// request sent again then meets the schema as it is, as the error's hint
// promises, not the same stale snapshot until the next periodic check.
func (e *Engine) execute(ctx context.Context, ds *datasource, sql string) (*source.Result, error) {
	return e.executeRows(ctx, ds, sql, ds.spec.RowLimit)
}

// executeRows is execute keeping at most rows rows.
func (e *Engine) executeRows(ctx context.Context, ds *datasource, sql string, rows int) (*source.Result, error) {
	res, err := tracedSource{ds.src}.Query(ctx, sql, nil, rows)
	if err != nil {
		if se := (*source.Error)(nil); errors.As(err, &se) && se.SchemaChanged {
			e.log.Info("a statement named what the database no longer has; reading its schema again", "datasource", ds.spec.ID)
			e.recheck(ctx, ds)
		}
		return nil, sourceError(err, ds.spec.ID)
	}
	return res, nil
}

// havingProbe runs the probe of a grouped plan whose having filter kept no
// group (warnings.HavingProbe) and says what it found; "" when there is
// none or it fails.
func (e *Engine) havingProbe(ctx context.Context, ds *datasource, plan *planast.Query) string {
	row, types, ok := e.probe(ctx, ds, warnings.HavingProbe(plan))
	if !ok {
		return ""
	}
	return warnings.HavingWarning(plan, row, types)
}

// castProbes runs the probes of the casts of expressions over text
// columns whose profile in snap (the caller's) saw values the casts read
// as NULL (warnings.CastProbes) and says what they found; none when there
// is none or they fail.
func (e *Engine) castProbes(ctx context.Context, ds *datasource, snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	for _, p := range warnings.CastProbes(snap, plan) {
		if row, _, ok := e.probe(ctx, ds, p.Query); ok {
			if w := warnings.CastProbeWarning(p.What, row); w != "" {
				out = append(out, w)
			}
		}
	}
	return out
}

// sentinelProbes runs the probes of the aggregates over a column whose
// profile holds a value apart from a small scale (warnings.SentinelProbes:
// 0 beside ratings of 1 to 5) as the caller, and says of each value
// frequent among the rows read what it does to the figure; none when
// there is none or the probes fail.
func (e *Engine) sentinelProbes(ctx context.Context, ds *datasource, snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	for _, p := range warnings.SentinelProbes(snap, plan) {
		if row, _, ok := e.probe(ctx, ds, p.Query); ok {
			if w := p.Warning(row); w != "" {
				out = append(out, w)
			}
		}
	}
	return out
}

// rewordProbes runs probes, the probes of warnings in ws (what
// warnings.Static said) that the rows a plan reads may make wrong, as the
// caller, and puts what each found in its warning's place: the warning
// worded again, or nothing. A probe that fails, is refused or runs out of
// time leaves its warning as the profile words it. The warnings' probes:
// of currencies (warnings.CurrencyProbes: nothing when no group of the
// rows summed holds two, else the count found), of copies and repeated
// ids (warnings.RepeatProbes: nothing when no row the where keeps of the
// table repeats another, else the count found) and of MIN and MAX of
// numbers written as text (warnings.TextOrderProbes: nothing when the
// text extreme is the numbers') and of flags of test records never read
// (warnings.TestFlagProbes: how many of the rows read they mark, and
// their share of a SUM, or that none is marked).
func (e *Engine) rewordProbes(ctx context.Context, ds *datasource, ws []string, probes func() []warnings.Reword) []string {
	if len(ws) == 0 {
		// a probe only rewords or drops its own warning: with none to
		// act on, finding the probes (a walk of the plan over the
		// profile) is work for nothing, on most runs
		return ws
	}
	for _, p := range probes() {
		i := slices.Index(ws, p.Warning)
		if i < 0 {
			continue
		}
		row, _, ok := e.probe(ctx, ds, p.Query)
		if !ok {
			continue
		}
		if w, keep := p.Verdict(row); keep {
			ws[i] = w
		} else {
			ws = slices.Delete(ws, i, i+1)
		}
	}
	return ws
}

// warningProbes are the probes rewordProbes runs for plan over snap and
// stored, what warnings.Static read.
func warningProbes(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) func() []warnings.Reword {
	return func() []warnings.Reword {
		var out []warnings.Reword
		for _, p := range warnings.CurrencyProbes(snap, plan, stored) {
			out = append(out, warnings.Reword{Warning: p.Warning, Query: p.Query, Verdict: p.Verdict})
		}
		out = append(out, warnings.RepeatProbes(snap, plan)...)
		out = append(out, warnings.TestFlagProbes(snap, plan)...)
		return append(out, warnings.TextOrderProbes(snap, plan)...)
	}
}

// fanoutProbes runs, as the caller, the probes of the fan-out warnings of
// plan (in ws, its validation's warnings among others) whose join key a
// join condition's equalities narrow (validate.FanoutProbes), and puts
// the fan-out warnings as what they found words them in their place:
// none for a join whose whole key has one row per value (a monthly rate
// joined on its currency and month). A probe that fails, is refused or
// runs out of time leaves its warning saying the condition was not
// probed; so does every one when ws does not hold them all as validation
// worded them.
func (e *Engine) fanoutProbes(ctx context.Context, ds *datasource, plan *planast.Query, ws []string) []string {
	probes := validate.FanoutProbes(plan, ds.snap)
	if len(probes) == 0 {
		return ws
	}
	before := validate.FanoutWarnings(plan, ds.snap, nil)
	for _, w := range before {
		if !slices.Contains(ws, w) {
			return ws
		}
	}
	found := validate.FanoutFound{}
	for _, p := range probes {
		row, _, ok := e.probe(ctx, ds, p.Query)
		if ok {
			found[p] = row
		}
	}
	if len(found) == 0 {
		return ws
	}
	after := validate.FanoutWarnings(plan, ds.snap, found)
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if !slices.Contains(before, w) {
			out = append(out, w)
		} else if after != nil {
			out, after = append(out, after...), nil
		}
	}
	return out
}

// tieProbe says whether the limit of a top-N plan that returned n rows
// cut rows tying with the last one (warnings.TieProbe): the plan runs
// again with with_ties; "" when it cut none, or the probe fails.
func (e *Engine) tieProbe(ctx context.Context, ds *datasource, plan *planast.Query, n int) string {
	probe := warnings.TieProbe(plan, n)
	if probe == nil {
		return ""
	}
	v, err := e.validateFor(ctx, ds, probe)
	if err != nil {
		return ""
	}
	sql, err := e.render(ds, &planned{plan: v.Plan})
	if err != nil {
		return ""
	}
	rows, err := e.execute(ctx, ds, sql)
	if err != nil {
		return ""
	}
	return warnings.TieWarning(*plan.Limit, len(rows.Rows))
}

// probeTimeout bounds each probe: it reads the plan's rows (or a table
// it joins) once more, and a warning is not worth a second slow query.
const probeTimeout = 10 * time.Second

// probe runs a warning's probe plan as the caller, through the same
// validation as any plan, within probeTimeout, and returns its one row; ok
// is false when there is no probe or it fails (a probe only adds a
// warning, never an error).
func (e *Engine) probe(ctx context.Context, ds *datasource, probe *planast.Query) (row []any, types []planast.Type, ok bool) {
	if probe == nil {
		return nil, nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	v, err := e.validateFor(ctx, ds, probe)
	if err != nil {
		return nil, nil, false
	}
	sql, err := e.render(ds, &planned{plan: v.Plan})
	if err != nil {
		return nil, nil, false
	}
	rows, err := e.execute(ctx, ds, sql)
	if err != nil || len(rows.Rows) != 1 {
		return nil, nil, false
	}
	return rows.Rows[0], rows.ColumnTypes, true
}

// emptyNoMore is snap with the row count forgotten of each table the plan
// reads that was empty when profiled and holds rows now (one LIMIT 1
// query each, only for such tables): rows written since the profile made
// "the table held no rows" a warning that contradicted the rows it came
// with, until the next profile.
func (e *Engine) emptyNoMore(ctx context.Context, ds *datasource, snap *schema.Snapshot, plan *planast.Query) *schema.Snapshot {
	var stale []int
	probed := map[int]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		q, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for _, f := range q.From {
			t, ok := snap.Lookup(f.Schema, f.Table)
			if f.Subquery != nil || !ok || t.RowCount == nil || *t.RowCount != 0 {
				continue
			}
			i := slices.IndexFunc(snap.Tables, func(x schema.Table) bool { return x.Schema == t.Schema && x.Name == t.Name })
			if i < 0 || probed[i] {
				continue // a table read twice is asked once
			}
			probed[i] = true
			one := &planast.Query{Select: []planast.SelectItem{{Expr: &planast.Literal{Type: planast.TInteger, Int: 1, Text: "1"}, Alias: "one"}},
				From: []planast.From{{Schema: t.Schema, Table: t.Name, Alias: "t"}}, Limit: new(int64(1))}
			if _, _, ok := e.probe(ctx, ds, one); ok {
				stale = append(stale, i)
			}
		}
		return true
	})
	if len(stale) == 0 {
		return snap
	}
	fresh := *snap
	fresh.Tables = slices.Clone(snap.Tables)
	for _, i := range stale {
		fresh.Tables[i].RowCount = nil
	}
	return &fresh
}
