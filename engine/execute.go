package engine

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// execute runs the rendered SQL read-only, stopping at the row limit.
func (e *Engine) execute(ctx context.Context, ds *datasource, sql string) (*source.Result, error) {
	res, err := tracedSource{ds.src}.Query(ctx, sql, nil, ds.spec.RowLimit)
	if err != nil {
		return nil, sourceError(err, ds.spec.ID)
	}
	return res, nil
}

// applyPlanTypes gives the result the validator's portable column types
// (they know what an expression computes; the driver often does not), and
// rounds decimal columns that came back as doubles below 10^15 to the 15
// significant digits a double carries: SQLite computes NUMERIC arithmetic
// in floating point, so SUM over NUMERIC(10,2) values can return
// 18.810000000000002 where PostgreSQL returns 18.81. From 10^15 on, those
// 15 digits would drop integer digits the double holds (a computed
// 12345678901234568 became 12345678901234600): such a double keeps its
// value, every digit it has. An exact decimal (PostgreSQL's numeric,
// DuckDB's DECIMAL beyond 15 digits) comes as its text and is kept as it
// is. Date and timestamp columns that came back as ISO text are written as
// the driver writes times (source.TemporalText).
func applyPlanTypes(res *source.Result, types []planast.Type) {
	if len(types) != len(res.Columns) {
		return
	}
	driver := res.ColumnTypes
	res.ColumnTypes = append([]planast.Type(nil), types...)
	for i, t := range types {
		// the plan cannot name a nested value's type (a list, a JSON
		// document, a point): the adapter's explicit one stands
		if i < len(driver) && (t == planast.TypeUnknown || t == planast.TypeText) && (driver[i] == planast.TypeJSON || t == planast.TypeUnknown) {
			res.ColumnTypes[i] = driver[i]
		}
		if t == planast.TypeDate || t == planast.TypeTimestamp {
			// an expression over dates (MIN, MAX, CASE) comes back from
			// SQLite as stored text: shown as the column itself is
			for _, row := range res.Rows {
				if s, ok := row[i].(string); ok {
					row[i] = source.TemporalText(s, t)
				}
			}
			continue
		}
		if t != planast.TypeDecimal {
			continue
		}
		for _, row := range res.Rows {
			if f, ok := row[i].(float64); ok && math.Abs(f) < 1e15 {
				if g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64); err == nil {
					row[i] = g
				}
			}
		}
	}
}

// showDecimalScales puts a computed decimal column's values at the scale
// the plan means, so one plan shows one text on every engine: a stored
// decimal (a column, or MIN, MAX or SUM of one) keeps the scale the
// database returns (NUMERIC(10,2) 349.00 stays "349.00"), while the
// renderer's own scale 10 (DECIMAL(38,10) casts and decimal products,
// render/doc.go) is not the data's: its trailing zeros are dropped
// ("3.0000000000" is "3", as PostgreSQL's cast to NUMERIC shows it).
// ROUND(x, n) with a literal n ≥ 0 shows n decimals on every engine
// (349.0 where DuckDB and SQLite round as doubles and returned 349).
func showDecimalScales(res *source.Result, q *planast.Query) {
	if q == nil || len(q.Select) != len(res.Columns) {
		return
	}
	for i, it := range q.Select {
		if res.ColumnTypes[i] != planast.TypeDecimal || storedDecimal(it.Expr) {
			continue
		}
		round := roundDigits(it.Expr)
		for _, row := range res.Rows {
			switch x := row[i].(type) {
			case json.Number:
				s := string(x)
				if _, frac, ok := strings.Cut(s, "."); ok && len(frac) == 10 && round < 0 {
					s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
				}
				if round >= 0 {
					s = atScale(s, round)
				}
				row[i] = json.Number(s)
			case float64:
				if round < 0 {
					continue
				}
				s := strconv.FormatFloat(x, 'f', round, 64)
				if back, err := strconv.ParseFloat(s, 64); err == nil && back == x && source.DecimalText(s) == any(json.Number(s)) {
					row[i] = json.Number(s)
				}
			}
		}
	}
}

// storedDecimal reports whether e is a stored value: a column, or MIN, MAX
// or SUM of one, which every engine returns at the column's scale.
func storedDecimal(e planast.Expr) bool {
	switch x := e.(type) {
	case *planast.Column:
		return true
	case *planast.Func:
		switch strings.ToUpper(x.Name) {
		case "MIN", "MAX", "SUM":
			if len(x.Args) == 1 {
				_, ok := x.Args[0].(*planast.Column)
				return ok
			}
		}
	}
	return false
}

// roundDigits is n of ROUND(x, n) with a literal n in 0..10, else -1.
func roundDigits(e planast.Expr) int {
	f, ok := e.(*planast.Func)
	if !ok || !strings.EqualFold(f.Name, "ROUND") || len(f.Args) != 2 {
		return -1
	}
	if l, ok := f.Args[1].(*planast.Literal); ok && l.Type == planast.TInteger && l.Int >= 0 && l.Int <= 10 {
		return int(l.Int)
	}
	return -1
}

// atScale writes the plain decimal s with exactly n fraction digits, when
// that only adds or removes zeros; otherwise s as it is.
func atScale(s string, n int) string {
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > n {
		if strings.Trim(frac[n:], "0") != "" {
			return s
		}
		frac = frac[:n]
	}
	frac += strings.Repeat("0", n-len(frac))
	if n == 0 {
		return whole
	}
	return whole + "." + frac
}
