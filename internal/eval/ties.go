package eval

// tieTolerant checks an ordered result whose order the gold query's ORDER BY
// does not fully determine. full is the plan's result without LIMIT and
// OFFSET, with its first nOut columns the output and keys[i] the column of
// the i-th ORDER BY key; offset is the plan's OFFSET. The gold rows match
// when, position by position from offset, each lies in the run of rows
// whose keys tie at that position: rows of equal keys may come in any
// order, and a LIMIT cutting through a tie may keep any of the tied rows.
// Columns may be permuted as in compareTables.
func tieTolerant(gold *table, full *table, nOut int, keys []int, offset int, limit *int64) bool {
	want := len(full.rows) - offset
	if limit != nil && int(*limit) < want {
		want = int(*limit)
	}
	if len(gold.cols) != nOut || want < 0 || len(gold.rows) != want {
		return false
	}
	f := canonRows(full.rows)
	g := canonRows(gold.rows)
	// group[i]: the index of the run of equal keys row i belongs to
	group := make([]int, len(f))
	for i := 1; i < len(f); i++ {
		group[i] = group[i-1]
		for _, k := range keys {
			if !f[i][k].eq(f[i-1][k]) {
				group[i]++
				break
			}
		}
	}
	window := group[offset : offset+len(g)]
	members := map[int][][]val{} // run → its rows' output columns
	for i, row := range f {
		if _, ok := members[group[i]]; ok || inWindow(window, group[i]) {
			members[group[i]] = append(members[group[i]], row[:nOut])
		}
	}
	perm := make([]int, nOut)
	used := make([]bool, nOut)
	tried := 0
	var try func(i int) bool
	try = func(i int) bool {
		if tried >= maxPermutations {
			return false
		}
		if i == nOut {
			tried++
			return windowMatches(g, window, members, perm)
		}
		for j := 0; j < nOut; j++ {
			if !used[j] {
				used[j], perm[i] = true, j
				if try(i + 1) {
					return true
				}
				used[j] = false
			}
		}
		return false
	}
	return try(0)
}

func inWindow(window []int, g int) bool {
	for _, w := range window {
		if w == g {
			return true
		}
	}
	return false
}

// windowMatches reports whether, for each run in the window, the gold rows
// at the run's positions (columns permuted: our column i is gold column
// perm[i]) are a sub-multiset of the run's rows.
func windowMatches(g [][]val, window []int, members map[int][][]val, perm []int) bool {
	byRun := map[int][][]val{}
	for pos, run := range window {
		byRun[run] = append(byRun[run], g[pos])
	}
	for run, goldRows := range byRun {
		ours := permute(members[run], perm)
		left := append([][]val(nil), ours...)
		for _, gr := range goldRows {
			found := -1
			for k, o := range left {
				if equalVals(gr, o) {
					found = k
					break
				}
			}
			if found < 0 {
				return false
			}
			left = append(left[:found], left[found+1:]...)
		}
	}
	return true
}
