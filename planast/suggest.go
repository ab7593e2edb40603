package planast

import (
	"cmp"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the candidate closest to name by Levenshtein distance,
// case-insensitive, or "" when none is close enough. Close enough is at
// most 2 edits and at most half of name ("Nmae" → "Name", "x" suggests
// nothing), or an abbreviation: only insertions, no more than name's own
// length ("lang_id" → "language_id"). A large distance relative to the name
// is a guess that misleads more than it helps (MEDIAN is not MIN). Ties go
// to the one nearer with letter case counted ('payd' suggests "paid", not
// "Paid"), then to the alphabetically first. The caller passes only names
// the caller may see. Tables, columns, functions, plan fields and stored
// values all use this one rule.
func Nearest(name string, cands []string) string {
	if near := Near(name, cands); len(near) > 0 {
		return near[0]
	}
	return ""
}

// Near returns every candidate close enough to name by Nearest's rule,
// nearest first in Nearest's order, each once: a stored value misspelled
// several ways ('paid', 'payed', 'Paid' for 'payd') is shown whole, since
// which one the question meant is for the reader to say.
func Near(name string, cands []string) []string {
	type near struct {
		cand     string
		d, exact int
	}
	var found []near
	seen := map[string]bool{}
	lname := strings.ToLower(name)
	n := len([]rune(name))
	for _, cand := range cands {
		if seen[cand] {
			continue
		}
		seen[cand] = true
		d := levenshtein.ComputeDistance(lname, strings.ToLower(cand))
		close := d <= 2 && 2*d <= n
		abbrev := d > 0 && d == len([]rune(cand))-n && d <= n && n >= 3
		if close || abbrev {
			found = append(found, near{cand, d, levenshtein.ComputeDistance(name, cand)})
		}
	}
	slices.SortFunc(found, func(a, b near) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.exact, b.exact), strings.Compare(a.cand, b.cand))
	})
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.cand
	}
	return out
}

// sqlWordFields maps the SQL words a planner reaches for to the plan field
// that spells them, where edit distance cannot find it.
var sqlWordFields = map[string]string{
	"union": "set_ops", "union_all": "set_ops", "except": "set_ops", "intersect": "set_ops",
	"values": "list", "cte": "with", "ctes": "with",
}

// nearestField suggests a field of the node whose fields are known for an
// unknown one: the SQL word's field when the node has it, else the
// nearest known name.
func nearestField(name string, known []string) string {
	if f, ok := sqlWordFields[strings.ToLower(name)]; ok {
		for _, k := range known {
			if k == f {
				return f
			}
		}
	}
	return Nearest(name, known)
}
