package validate

// Nearest is the validator's did-you-mean rule (nearest), for messages of
// other packages that suggest a name: the candidate closest to name by
// Levenshtein distance, case-insensitive, at most maxD edits away and
// under half of name; "" when none is that near.
func Nearest(name string, cands []string, maxD int) string { return nearest(name, cands, maxD) }
