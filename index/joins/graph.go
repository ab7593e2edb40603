package joins

import (
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Edge is one join between two tables: columns Cols of the from table
// (the one whose edge list holds it) equal columns RefCols of table To.
// Inferred is true for a join guessed from names rather than declared.
type Edge struct {
	To       int
	Cols     []string // in the from table
	RefCols  []string // in the to table
	Inferred bool
}

// keyWords end the names of key columns ("customer_id", "setCode").
var keyWords = map[string]bool{"id": true, "uuid": true, "code": true, "key": true, "no": true}

// KeyWord reports whether a name word w is one that ends the names of key
// columns (id, uuid, code, key, no).
func KeyWord(w string) bool { return keyWords[w] }

// linkWords may surround a table's name in a column that references it
// ("link_to_member", "ref_customer").
var linkWords = map[string]bool{"link": true, "to": true, "ref": true, "fk": true, "of": true}

// Graph is the undirected table graph of the snapshot's foreign keys
// (both directions), and each table's primary-key columns.
//
// A snapshot that declares no foreign key at all gets inferred ones, and
// its tables without a declared primary key an inferred one:
//
//   - primary key: the first column named "id", or the table's name
//     (singular) followed by a key word: "member_id" of member, "driverId"
//     of drivers; else the first column when profiling found it unique and
//     never null ("isbn" of book);
//   - key name: a column named as another table's single-column primary
//     key joins it ("isbn" of loan = book.isbn), bare key words aside;
//   - same name: two tables' columns of one split name ending in a key word
//     (id, uuid, code, key, no) join ("raceId" = "raceId"), except bare
//     "id", "code", "key" and "no", which name each table's own key
//     ("uuid" is global by design);
//   - shortened key name: a column whose name ends in another table's
//     key with its first word cut to three letters or more ("res_id",
//     "advisor_res_id" → researchers.researcher_id), when no other
//     table's key reads so;
//   - reference by name: a column whose name is another table's name
//     (singular) plus one key word or link words joins that table's
//     column of the remaining name, else its primary key: "setCode" →
//     sets.code, "link_to_member" → member.member_id.
//
// Types must be compatible (equal, both numeric, or one unknown). A schema
// that declares some foreign keys is taken to declare all it means, except
// for a table no declared key touches: its key and links are inferred.
func Graph(snap *schema.Snapshot) (g [][]Edge, keys [][]int, inferred bool) {
	n := len(snap.Tables)
	g = make([][]Edge, n)
	keys = make([][]int, n)
	pos := map[[2]string]int{}
	for i, t := range snap.Tables {
		pos[[2]string{t.Schema, t.Name}] = i
		for _, k := range t.PrimaryKey {
			if ci := ColumnIndex(t, k); ci >= 0 {
				keys[i] = append(keys[i], ci)
			}
		}
	}
	declared := false
	for i, t := range snap.Tables {
		for _, fk := range t.ForeignKeys {
			j, ok := pos[[2]string{fk.RefSchema, fk.RefTable}]
			if !ok {
				continue
			}
			declared = true
			if i != j {
				addEdge(g, i, j, fk.Columns, fk.RefColumns, false)
			}
		}
	}
	if !declared {
		inferKeys(snap, g, keys, nil)
	} else {
		// A table that neither declares a foreign key nor is referenced
		// by one was left out of the declarations, not meant unjoinable
		// (a loaded side table): its links are inferred.
		alone := make([]bool, n)
		some := false
		for i := range g {
			alone[i] = len(g[i]) == 0
			some = some || alone[i]
		}
		if some {
			inferKeys(snap, g, keys, alone)
		}
	}
	for i := range g {
		slices.SortStableFunc(g[i], func(a, b Edge) int {
			if a.To != b.To {
				return a.To - b.To
			}
			return strings.Compare(strings.Join(a.Cols, ","), strings.Join(b.Cols, ","))
		})
	}
	return g, keys, !declared
}

// addEdge adds i→j and j→i unless i→j on these columns exists.
func addEdge(g [][]Edge, i, j int, cols, refCols []string, inferred bool) {
	for _, e := range g[i] {
		if e.To == j && slices.Equal(e.Cols, cols) && slices.Equal(e.RefCols, refCols) {
			return
		}
	}
	g[i] = append(g[i], Edge{To: j, Cols: cols, RefCols: refCols, Inferred: inferred})
	g[j] = append(g[j], Edge{To: i, Cols: refCols, RefCols: cols, Inferred: inferred})
}

// ColumnIndex is the position of the column named name in t, -1 when t
// has none.
func ColumnIndex(t schema.Table, name string) int {
	for ci, c := range t.Columns {
		if c.Name == name {
			return ci
		}
	}
	return -1
}

// singular is the table name's words with the last one made singular.
func singular(name string) []string {
	w := lex.SplitWords(name)
	if len(w) > 0 {
		w[len(w)-1] = lex.Singular(w[len(w)-1])
	}
	return w
}

// inferKeys infers primary keys and joins (see Graph); only, when not
// nil, limits it to the keys of those tables and the joins that touch one.
// Each rule finds its candidates through a map of column (or table) words,
// so a 2,000-table catalog costs one pass over its columns rather than
// one per pair of tables; the joins are added in the order a comparison
// of every pair would add them.
func inferKeys(snap *schema.Snapshot, g [][]Edge, keys [][]int, only []bool) {
	link := func(a, b int, ca, cb string) {
		if only == nil || only[a] || only[b] {
			addEdge(g, a, b, []string{ca}, []string{cb}, true)
		}
	}
	words := make([][][]string, len(snap.Tables))
	sings := make([][]string, len(snap.Tables))
	byWords := map[string][]colRef{} // a column's joined words → its columns, in snapshot order
	for i, t := range snap.Tables {
		words[i] = make([][]string, len(t.Columns))
		for ci, c := range t.Columns {
			words[i][ci] = lex.SplitWords(c.Name)
			k := wordsKey(words[i][ci])
			byWords[k] = append(byWords[k], colRef{i, ci})
		}
		sings[i] = singular(t.Name)
		if len(keys[i]) > 0 || (only != nil && !only[i]) {
			continue
		}
		sing := sings[i]
		for ci, w := range words[i] {
			if (len(w) == 1 && w[0] == "id") ||
				(len(w) == len(sing)+1 && keyWords[w[len(w)-1]] && slices.Equal(w[:len(sing)], sing)) {
				keys[i] = []int{ci}
				break
			}
		}
		if len(keys[i]) == 0 && len(t.Columns) > 1 && uniqueColumn(t, 0) {
			keys[i] = []int{0}
		}
	}
	// Key name: a column named as another table's single-column primary
	// key (declared, or inferred above) joins it, whatever the key's name
	// ends in ("isbn", "card_number"), or as that key without its key word
	// ("store" → "StoreCode", "cds" → "CDSCode"); a bare key word stays
	// each table's own.
	for b, tb := range snap.Tables {
		if len(keys[b]) != 1 {
			continue
		}
		kb := keys[b][0]
		wk := words[b][kb]
		if len(wk) == 0 || (len(wk) == 1 && keyWords[wk[0]] && wk[0] != "uuid") {
			continue
		}
		cands := slices.Clone(byWords[wordsKey(wk)])
		if len(wk) >= 2 && keyWords[wk[len(wk)-1]] && !keyWords[wk[len(wk)-2]] {
			cands = append(cands, byWords[wordsKey(wk[:len(wk)-1])]...)
			slices.SortFunc(cands, colRef.compare)
		}
		for _, c := range cands {
			if c.table != b && compatible(snap.Tables[c.table].Columns[c.col].Type, tb.Columns[kb].Type) {
				link(c.table, b, snap.Tables[c.table].Columns[c.col].Name, tb.Columns[kb].Name)
			}
		}
	}
	// Shortened key name: a column whose name ends in a short form of one
	// table's key, its first word cut to three letters or more and the
	// same key word ("res_id", "advisor_res_id" → researchers.researcher_id),
	// joins it when no other table's key reads so.
	type shortKey struct {
		table int
		word  string
	}
	byKeyWord := map[string][]shortKey{} // key word → the tables whose key is [word, key word]
	for b := range snap.Tables {
		if len(keys[b]) != 1 {
			continue
		}
		wk := words[b][keys[b][0]]
		if len(wk) == 2 && keyWords[wk[1]] && !keyWords[wk[0]] && len(wk[0]) >= 4 {
			byKeyWord[wk[1]] = append(byKeyWord[wk[1]], shortKey{b, wk[0]})
		}
	}
	for a, ta := range snap.Tables {
		for ca, wa := range words[a] {
			if len(wa) < 2 || !keyWords[wa[len(wa)-1]] {
				continue
			}
			p := wa[len(wa)-2]
			if len(p) < 3 || keyWords[p] {
				continue
			}
			var hit []shortKey
			for _, k := range byKeyWord[wa[len(wa)-1]] {
				if k.table != a && len(p) < len(k.word) && strings.HasPrefix(k.word, p) {
					hit = append(hit, k)
				}
			}
			if len(hit) != 1 {
				continue
			}
			tb := snap.Tables[hit[0].table]
			kb := keys[hit[0].table][0]
			if compatible(ta.Columns[ca].Type, tb.Columns[kb].Type) {
				link(a, hit[0].table, ta.Columns[ca].Name, tb.Columns[kb].Name)
			}
		}
	}
	// Same name.
	for a, ta := range snap.Tables {
		for ca, wa := range words[a] {
			if len(wa) == 0 || !keyWords[wa[len(wa)-1]] || (len(wa) == 1 && wa[0] != "uuid") {
				continue // a bare "id" or "code" is each table's own
			}
			for _, c := range byWords[wordsKey(wa)] {
				if c.table > a && compatible(ta.Columns[ca].Type, snap.Tables[c.table].Columns[c.col].Type) {
					link(a, c.table, ta.Columns[ca].Name, snap.Tables[c.table].Columns[c.col].Name)
				}
			}
		}
	}
	// Reference by name: the tables whose singular name starts with one of
	// the column's words are the only ones it can name.
	byFirst := map[string][]int{}
	for b, s := range sings {
		if len(s) > 0 {
			byFirst[s[0]] = append(byFirst[s[0]], b)
		}
	}
	var cands []int
	for a, ta := range snap.Tables {
		for ca, wa := range words[a] {
			cands = cands[:0]
			for _, w := range wa {
				cands = append(cands, byFirst[w]...)
			}
			slices.Sort(cands)
			for _, b := range slices.Compact(cands) {
				if a == b {
					continue
				}
				tb := snap.Tables[b]
				rest, ok := cut(wa, sings[b])
				if !ok {
					continue
				}
				target := -1
				switch {
				case len(rest) == 1 && keyWords[rest[0]]:
					for cb, wb := range words[b] {
						if slices.Equal(wb, rest) {
							target = cb
						}
					}
					if target < 0 && len(keys[b]) == 1 {
						target = keys[b][0]
					}
				case allLink(rest) && len(keys[b]) == 1:
					target = keys[b][0]
				}
				if target >= 0 && compatible(ta.Columns[ca].Type, tb.Columns[target].Type) {
					link(a, b, ta.Columns[ca].Name, tb.Columns[target].Name)
				}
			}
		}
	}
}

// colRef is a column by its table's and its own position.
type colRef struct{ table, col int }

func (c colRef) compare(d colRef) int {
	if c.table != d.table {
		return c.table - d.table
	}
	return c.col - d.col
}

// wordsKey joins a name's words into a map key (words hold no NUL).
func wordsKey(w []string) string { return strings.Join(w, "\x00") }

// cut removes the first contiguous occurrence of sub from w.
// uniqueColumn reports whether the profile shows column ci of t with a
// distinct non-null value in every row of a non-empty table: the first
// column of a table with no key of the usual names is its key when it is.
func uniqueColumn(t schema.Table, ci int) bool {
	p := t.Columns[ci].Profile
	return t.RowCount != nil && *t.RowCount > 1 && p != nil && p.NullFraction == 0 && p.DistinctCount == *t.RowCount
}

func cut(w, sub []string) ([]string, bool) {
	if len(sub) == 0 {
		return nil, false
	}
	for i := 0; i+len(sub) <= len(w); i++ {
		if slices.Equal(w[i:i+len(sub)], sub) {
			return append(slices.Clone(w[:i]), w[i+len(sub):]...), true
		}
	}
	return nil, false
}

func allLink(ws []string) bool {
	for _, w := range ws {
		if !linkWords[w] {
			return false
		}
	}
	return true
}

func compatible(a, b planast.Type) bool {
	if a == b || a == planast.TypeUnknown || b == planast.TypeUnknown {
		return true
	}
	return a.IsNumeric() && b.IsNumeric()
}

// Referencing marks the columns that join another table and are not their
// table's primary key: foreign keys, declared or inferred.
func Referencing(snap *schema.Snapshot, g [][]Edge, keys [][]int) [][]bool {
	out := make([][]bool, len(snap.Tables))
	for t, tb := range snap.Tables {
		out[t] = make([]bool, len(tb.Columns))
		for _, e := range g[t] {
			for _, c := range e.Cols {
				if ci := ColumnIndex(tb, c); ci >= 0 && !slices.Contains(keys[t], ci) {
					out[t][ci] = true
				}
			}
		}
	}
	return out
}
