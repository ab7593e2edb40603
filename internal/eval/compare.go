package eval

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
)

// val is a result value in the form the comparison uses: NULL, a number
// (integers and floats alike) or text.
type val struct {
	kind byte // 0 NULL, 1 number, 2 text
	f    float64
	s    string
}

var plainNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// canon converts a value as the adapters and the gold runner return it.
// Text that is a plain decimal number counts as that number: the adapters
// write integers beyond 2^53 and inexact decimals as decimal text.
func canon(v any) val {
	switch x := v.(type) {
	case nil:
		return val{}
	case int64:
		return val{kind: 1, f: float64(x)}
	case int:
		return val{kind: 1, f: float64(x)}
	case int32:
		return val{kind: 1, f: float64(x)}
	case float64:
		if math.IsNaN(x) {
			return val{}
		}
		return val{kind: 1, f: x}
	case float32:
		return val{kind: 1, f: float64(x)}
	case bool:
		if x {
			return val{kind: 1, f: 1}
		}
		return val{kind: 1, f: 0}
	case json.Number:
		f, err := x.Float64()
		if err == nil {
			return val{kind: 1, f: f}
		}
		return val{kind: 2, s: x.String()}
	case []byte:
		return val{kind: 2, s: base64.StdEncoding.EncodeToString(x)}
	case string:
		if plainNumber.MatchString(x) {
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return val{kind: 1, f: f}
			}
		}
		return val{kind: 2, s: x}
	}
	return val{kind: 2, s: fmt.Sprint(v)}
}

// relTol is the relative tolerance of float comparison.
const relTol = 1e-6

func (a val) eq(b val) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case 1:
		if a.f == b.f {
			return true
		}
		d := math.Abs(a.f - b.f)
		return d <= relTol*math.Max(math.Abs(a.f), math.Abs(b.f)) || d < 1e-12
	case 2:
		return a.s == b.s
	}
	return true
}

func (a val) less(b val) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	switch a.kind {
	case 1:
		return a.f < b.f && !a.eq(b)
	case 2:
		return a.s < b.s
	}
	return false
}

func canonRows(rows [][]any) [][]val {
	out := make([][]val, len(rows))
	for i, r := range rows {
		out[i] = make([]val, len(r))
		for j, v := range r {
			out[i][j] = canon(v)
		}
	}
	return out
}

// maxPermutations bounds the column permutations tried.
const maxPermutations = 20000

// compareTables applies the execution-match rules: the rows as a multiset
// (in order only when ordered), the columns in any order (some permutation
// of got's columns must match gold's), numbers compared numerically with a
// relative tolerance of 1e-6, NULL equal to NULL. It returns "" on a match,
// else why not.
func compareTables(gold, got *table, ordered bool) string {
	if len(gold.cols) != len(got.cols) {
		return fmt.Sprintf("returns %d columns, the gold %d", len(got.cols), len(gold.cols))
	}
	if len(gold.rows) != len(got.rows) {
		return fmt.Sprintf("returns %d rows, the gold %d", len(got.rows), len(gold.rows))
	}
	g, p := canonRows(gold.rows), canonRows(got.rows)
	n := len(gold.cols)
	// candidates[i]: gold columns whose values, as a multiset, equal got's column i
	candidates := make([][]int, n)
	for i := 0; i < n; i++ {
		pc := sortedColumn(p, i)
		for j := 0; j < n; j++ {
			if equalVals(pc, sortedColumn(g, j)) {
				candidates[i] = append(candidates[i], j)
			}
		}
		if len(candidates[i]) == 0 {
			return fmt.Sprintf("column %d (%s) holds values no gold column holds", i+1, got.cols[i])
		}
	}
	sortedGold := sortRows(g)
	perm := make([]int, n)
	used := make([]bool, n)
	tried := 0
	unorderedMatch := false
	var try func(i int) bool
	try = func(i int) bool {
		if tried >= maxPermutations {
			return false
		}
		if i == n {
			tried++
			pp := permute(p, perm)
			if ordered {
				if rowsEqual(g, pp) {
					return true
				}
				if !unorderedMatch && rowsEqual(sortedGold, sortRows(pp)) {
					unorderedMatch = true
				}
				return false
			}
			return rowsEqual(sortedGold, sortRows(pp))
		}
		for _, j := range candidates[i] {
			if used[j] {
				continue
			}
			used[j], perm[i] = true, j
			if try(i + 1) {
				return true
			}
			used[j] = false
		}
		return false
	}
	if try(0) {
		return ""
	}
	if unorderedMatch {
		return "the same rows in another order"
	}
	return "the rows differ"
}

func sortedColumn(rows [][]val, i int) []val {
	out := make([]val, len(rows))
	for r := range rows {
		out[r] = rows[r][i]
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].less(out[b]) })
	return out
}

func equalVals(a, b []val) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].eq(b[i]) {
			return false
		}
	}
	return true
}

// permute returns rows with column i taken to position perm[i].
func permute(rows [][]val, perm []int) [][]val {
	out := make([][]val, len(rows))
	for r, row := range rows {
		nr := make([]val, len(row))
		for i, j := range perm {
			nr[j] = row[i]
		}
		out[r] = nr
	}
	return out
}

func sortRows(rows [][]val) [][]val {
	out := append([][]val(nil), rows...)
	sort.SliceStable(out, func(a, b int) bool {
		for k := range out[a] {
			if out[a][k].less(out[b][k]) {
				return true
			}
			if out[b][k].less(out[a][k]) {
				return false
			}
		}
		return false
	})
	return out
}

func rowsEqual(a, b [][]val) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !equalVals(a[i], b[i]) {
			return false
		}
	}
	return true
}
