package source

import (
	"strings"
	"unicode"
)

// SampleCandidates is how many of a column's most frequent values are
// read to choose its TopValues samples from (DiverseSamples).
const SampleCandidates = 10 * TopValues

// DiverseSamples chooses n of rows (a text column's most frequent values,
// most frequent first, one value a row) so that each form the candidates
// write in shows: the most frequent value of each shape first, then the
// rest by frequency, in the candidates' order. Weights written '0.225 t',
// '12.5 kg', '12,5kg' and '800 lbs', all equally frequent, sampled by
// frequency then value, showed two values in tonnes, and a planner took
// the column for tonnes. A value's shape is its lower-case text with
// each run of digits one 9 ('12.5 kg' is '9.9 kg'), so names and words
// keep their order (each is its own shape) and numbers in one form count
// once.
// When top is false the rows are every value, all kept.
func DiverseSamples(rows [][]any, n int, top bool) [][]any {
	if !top || len(rows) <= n {
		return rows
	}
	picked := make([]bool, len(rows))
	seen := map[string]bool{}
	count := 0
	for i, r := range rows {
		if count == n {
			break
		}
		s, ok := r[0].(string)
		if !ok {
			continue
		}
		if k := shape(s); !seen[k] {
			seen[k], picked[i] = true, true
			count++
		}
	}
	for i := range rows {
		if count == n {
			break
		}
		if !picked[i] {
			picked[i] = true
			count++
		}
	}
	out := make([][]any, 0, n)
	for i, r := range rows {
		if picked[i] {
			out = append(out, r)
		}
	}
	return out
}

// shape is s lower-cased with each run of digits written 9.
func shape(s string) string {
	var b strings.Builder
	digits := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsDigit(r) {
			if !digits {
				b.WriteByte('9')
			}
			digits = true
			continue
		}
		digits = false
		b.WriteRune(r)
	}
	return b.String()
}
