package result

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// Typed gives a run's result of plan its portable column types and the
// decimal scales the plan means (ShowDecimalScales), a column's scale as
// snap declares it.
func Typed(rows *source.Result, plan *planast.Query, types []planast.Type, snap *schema.Snapshot) {
	ApplyTypes(rows, types)
	ShowDecimalScales(rows, plan, func(c *planast.Column) (int, bool) {
		_, col := emptyrange.TableOfColumn(snap, plan, c)
		if col == nil || col.Type != planast.TypeDecimal {
			return 0, false
		}
		return schema.DecimalScale(col.DeclaredType)
	})
}

// ShowDecimalScales puts a computed decimal column's values at the scale
// the plan means, so one plan shows one text on every engine: a stored
// decimal (a column, or MIN, MAX or SUM of one) keeps the scale the
// database returns (NUMERIC(10,2) 349.00 stays "349.00"), while the
// renderer's own scale 10 (DECIMAL(38,10) casts and decimal products,
// render/doc.go) is not the data's: its trailing zeros are dropped
// ("3.0000000000" is "3", as PostgreSQL's cast to NUMERIC shows it), and
// so are those of a result of several decimals (widenedItem), on every
// engine.
// ROUND(x, n) with a literal n ≥ 0 shows n decimals on every engine
// (349.0 where DuckDB and SQLite round as doubles and returned 349).
// SQLite computes SUM, MIN and MAX of a declared NUMERIC(10,2) column as a
// double without its scale (710.5, 349): those show at the scale the
// column declares (scale: its declared scale, false when it has none), as
// the others return them (710.50, 349.00).
func ShowDecimalScales(res *source.Result, q *planast.Query, scale func(*planast.Column) (int, bool)) {
	if q == nil || len(q.Select) != len(res.Columns) {
		return
	}
	for i, it := range q.Select {
		if res.ColumnTypes[i] != planast.TypeDecimal {
			continue
		}
		round := roundDigits(it.Expr)
		widened := widenedItem(q, i)
		if col, ok := storedDecimal(it.Expr); ok && !widened {
			if scale == nil {
				continue
			}
			n, declared := scale(col)
			for _, row := range res.Rows {
				switch x := row[i].(type) {
				case float64:
					if declared {
						row[i] = floatAtScale(x, n)
					}
				case int64: // SQLite stores 349.0 in a NUMERIC column as the integer 349
					if declared {
						row[i] = json.Number(atScale(strconv.FormatInt(x, 10), n))
					}
				case json.Number:
					// a combination holds decimals at one scale: zeros past n
					// go, and nothing is padded (a value the load rounded
					// must not show places it lost)
					if _, frac, ok := strings.Cut(string(x), "."); declared && ok && len(frac) > n && !strings.ContainsAny(frac, "eE") {
						row[i] = json.Number(atScale(string(x), n))
					}
				}
			}
			continue
		}
		for _, row := range res.Rows {
			switch x := row[i].(type) {
			case json.Number:
				s := string(x)
				// widened: the same text on every engine, as DuckDB's
				// DECIMAL(38,10) shows (PostgreSQL's numeric keeps each
				// branch's scale)
				if _, frac, ok := strings.Cut(s, "."); ok && (len(frac) == 10 || widened) && round < 0 {
					s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
				}
				if round >= 0 {
					s = atScale(s, round)
				}
				row[i] = json.Number(s)
			case float64:
				if round >= 0 {
					row[i] = floatAtScale(x, round)
				}
			}
		}
	}
}

// widenedItem reports whether select item i of q is a result of several
// decimals (a union's column, a CASE, COALESCE, LAG or LEAD:
// planast.Case.Decimals), which DuckDB computes at the renderer's
// DECIMAL(38,10), not at the data's scale.
func widenedItem(q *planast.Query, i int) bool {
	if i < len(q.Decimals) && q.Decimals[i] {
		return true
	}
	switch x := q.Select[i].Expr.(type) {
	case *planast.Case:
		return x.Decimals
	case *planast.Func:
		return x.Decimals
	case *planast.Window:
		return x.Decimals
	}
	return false
}

// floatAtScale is x written with n fraction digits when that text reads
// back as x (and is a decimal the value rule keeps as text), else x.
func floatAtScale(x float64, n int) any {
	s := strconv.FormatFloat(x, 'f', n, 64)
	if back, err := strconv.ParseFloat(s, 64); err == nil && back == x && source.DecimalText(s) == any(json.Number(s)) {
		return json.Number(s)
	}
	return x
}

// storedDecimal reports whether e is a stored value: a column, or MIN, MAX
// or SUM of one, which PostgreSQL and DuckDB return at the column's
// scale; the column is returned.
func storedDecimal(e planast.Expr) (*planast.Column, bool) {
	switch x := e.(type) {
	case *planast.Column:
		return x, true
	case *planast.Func:
		switch strings.ToUpper(x.Name) {
		case "MIN", "MAX", "SUM":
			if len(x.Args) == 1 {
				c, ok := x.Args[0].(*planast.Column)
				return c, ok
			}
		}
	}
	return nil, false
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
