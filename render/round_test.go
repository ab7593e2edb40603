package render_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The threat: a user rounds prices or rates shown as 2.675, 1.005 or 0.285
// to cents and reads 2.67, 1.00 and 0.28 on SQLite (and 1.00, 0.28 on
// DuckDB) but 2.68, 1.01 and 0.29 on PostgreSQL: SQLite and DuckDB rounded
// the binary double just below the half the value shows, PostgreSQL the
// numeric of its 15 digits. ROUND(x, n) of a float, or of a decimal held
// as a double (SQLite's decimals), rounds the decimal of up to 15
// significant digits it shows, half away from zero, on every engine: the
// double nearest the exactly rounded decimal.
func TestRoundIsHalfAwayFromZeroOnTheShownDecimal(t *testing.T) {
	cat := memCatalog{table("r", []string{"id integer", "f float", "s text", "d decimal"})}
	g := rand.New(rand.NewPCG(7, 32))
	type value struct {
		text string // at most 15 significant digits
		n    int    // the digits ROUND keeps
	}
	vals := []value{{"2.675", 2}, {"-2.675", 2}, {"1.005", 2}, {"0.285", 2}, {"0.045", 2}, {"8.345", 2}, {"2.5", 0}, {"-0.5", 0}, {"1234567.125", 2}, {"0.125", 2}, {"1.15", 1}, {"10.235", 2}, {"5e-324", 2}, {"4503599627370497", 0}, {"-9007199254740993", 2}}
	for range 400 {
		digits := 1 + g.IntN(15)
		m := g.Int64N(pow10(digits))
		n := g.IntN(5)
		scale := n + 1 + g.IntN(max(1, min(10, digits)-n))
		if g.IntN(2) == 0 { // a half at n digits
			m = m/10*10 + 5
			scale = n + 1
		}
		v := big.NewRat(m, pow10(scale))
		if g.IntN(2) == 0 {
			v.Neg(v)
		}
		vals = append(vals, value{v.FloatString(scale), n})
	}
	var rows []string
	for i, v := range vals {
		d := "NULL"
		if strings.Contains(v.text, ".") && len(v.text[strings.IndexByte(v.text, '.')+1:]) <= 4 && len(v.text) < 16 {
			d = v.text // DuckDB's decimal column here is DECIMAL(18,4)
		}
		rows = append(rows, fmt.Sprintf("%d, %s, '%s', %s", i+1, v.text, v.text, d))
	}
	dbs := engines(t, cat, map[string][]string{"r": rows})
	id := column("id")
	for _, arg := range []string{column("f"), `{"kind":"cast","expr":` + column("s") + `,"type":"decimal"}`, column("d")} {
		var items []string
		for n := range 5 {
			items = append(items, `{"expr":`+call("ROUND", arg, num(strconv.Itoa(n)))+`,"alias":"r`+strconv.Itoa(n)+`"}`)
		}
		plan := `{"select":[{"expr":` + id + `,"alias":"id"},` + strings.Join(items, ",") + `],"from":[{"table":"r","alias":"r"}],"order_by":[{"expr":` + id + `}]}`
		onEngines(t, dbs, cat, plan, func(e engineDB, got [][]string) {
			if len(got) != len(vals) {
				t.Fatalf("%s: %d rows", e.d.Name(), len(got))
			}
			bad := 0
			for i, v := range vals {
				if arg == column("d") && rows[i][len(rows[i])-4:] == "NULL" {
					continue
				}
				want := roundHalfAway(v.text, v.n)
				if g, err := strconv.ParseFloat(got[i][1+v.n], 64); err != nil || g != want {
					if bad++; bad <= 5 {
						t.Errorf("%s: ROUND(%s, %d) of %s = %s, want %v", e.d.Name(), arg, v.n, v.text, got[i][1+v.n], want)
					}
				}
			}
		})
	}
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// roundHalfAway is the double nearest the decimal s rounded half away from
// zero to n places.
func roundHalfAway(s string, n int) float64 {
	r, _ := new(big.Rat).SetString(s)
	scale := new(big.Rat).SetInt64(pow10(n))
	r.Mul(r, scale)
	neg := r.Sign() < 0
	r.Abs(r)
	q, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if new(big.Int).Mul(rem, big.NewInt(2)).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	f, _ := new(big.Rat).Quo(new(big.Rat).SetInt(q), scale).Float64()
	return f
}
