package hostplan

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/index/joins"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Link is a key of one datasource whose values a column of another holds:
// the columns a combined plan joins the two on. No schema declares a key
// across databases, and a host found workspaces.customer_ref to hold
// accounts.acct_code only from two free-text notes, after plans that
// joined nothing.
type Link struct {
	// Key is the column whose values are distinct (a key, or unique in
	// every profiled row), Ref the column holding them, each written
	// datasource.table.column.
	Key string `json:"key"`
	Ref string `json:"ref"`
	// Share is the share of Ref's stored values that Key holds as
	// written; Folded, when greater, the share once letter case and
	// surrounding spaces are ignored (write the fold in both plans);
	// Digits, when greater still, the share once only their digits are
	// compared, one side a bare number ('1003' beside 'LY-001003'), as
	// run_combined_plan's key folds do.
	Share  float64 `json:"share"`
	Folded float64 `json:"folded,omitempty"`
	Digits float64 `json:"digits,omitempty"`
}

// minLinkShare is the share of a column's values another's key must hold
// to be named as its link: a code most of whose values the key holds;
// below it, values shared by chance (a few city names in two lists).
const minLinkShare = 0.5

// maxLinks bounds the links a result names.
const maxLinks = 4

// links finds the links between the context tables of a and b (their
// retrievals for the question), both ways, best share first. Text keys
// are compared by their stored values alone. Integer ids of two databases
// overlap by chance (1 to 30 in both), so an integer key is named only
// where a column of the other datasource is named for it, by the rules
// that infer a schema's undeclared keys (joins.Graph: "employee_code" →
// Employee.EmployeeId, customer_id beside customers.customer_id), and
// holds its values (numberLinks).
func links(ctx context.Context, a, b *retrieved) []Link {
	var out []Link
	memo := map[string][]string{} // each column's values read once
	valuesOf := func(r *retrieved, t *schema.Table, c string) []string {
		k := r.ds.ID() + "\x00" + t.Schema + "\x00" + t.Name + "\x00" + c
		vs, ok := memo[k]
		if !ok {
			vs = r.ds.ColumnValues(ctx, t.Schema, t.Name, c)
			memo[k] = vs
		}
		return vs
	}
	for _, dir := range [][2]*retrieved{{a, b}, {b, a}} {
		keyR, refR := dir[0], dir[1]
		for _, kt := range keyR.tables() {
			for _, rt := range refR.tables() {
				for _, l := range numberLinks(&kt, &rt, func(c string) []string { return valuesOf(refR, &rt, c) }) {
					l.Key = keyR.ds.ID() + "." + keyR.snap.PlanName(&kt) + "." + l.Key
					l.Ref = refR.ds.ID() + "." + refR.snap.PlanName(&rt) + "." + l.Ref
					out = append(out, l)
				}
			}
			for _, kc := range kt.Columns {
				if kc.Type != planast.TypeText || !distinctKey(&kt, &kc) {
					continue
				}
				keys := valuesOf(keyR, &kt, kc.Name)
				if len(keys) == 0 {
					continue
				}
				ks := valueSet(keys)
				for _, rt := range refR.tables() {
					for _, rc := range rt.Columns {
						if rc.Type != planast.TypeText {
							continue
						}
						share, fshare, dshare := held(valuesOf(refR, &rt, rc.Name), ks)
						if max(fshare, dshare) < minLinkShare {
							continue
						}
						l := Link{Key: keyR.ds.ID() + "." + keyR.snap.PlanName(&kt) + "." + kc.Name,
							Ref: refR.ds.ID() + "." + refR.snap.PlanName(&rt) + "." + rc.Name, Share: round3(share)}
						if fshare > share {
							l.Folded = round3(fshare)
						}
						if dshare > max(share, fshare) {
							l.Digits = round3(dshare)
						}
						out = append(out, l)
					}
				}
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Link) int {
		if c := cmp.Compare(max(y.Share, y.Folded, y.Digits), max(x.Share, x.Folded, x.Digits)); c != 0 {
			return c
		}
		return strings.Compare(x.Key+x.Ref, y.Key+y.Ref)
	})
	// two distinct columns holding each other's values are one link
	var uniq []Link
	for _, l := range out {
		if !slices.ContainsFunc(uniq, func(u Link) bool { return u.Key == l.Ref && u.Ref == l.Key }) {
			uniq = append(uniq, l)
		}
	}
	return uniq[:min(len(uniq), maxLinks)]
}

// tables is the context's tables with every column the caller may see:
// retrieval keeps the columns the question points to, and the columns two
// datasources join on are seldom among them.
func (r *retrieved) tables() []schema.Table {
	var out []schema.Table
	for _, t := range r.snap.Tables {
		if full, ok := r.visible.Lookup(t.Schema, t.Name); ok {
			out = append(out, *full)
		}
	}
	return out
}

// distinctKey reports whether c holds a different value in every row of
// t: its one-column primary or unique key, or a profile that saw no value
// twice among two or more.
func distinctKey(t *schema.Table, c *schema.Column) bool {
	if slices.ContainsFunc(append([][]string{t.PrimaryKey}, t.UniqueKeys...), func(k []string) bool { return len(k) == 1 && k[0] == c.Name }) {
		return true
	}
	p := c.Profile
	if p == nil || t.RowCount == nil || p.DistinctCount < 2 {
		return false
	}
	n := float64(*t.RowCount)
	if p.SampledRows > 0 {
		n = float64(p.SampledRows)
	}
	return float64(p.DistinctCount) >= n*(1-p.NullFraction)-0.5
}

// keySet is a key's values as written, folded (letter case and
// surrounding spaces aside) and as their digits alone, and whether they
// are bare numbers.
type keySet struct {
	exact, folded, digits map[string]bool
	bare, codes           bool
}

func valueSet(vs []string) keySet {
	ks := keySet{exact: map[string]bool{}, folded: map[string]bool{}, digits: map[string]bool{}, bare: bareNumbers(vs), codes: codeLike(vs)}
	for _, v := range vs {
		ks.exact[v], ks.folded[fold(v)] = true, true
		if d := digitsOf(v); d != "" {
			ks.digits[d] = true
		}
	}
	return ks
}

// digitsOf is v's digits without leading zeros ('LY-001003' → "1003"),
// "" when it holds none.
func digitsOf(v string) string {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, v)
	if d == "" {
		return ""
	}
	if t := strings.TrimLeft(d, "0"); t != "" {
		return t
	}
	return "0"
}

// bareNumbers reports whether most values (nine in ten) are bare numbers:
// digits alone, surrounding spaces aside.
func bareNumbers(vs []string) bool {
	n := 0
	for _, v := range vs {
		if t := strings.TrimSpace(v); t != "" && strings.Trim(t, "0123456789") == "" {
			n++
		}
	}
	return len(vs) > 0 && n*10 >= len(vs)*9
}

// codeLike reports whether most values (nine in ten) are codes: one run
// of characters without spaces once trimmed ('LY-000501', 'ACC-00123'),
// where a name numbered among its kind has words ('Rep 7', 'Store 12').
func codeLike(vs []string) bool {
	n := 0
	for _, v := range vs {
		if t := strings.TrimSpace(v); t != "" && !strings.ContainsFunc(t, unicode.IsSpace) {
			n++
		}
	}
	return len(vs) > 0 && n*10 >= len(vs)*9
}

// maxRefValues bounds the values of a column compared with a key: the
// share is of its first ones in the index's order, enough to tell a code
// from chance, and a wide context compares hundreds of column pairs.
const maxRefValues = 500

// held is the share of refs (distinct stored values, the first
// maxRefValues) that the key holds as written and once folded; 0, 0 for
// none.
func held(refs []string, ks keySet) (share, fshare, dshare float64) {
	refs = refs[:min(len(refs), maxRefValues)]
	if len(refs) == 0 {
		return 0, 0, 0
	}
	// the digits alone only where one side is a bare number ('A-12' and
	// 'B-12' are two keys) and the other a code: 'Rep 7' and 'Store 12'
	// are names, whose digits number them among their kind, not a key's
	digits := ks.bare != bareNumbers(refs) && (ks.bare || ks.codes) && (!ks.bare || codeLike(refs))
	var n, nf, nd int
	for _, v := range refs {
		if ks.exact[v] {
			n++
		}
		if ks.folded[fold(v)] {
			nf++
		}
		if d := digitsOf(v); digits && d != "" && ks.digits[d] {
			nd++
		}
	}
	l := float64(len(refs))
	return float64(n) / l, float64(nf) / l, float64(nd) / l
}

func fold(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// linkNote says the links in one sentence for Next.
func linkNote(ls []Link) string {
	if len(ls) == 0 {
		return ""
	}
	var parts []string
	for _, l := range ls {
		p := fmt.Sprintf("%s holds %s's values (%s as written", l.Ref, l.Key, pct(l.Share))
		if l.Folded > 0 {
			p += fmt.Sprintf(", %s once letter case and surrounding spaces are ignored: fold both sides", pct(l.Folded))
		}
		if l.Digits > 0 {
			p += fmt.Sprintf(", %s when only their digits are compared, prefix and leading zeros aside: cast both sides' digits to an integer", pct(l.Digits))
		}
		parts = append(parts, p+")")
	}
	return "Join the datasources on: " + strings.Join(parts, "; ") + "."
}

func pct(f float64) string {
	p := math.Round(f * 100)
	if p == 100 && f < 1 {
		p = 99
	}
	return fmt.Sprintf("%.0f%%", p)
}

// numberLinks are the links from an integer key of kt to a column of rt
// (of another datasource) named for it: an integer column, or text that
// holds bare numbers (employee_code '3' beside Employee.EmployeeId 3) or
// codes of its digits ('VO-00079' beside owners.owner_id 79),
// whose values the key holds, at least minLinkShare of them. Key and Ref
// are column names. The key's values are known from its profile: every
// value (AllValues), or a range without gaps (as many distinct values as
// whole numbers from its least to its greatest); the other column's are
// its stored text values, or its profile's values (every one, or the most
// frequent).
func numberLinks(kt, rt *schema.Table, textValues func(column string) []string) []Link {
	var out []Link
	for _, p := range namedPairs(kt, rt) {
		kc, rc := &kt.Columns[joins.ColumnIndex(*kt, p[0])], &rt.Columns[joins.ColumnIndex(*rt, p[1])]
		if kc.Type != planast.TypeInteger || !distinctKey(kt, kc) {
			continue
		}
		holds, ok := intKeyValues(kc.Profile)
		if !ok {
			continue
		}
		var refs []int64
		text := rc.Type == planast.TypeText
		if text {
			vs := textValues(rc.Name)
			if !bareNumbers(vs) && !codeLike(vs) {
				continue
			}
			for _, v := range vs[:min(len(vs), maxRefValues)] {
				if n, err := strconv.ParseInt(digitsOf(v), 10, 64); err == nil {
					refs = append(refs, n)
				}
			}
		} else if rc.Type == planast.TypeInteger && rc.Profile != nil {
			for _, v := range rc.Profile.SampleValues {
				if n, ok := schema.Whole(v); ok {
					refs = append(refs, n)
				}
			}
		}
		if len(refs) == 0 {
			continue
		}
		n := 0
		for _, v := range refs {
			if holds(v) {
				n++
			}
		}
		share := float64(n) / float64(len(refs))
		if share < minLinkShare {
			continue
		}
		l := Link{Key: kc.Name, Ref: rc.Name, Share: round3(share)}
		if text { // '3' is not 3 as written: the plans cast the digits
			l.Share, l.Digits = 0, round3(share)
		}
		out = append(out, l)
	}
	return out
}

// namedPairs are the (key column, column) pairs joins.Graph's name rules
// join between kt and rt, each table alone with the other in a snapshot:
// each keeps its primary key, and leaves out its foreign keys (they name
// tables of its own database, and a snapshot declaring any is read as
// declaring all). rt's text columns count as of no type, which the rules'
// type check lets join an integer key; numberLinks keeps those holding
// bare numbers.
func namedPairs(kt, rt *schema.Table) [][2]string {
	a, b := *kt, *rt
	a.Schema, b.Schema = "key", "ref"
	a.ForeignKeys, b.ForeignKeys = nil, nil
	b.Columns = slices.Clone(b.Columns)
	for i := range b.Columns {
		if b.Columns[i].Type == planast.TypeText {
			b.Columns[i].Type = planast.TypeUnknown
		}
	}
	g, _, _ := joins.Graph(&schema.Snapshot{Tables: []schema.Table{a, b}})
	var out [][2]string
	for _, e := range g[0] {
		if e.To == 1 && len(e.Cols) == 1 {
			out = append(out, [2]string{e.Cols[0], e.RefCols[0]})
		}
	}
	// a reference the other system names with its own prefix
	// ("vet_owner_ref" of owners, "hr_employee_ref" of employees), which
	// the schema rules, made for one database, do not read as kt's
	if len(kt.PrimaryKey) == 1 {
		name := lex.Singular(lex.Fold(kt.Name))
		for _, c := range rt.Columns {
			w := lex.SplitWords(c.Name)
			if len(w) >= 3 && slices.Contains(w[1:len(w)-1], name) && (joins.KeyWord(w[len(w)-1]) || w[len(w)-1] == "ref") &&
				!slices.ContainsFunc(out, func(p [2]string) bool { return p[1] == c.Name }) {
				out = append(out, [2]string{kt.PrimaryKey[0], c.Name})
			}
		}
	}
	return out
}

// intKeyValues reports whether a whole number is among an integer key's
// values, when its profile knows them all: every value listed, or as many
// distinct values as whole numbers from the least to the greatest (a
// range without gaps) in a column without NULLs whose every row was read.
func intKeyValues(p *schema.ColumnProfile) (func(int64) bool, bool) {
	if p == nil {
		return nil, false
	}
	if p.AllValues {
		set := map[int64]bool{}
		for _, v := range p.SampleValues {
			if n, ok := schema.Whole(v); ok {
				set[n] = true
			}
		}
		return func(n int64) bool { return set[n] }, len(set) > 0
	}
	lo, ok1 := schema.Whole(p.Min)
	hi, ok2 := schema.Whole(p.Max)
	if !ok1 || !ok2 || p.SampledRows > 0 || p.NullFraction > 0 || hi < lo || hi-lo+1 != p.DistinctCount {
		return nil, false
	}
	return func(n int64) bool { return n >= lo && n <= hi }, true
}
