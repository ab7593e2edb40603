package render_test

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"testing"
)

// A host asking for a standard deviation was refused, and SQLite has no
// such aggregate: the plan's STDDEV and VARIANCE run as the engines' own on
// PostgreSQL and DuckDB and as registered aggregates on SQLite. They must
// give the same number everywhere, including over values like 1e9+1,
// 1e9+2, ... where the textbook Σx² − (Σx)²/n loses every digit, and NULL
// where PostgreSQL gives NULL (one value for a sample, none at all).

// spreadGroups are the values of x per group g; nil is NULL.
var spreadGroups = [][]*float64{
	fs(1e9+1, 1e9+2, 1e9+3, 1e9+4, 1e9+6),
	fs(1e13+3, 1e13+5, 1e13+11),
	fs(7),
	{nil, nil},
	append(fs(-2.5, 0.125, 3), nil),
}

func fs(xs ...float64) []*float64 {
	out := make([]*float64, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

// trueSpread is the exact variance of xs (sample or population), rounded
// once to a double; ok is false where the result is NULL.
func trueSpread(xs []*float64, sample bool) (float64, bool) {
	var vals []*big.Rat
	for _, x := range xs {
		if x != nil {
			vals = append(vals, new(big.Rat).SetFloat64(*x))
		}
	}
	n := len(vals)
	div := n
	if sample {
		div--
	}
	if div <= 0 {
		return 0, false
	}
	mean := new(big.Rat)
	for _, v := range vals {
		mean.Add(mean, v)
	}
	mean.Quo(mean, big.NewRat(int64(n), 1))
	ss := new(big.Rat)
	for _, v := range vals {
		d := new(big.Rat).Sub(v, mean)
		ss.Add(ss, d.Mul(d, d))
	}
	f, _ := ss.Quo(ss, big.NewRat(int64(div), 1)).Float64()
	return f, true
}

func TestEnginesStddevVariance(t *testing.T) {
	cat := memCatalog{table("s", []string{"id integer", "g integer", "x integer", "f float", "dx decimal"})}
	var rows []string
	id := 0
	for g, xs := range spreadGroups {
		for _, x := range xs {
			id++
			v := "NULL"
			if x != nil {
				v = strconv.FormatFloat(*x, 'f', -1, 64)
			}
			iv := v
			if x != nil && *x != math.Trunc(*x) {
				iv = "NULL" // x holds the integral values only
			}
			rows = append(rows, fmt.Sprintf("%d, %d, %s, %s, %s", id, g, iv, v, v))
		}
	}
	funcs := []struct {
		name, col    string
		sample, root bool
	}{
		{"STDDEV_SAMP", "x", true, true}, {"STDDEV_POP", "x", false, true}, {"VAR_SAMP", "x", true, false}, {"VAR_POP", "x", false, false},
		{"STDDEV", "f", true, true}, {"VARIANCE", "f", true, false}, {"STDDEV_POP", "dx", false, true}, {"VAR_SAMP", "dx", true, false},
	}
	plan := `{"select":[{"expr":` + column("g") + `,"alias":"g"}`
	for i, f := range funcs {
		plan += `,{"expr":` + call(f.name, column(f.col)) + `,"alias":"e` + strconv.Itoa(i) + `"}`
	}
	plan += `],"from":[{"table":"s","alias":"s"}],"group_by":[` + column("g") + `],"order_by":[{"expr":` + column("g") + `}]}`
	for _, e := range engines(t, cat, map[string][]string{"s": rows}) {
		got := planRows(t, e, cat, plan)
		if len(got) != len(spreadGroups) {
			t.Fatalf("%s: %d groups, want %d", e.d.Name(), len(got), len(spreadGroups))
		}
		for g, xs := range spreadGroups {
			for i, f := range funcs {
				var vals []*float64
				for _, x := range xs {
					if x != nil && (f.col != "x" || *x == math.Trunc(*x)) {
						vals = append(vals, x)
					}
				}
				want, ok := trueSpread(vals, f.sample)
				if ok && f.root {
					want = math.Sqrt(want)
				}
				cell := got[g][i+1]
				if !ok {
					if cell != "NULL" {
						t.Errorf("%s: group %d %s(%s) = %s, want NULL", e.d.Name(), g, f.name, f.col, cell)
					}
					continue
				}
				v, err := strconv.ParseFloat(cell, 64)
				if err != nil || math.Abs(v-want) > 1e-12*math.Abs(want) {
					t.Errorf("%s: group %d %s(%s) = %s, want %v (exact, to 1e-12)", e.d.Name(), g, f.name, f.col, cell, want)
				}
			}
		}
	}
}
