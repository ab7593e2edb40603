package index

import (
	"regexp"
	"slices"
	"strconv"
)

// yearPattern is a four-digit number standing alone in a question.
var yearPattern = regexp.MustCompile(`(^|[^0-9A-Za-z_.])([12][0-9]{3})($|[^0-9A-Za-z_])`)

// yearColumns are the allowed integer columns, not keys, whose profiled
// range lies within the years 1000..2999 and holds a four-digit number of
// the question ("in 2023" → a "year" or "season" column): a filter on a
// year is as much a value the question names as a stored string, but
// integers are not value documents. The range test, not the column's
// name, decides, so it needs a profile.
func (ix *Index) yearColumns(question string, ok func(t, c int) bool) [][2]int {
	var years []int64
	for _, m := range yearPattern.FindAllStringSubmatch(question, -1) {
		if y, err := strconv.ParseInt(m[2], 10, 64); err == nil {
			years = append(years, y)
		}
	}
	if len(years) == 0 {
		return nil
	}
	var out [][2]int
	for t, tb := range ix.snap.Tables {
		for c, col := range tb.Columns {
			if !ok(t, c) || !col.Type.IsNumeric() || col.Profile == nil || ix.refCol[t][c] || slices.Contains(ix.keys[t], c) {
				continue
			}
			lo, okLo := col.Profile.Min.(int64)
			hi, okHi := col.Profile.Max.(int64)
			if !okLo || !okHi || lo < 1000 || hi > 2999 {
				continue
			}
			for _, y := range years {
				if lo <= y && y <= hi {
					out = append(out, [2]int{t, c})
					break
				}
			}
		}
	}
	return out
}
