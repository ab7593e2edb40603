package planast

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/nl2sql/nl2sql/internal/plural"
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
		// one number of the other ('delivery', 'deliveries': three edits)
		number := d > 0 && n >= 3 && plural.Singular(lname) == plural.Singular(strings.ToLower(cand))
		if close || abbrev || number {
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

// flagFields are the other synonyms edit distance cannot find: an order's
// direction written as a flag ("desc": true), with the field written out.
var flagFields = map[string]struct{ field, hint string }{
	"desc":       {"direction", `write "direction": "desc"`},
	"descending": {"direction", `write "direction": "desc"`},
	"asc":        {"direction", `write "direction": "asc" (or leave it out: ascending is the default)`},
	"ascending":  {"direction", `write "direction": "asc" (or leave it out: ascending is the default)`},
}

// synonym is the field of known that name stands for, by sqlWordFields
// or flagFields, with flagFields' hint.
func synonym(name string, known []string) (field, hint string) {
	lname := strings.ToLower(name)
	if f, ok := sqlWordFields[lname]; ok && slices.Contains(known, f) {
		return f, ""
	}
	if f, ok := flagFields[lname]; ok && slices.Contains(known, f.field) {
		return f.field, f.hint
	}
	return "", ""
}

// unknownField is the UNKNOWN_FIELD error for name, a field o does not
// read, naming the field most likely meant: a synonym of one of o's (sqlWordFields, flagFields), a
// field of an enclosing node spelt name (a planner writes "joins" inside a
// from item as readily as misspells it), the nearest of o's own fields,
// then the nearest of an enclosing node's. An enclosing node's field is
// never suggested as the node's own: its hint says where it belongs.
func (o *obj) unknownField(name string) error {
	path := JoinPath(o.path, name)
	known := o.known()
	if field, hint := synonym(name, known); field != "" {
		e := NewError(CodeUnknownField, path, "unknown field %q; did you mean %q?", name, field)
		e.Issues[0].Hint = hint
		return e
	}
	elsewhere := func(a *obj, field string) error {
		where := "the plan's top level"
		if a.path != "" {
			where = "at " + a.path
		}
		e := NewError(CodeUnknownField, path, "unknown field %q; %s has no such field", name, o.what)
		e.Issues[0].Hint = fmt.Sprintf("%q is a field of the enclosing %s (%s), not of %s: write it there", field, noun(a.what), where, o.what)
		return e
	}
	for a := o.parent; a != nil; a = a.parent {
		for _, f := range a.fields {
			if strings.EqualFold(f, name) {
				return elsewhere(a, f)
			}
		}
	}
	if near := Nearest(name, known); near != "" {
		return NewError(CodeUnknownField, path, "unknown field %q; did you mean %q?", name, near)
	}
	for a := o.parent; a != nil; a = a.parent {
		if near := Nearest(name, a.fields); near != "" {
			return elsewhere(a, near)
		}
	}
	return NewError(CodeUnknownField, path, "unknown field %q; the plan language has no such field", name)
}

// known lists the fields of o's kind, sorted: those it read, and those its
// kind has that this node left out.
func (o *obj) known() []string {
	known := slices.Clone(o.fields)
	for k := range o.used {
		if !slices.Contains(known, k) {
			known = append(known, k)
		}
	}
	sort.Strings(known)
	return known
}

// noun is what without its article: "a from item" → "from item".
func noun(what string) string {
	for _, art := range []string{"a ", "an "} {
		if rest, ok := strings.CutPrefix(what, art); ok {
			return rest
		}
	}
	return what
}

// nodeFields are the fields of each kind of node but expressions, by the
// name errors give the kind (asObj's what); exprFields those of each
// expression kind that holds other nodes. Both come from the types' JSON
// names, so a field added to the language is found without a list to
// keep.
var (
	nodeFields = map[string][]string{
		"a query": jsonFields(Query{}), "a CTE": jsonFields(CTE{}), "a select item": jsonFields(SelectItem{}),
		"a set operation": jsonFields(SetOp{}), "an order_by item": jsonFields(OrderItem{}), "a from item": jsonFields(From{}),
		"a join": jsonFields(Join{}), "a join key pair": jsonFields(OnPair{}), "a when arm": jsonFields(When{}),
	}
	exprFields = map[string][]string{
		"binary": jsonFields(Binary{}), "unary": jsonFields(Unary{}), "in": jsonFields(In{}), "exists": jsonFields(Exists{}),
		"subquery": jsonFields(Subquery{}), "between": jsonFields(Between{}), "like": jsonFields(Like{}), "is_null": jsonFields(IsNull{}),
		"case": jsonFields(Case{}), "cast": jsonFields(Cast{}), "func": jsonFields(Func{}), "window": jsonFields(Window{}),
	}
)

// jsonFields lists the JSON names of v's fields, with "kind" for an
// expression.
func jsonFields(v any) []string {
	t := reflect.TypeOf(v)
	var out []string
	if reflect.PointerTo(t).Implements(reflect.TypeFor[Expr]()) {
		out = append(out, "kind")
	}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
