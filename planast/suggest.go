package planast

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the candidate closest to name by Levenshtein distance,
// case-insensitive, or "" when none is close enough. Close enough is at
// most 2 edits and at most half of name ("Nmae" → "Name", "x" suggests
// nothing), or an abbreviation: only insertions, no more than name's own
// length ("lang_id" → "language_id"). A large distance relative to the name
// is a guess that misleads more than it helps (MEDIAN is not MIN). Ties go
// to the alphabetically first. The caller passes only names the caller may
// see. Tables, columns, functions and plan fields all use this one rule.
func Nearest(name string, cands []string) string {
	best, bestD := "", -1
	lname := strings.ToLower(name)
	n := len([]rune(name))
	for _, cand := range cands {
		d := levenshtein.ComputeDistance(lname, strings.ToLower(cand))
		close := d <= 2 && 2*d <= n
		abbrev := d > 0 && d == len([]rune(cand))-n && d <= n && n >= 3
		if !close && !abbrev {
			continue
		}
		if best == "" || d < bestD || (d == bestD && cand < best) {
			best, bestD = cand, d
		}
	}
	return best
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
