package multi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/result"
	planwarn "github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// MaxParallel bounds the sub-queries run at once.
const MaxParallel = 4

// SourceRowCap is how many rows a sub-query may bring to the combination
// at most, whatever its datasource's row limit: its rows go to DuckDB,
// not to the client, and a source cut at the client's row limit (1,000)
// made a combined average or an anti-join wrong. Beyond it the answer is
// partial and says so.
const SourceRowCap = 100_000

// SourceRows is the rows a sub-query on a datasource with row limit
// rowLimit may bring to the combination.
func SourceRows(rowLimit int) int { return max(rowLimit, SourceRowCap) }

// RunLayers calls run once for every sub-query of d (its index in d.Subs),
// layer by layer: the sub-queries of one layer concurrently, at most
// MaxParallel at a time, each layer after the one before it has finished.
// Combine groups are skipped: they run in Combine.
func RunLayers(d *Decomposition, run func(i int)) {
	index := map[string]int{}
	for i, s := range d.Subs {
		index[s.ID] = i
	}
	sem := make(chan struct{}, MaxParallel)
	for _, layer := range d.Layers {
		var wg sync.WaitGroup
		for _, id := range layer {
			i, ok := index[id]
			if !ok {
				continue // a combine group
			}
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				run(i)
			}()
		}
		wg.Wait()
	}
}

// Outcome is what one sub-query gave the combination: its rows (a part
// that failed fails the run before any combination).
type Outcome struct {
	Rows *source.Result
	// Filtered is set when the sub-query's plan keeps only some rows of
	// its tables (Filters): a key of another source that matches none of
	// its rows may still be in its database.
	Filtered bool
	// Held, when set, says which of keys the table column behind the
	// sub-query's output column holds, as the caller may see it; ok is
	// false when that cannot be asked (a computed column).
	Held func(ctx context.Context, column string, keys []any) (held map[string]bool, ok bool)
}

// Combine loads every sub-query's rows into a
// DuckDB table named by its id and runs the combination plan, the result
// cut at rowLimit and the whole bounded by timeout. Warnings come in
// sub-query id order: truncations, unconverted values; then the
// rows each join between two sub-queries dropped for want of a match. Errors
// are *fault.Error, or the context's error when it ended.
func Combine(ctx context.Context, d *Decomposition, outs []Outcome, rowLimit int, timeout time.Duration) (*duckcompute.Output, []string, error) {
	scale, rounded := decimalScale(d, outs)
	db, err := duckcompute.Open(ctx, duckcompute.Options{Timeout: timeout, DecimalScale: scale})
	if err != nil {
		return nil, nil, &fault.Error{Code: fault.CodeInternal, Msg: "cannot start the combination database: " + err.Error(), Err: err}
	}
	defer db.Close()
	warnings := []string{}
	for i, s := range d.Subs {
		who := fmt.Sprintf("sub-query %s (%q on %s)", s.ID, s.Ref, s.Datasource)
		for _, r := range rounded[i] {
			warnings = append(warnings, fmt.Sprintf("%s: %d value(s) of column %s have more than %d decimal places (such as %s); the combination holds decimals at %d places beside their integer digits, so they were rounded half away from zero there: aggregate or round them in that source's plan",
				who, r.n, r.column, scale, r.example, scale))
		}
		for _, r := range finerThanMicro(d.Comb.Tables[i].Columns, outs[i].Rows) {
			warnings = append(warnings, fmt.Sprintf("%s: %d value(s) of column %s are finer than a microsecond (such as %s); the combination holds timestamps to the microsecond, so the digits after the sixth were dropped there: cast the column to text in that source's plan to keep them",
				who, r.n, r.column, r.example))
		}
		r := outs[i].Rows
		if r.Truncated {
			warnings = append(warnings, fmt.Sprintf("%s was cut at %d rows, so the combination saw only those and its figures leave the rest out: aggregate or filter in that source's plan so that fewer rows leave it", who, len(r.Rows)))
		}
		ws, err := db.Load(ctx, d.Comb.Tables[i], r.Rows)
		if err != nil {
			return nil, nil, &fault.Error{Code: fault.CodeInternal, Msg: "cannot load a sub-query's rows for the combination: " + err.Error(), Err: err}
		}
		for _, w := range ws {
			warnings = append(warnings, fmt.Sprintf("%s: %d value(s) of column %s did not convert to %s (first: %s) and were loaded as NULL, so they join and compare as nothing",
				who, w.Count, w.Column, w.Type, w.Example))
		}
	}
	out, err := db.Run(ctx, d.Comb.Plan, rowLimit)
	if err == nil {
		sourceScales(d, outs, out)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		var pe *planast.Error
		if errors.As(err, &pe) {
			return nil, nil, &fault.Error{Code: fault.CodeInternal, Msg: "the combination plan no longer validates: " + pe.Error(), Err: err}
		}
		return nil, nil, &fault.Error{Code: fault.CodeQueryFailed, Msg: "the combination failed: " + err.Error(), Err: err}
	}
	refs, byID := map[string]string{}, map[string]Outcome{}
	for i, s := range d.Subs {
		refs[s.ID], byID[s.ID] = s.Ref, outs[i]
	}
	warnings = append(warnings, unmatched(ctx, db, d.Comb.Plan, refs, byID)...)
	warnings = append(warnings, fanout(ctx, db, d.Comb.Plan, refs)...)
	if probe := planwarn.TieProbe(d.Comb.Plan, len(out.Rows)); probe != nil { // a top N whose limit may have cut a tie
		if all, err := db.Run(ctx, probe, rowLimit); err == nil {
			if w := planwarn.TieWarning(*d.Comb.Plan.Limit, len(all.Rows)); w != "" {
				warnings = append(warnings, "combine: "+w)
			}
		}
	}
	return out, warnings, nil
}

// ExpectedSection is appended to a sub-query's schema context: the columns
// the plan must return, one JSON object a line, in order.
func ExpectedSection(cols []duckcompute.Column) string {
	var b strings.Builder
	b.WriteString("\n\n[EXPECTED OUTPUT]\nReturn exactly these columns, in this order, each with this alias; the types say what each holds:\n")
	for i, c := range cols {
		line, _ := json.Marshal(c)
		b.Write(line)
		if i < len(cols)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// ColumnNames lists the columns' names, in order.
func ColumnNames(cols []duckcompute.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// A sub-query is planned by the single-datasource path with its intent as
// the question; its plan, a cached one included, must have exactly the
// expected output columns. That requirement travels in the context, so
// that the path keeps one signature.
type expectedKey struct{}

// WithExpected marks ctx as planning a sub-query with these output
// columns.
func WithExpected(ctx context.Context, cols []duckcompute.Column) context.Context {
	return context.WithValue(ctx, expectedKey{}, ColumnNames(cols))
}

// Expected is the output columns a plan under ctx must have
// (validate.Options.ExpectedColumns), nil when ctx plans no sub-query.
func Expected(ctx context.Context) []string {
	names, _ := ctx.Value(expectedKey{}).([]string)
	return names
}

// roundedColumn counts the values of one decimal column that have more
// fraction digits than the combination's scale.
type roundedColumn struct {
	column, example string
	n               int
}

// decimalScale is the one decimal scale of every table of the combination
// (see duckcompute.Options.DecimalScale): the most fraction digits any
// decimal value needs, at least 2, and at most what leaves the largest
// value's integer digits and 6 more (a SUM of up to a million such values)
// within DECIMAL(38,s), or 10 when that is more. Values with more fraction
// digits than that are rounded when loaded: rounded lists them per source,
// so the answer says so instead of showing a sum of rounded values as exact.
func decimalScale(d *Decomposition, outs []Outcome) (int, [][]roundedColumn) {
	need, ints := 2, 0
	each := func(f func(i, k int, c string, v any)) {
		for i, r := range outs {
			if r.Rows == nil || i >= len(d.Comb.Tables) {
				continue
			}
			for k, c := range d.Comb.Tables[i].Columns {
				if c.Type != planast.TypeDecimal {
					continue
				}
				for _, row := range r.Rows.Rows {
					if k < len(row) && row[k] != nil {
						f(i, k, c.Name, row[k])
					}
				}
			}
		}
	}
	each(func(_, _ int, _ string, v any) {
		need, ints = max(need, duckcompute.FractionDigits(v)), max(ints, duckcompute.IntegerDigits(v))
	})
	scale := min(need, max(10, duckcompute.MaxScale-ints-6))
	rounded := make([][]roundedColumn, len(outs))
	if scale == need {
		return scale, rounded
	}
	at := map[[2]int]int{}
	each(func(i, k int, c string, v any) {
		if duckcompute.FractionDigits(v) <= scale {
			return
		}
		j, ok := at[[2]int{i, k}]
		if !ok {
			j = len(rounded[i])
			at[[2]int{i, k}] = j
			rounded[i] = append(rounded[i], roundedColumn{column: c, example: fmt.Sprint(v)})
		}
		rounded[i][j].n++
	})
	return scale, rounded
}

// sourceScales shows each stored decimal of the combination's result (a
// loaded column, or MIN, MAX or SUM of one) at the scale its source
// returned it: every table holds decimals at the combination's one scale,
// and 349.00 came back as 349.0000000000 beside a column that needed ten
// places. Only zeros are dropped (result.ShowDecimalScales), so a value
// the load rounded keeps the digits it has.
func sourceScales(d *Decomposition, outs []Outcome, out *duckcompute.Output) {
	if out.Plan == nil {
		return
	}
	scales := map[string]map[string]int{} // table → column → fraction digits
	for i, t := range d.Comb.Tables {
		if i >= len(outs) || outs[i].Rows == nil {
			continue
		}
		m := map[string]int{}
		for k, c := range t.Columns {
			if c.Type != planast.TypeDecimal {
				continue
			}
			n := 0
			for _, row := range outs[i].Rows.Rows {
				if k < len(row) && row[k] != nil {
					n = max(n, duckcompute.FractionDigits(row[k]))
				}
			}
			m[c.Name] = n
		}
		scales[t.Name] = m
	}
	alias := map[string]string{}
	for _, f := range out.Plan.From {
		if f.Table != "" {
			alias[f.Alias] = f.Table
		}
	}
	res := &source.Result{Columns: out.Columns, ColumnTypes: out.Types, Rows: out.Rows}
	result.ShowDecimalScales(res, out.Plan, func(c *planast.Column) (int, bool) {
		n, ok := scales[alias[c.Table]][c.Column]
		return n, ok
	})
}

// finerThanMicro counts, per timestamp column of one sub-query's rows, the
// values with digits past the microsecond (DuckDB's TIMESTAMP_NS): the
// combination's TIMESTAMP keeps six, so a join or a comparison there sees
// another instant than the source holds.
func finerThanMicro(cols []duckcompute.Column, res *source.Result) []roundedColumn {
	if res == nil {
		return nil
	}
	var out []roundedColumn
	for k, c := range cols {
		if c.Type != planast.TypeTimestamp {
			continue
		}
		r := roundedColumn{column: c.Name}
		for _, row := range res.Rows {
			if k < len(row) && duckcompute.SubMicrosecond(row[k]) {
				if r.n == 0 {
					r.example = fmt.Sprint(row[k])
				}
				r.n++
			}
		}
		if r.n > 0 {
			out = append(out, r)
		}
	}
	return out
}
