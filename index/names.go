package index

import (
	"slices"

	"github.com/nl2sql/nl2sql/index/joins"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/index/values"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// names are the words of the snapshot's table and column names
// (lex.SplitWords), split once per index: every retrieval reads them, and
// on a catalog of thousands of tables splitting them per question would
// cost more than the ranking.
type names struct {
	table  [][]string   // per table
	column [][][]string // per table and column
	// joined maps two or more consecutive words of a column's name,
	// written together, to the columns holding them (joinedWords).
	joined map[string][][2]int
	// named maps each name word, in the singular (lex.Singular), to the
	// tables (column -1) and columns whose names hold it: a question's
	// word is looked up once, not against every name of a large catalog.
	named map[string][][2]int
}

func nameWords(tables []schema.Table) names {
	n := names{table: make([][]string, len(tables)), column: make([][][]string, len(tables)), named: map[string][][2]int{}}
	add := func(ws []string, t, c int) {
		for _, w := range ws {
			s := lex.Singular(w)
			if l := n.named[s]; len(l) == 0 || l[len(l)-1] != [2]int{t, c} {
				n.named[s] = append(l, [2]int{t, c})
			}
		}
	}
	for t, tb := range tables {
		n.table[t] = lex.SplitWords(tb.Name)
		add(n.table[t], t, -1)
		n.column[t] = make([][]string, len(tb.Columns))
		for c, col := range tb.Columns {
			n.column[t][c] = lex.SplitWords(col.Name)
			add(n.column[t][c], t, c)
		}
	}
	n.joined = joinedWords(n.column)
	return n
}

// joinedWords indexes, for each column, every run of two or more
// consecutive words of its name written as one word, when that is at
// least three letters long: the splitting that makes "eGFR" two words (e,
// gfr), "HbA1c" four and "Home_town" two leaves a question that writes
// the term as one ("eGFR", "A1c", "hometown") no word of the name to
// match.
func joinedWords(cols [][][]string) map[string][][2]int {
	out := map[string][][2]int{}
	for t, tc := range cols {
		for c, ws := range tc {
			seen := map[string]bool{}
			for i := range ws {
				j := ws[i]
				for _, w := range ws[i+1:] {
					j += w
					if len(j) >= 3 && !seen[j] {
						seen[j] = true
						out[j] = append(out[j], [2]int{t, c})
					}
				}
			}
		}
	}
	return out
}

// words are a question's content words (folded, stop words and key words
// aside) and the name words it implies, with which name words match a
// content word (lex.SameWord: another inflection, stem or family of it),
// remembered per name word for the one retrieval.
type words struct {
	content []string
	implied map[string]bool // impliedNames
	memo    map[string]bool
}

func questionWords(question string) *words {
	qw := lex.Words(question)
	w := &words{memo: map[string]bool{}, implied: implied(qw)}
	for _, x := range qw {
		if !lex.StopWord(x) && !joins.KeyWord(x) && !slices.Contains(w.content, x) {
			w.content = append(w.content, x)
		}
	}
	return w
}

// has reports whether a name word matches one of the question's words.
func (w *words) has(name string) bool {
	if m, ok := w.memo[name]; ok {
		return m
	}
	m := slices.ContainsFunc(w.content, func(q string) bool { return lex.SameWord(name, q) })
	w.memo[name] = m
	return m
}

// namedTables are the allowed tables all of whose name's words occur in
// the question, plural endings aside ("How many courses…" names course,
// "order details" names "Order Details").
func (ix *Index) namedTables(question string, acc access) map[int]bool {
	q := map[string]bool{}
	for _, w := range lex.Words(question) {
		q[lex.Singular(w)] = true
	}
	out := map[int]bool{}
	for t := range ix.snap.Tables {
		if !acc.table[t] {
			continue
		}
		all := true
		for _, w := range ix.names.table[t] {
			if !q[lex.Singular(w)] {
				all = false
				break
			}
		}
		out[t] = all
	}
	return out
}

// labelColumn is the column that names table t's rows, or -1: its
// allowed column, not a key, named "name" or "title", else the first whose
// name ends in one (AirportName, song_title). A question that names a table asks
// about its rows ("for each stadium", "which airports"), and an answer
// shows them by their label; no word of the question need name that
// column.
func (p *plan) labelColumn(t int) int {
	first := -1
	for c := range p.ix.snap.Tables[t].Columns {
		if !p.acc.col[t][c] || p.ix.refCol[t][c] || slices.Contains(p.ix.keys[t], c) {
			continue
		}
		ws := p.ix.names.column[t][c]
		if len(ws) == 0 || !labelWords[ws[len(ws)-1]] {
			continue
		}
		if len(ws) == 1 {
			// the plain "name" beats an earlier "asciiName" or "faceName":
			// a variant of the label is not the label
			return c
		}
		if first < 0 {
			first = c
		}
	}
	return first
}

// labelColumns are the columns that name table t's rows: its label
// (labelColumn) and, when that is a person's first name, the family name
// beside it (LastName, surname): a person is named by both, and an
// answer listing people by first names alone tells two Annes apart by
// nothing.
func (p *plan) labelColumns(t int) []int {
	c := p.givenName(t)
	if c < 0 {
		c = p.labelColumn(t)
	}
	if c < 0 {
		return nil
	}
	out := []int{c}
	ws := p.ix.names.column[t][c]
	if len(ws) < 2 || !givenWords[ws[0]] {
		return out
	}
	for d, dw := range p.ix.names.column[t] {
		if d == c || !p.acc.col[t][d] || len(dw) == 0 {
			continue
		}
		if familyWords[dw[0]] || len(dw) == 1 && dw[0] == "surname" {
			return append(out, d)
		}
	}
	return out
}

// people reports whether table t's rows are people: its label is a
// first name with a family name beside it, or a full name.
func (p *plan) people(t int) bool {
	ls := p.labelColumns(t)
	if len(ls) == 2 {
		return true
	}
	if len(ls) == 1 {
		ws := p.ix.names.column[t][ls[0]]
		return len(ws) == 2 && (ws[0] == "full" || ws[0] == "person")
	}
	return false
}

// asksWho reports whether question asks who.
func asksWho(question string) bool {
	for _, w := range lex.Words(question) {
		if w == "who" || w == "whom" || w == "whose" {
			return true
		}
	}
	return false
}

// givenName is table t's allowed first-name column (FirstName, first_nm),
// or -1: a person's name labels the row before a lone Title beside it,
// which is their job's.
func (p *plan) givenName(t int) int {
	for c, ws := range p.ix.names.column[t] {
		if p.acc.col[t][c] && len(ws) == 2 && givenWords[ws[0]] && labelWords[ws[1]] {
			return c
		}
	}
	return -1
}

var (
	givenWords  = map[string]bool{"first": true, "given": true, "fore": true}
	familyWords = map[string]bool{"last": true, "family": true, "sur": true}
)

// labelWords end the names of the columns that name a table's rows.
var labelWords = map[string]bool{"name": true, "title": true, "nm": true}

// namedColumns are the allowed columns whose name the question uses: every
// word of it (key words such as "id" and stop words such as "other" not
// counted), two of its words or more ("high definition TV" names
// Hight_definition_TV, "air date" Original_air_date), or one of its words
// the question implies (impliedNames: "the youngest singer" implies
// singer.age). Words match in any inflection (lex.SameWord: "years they
// have worked" names Year_of_Work). A name the question uses is as good a
// reason to keep a column as a stored value: BM25 spreads a plain word
// ("date") over every document that holds it, so its rank alone may fall
// under the cut on a schema where the question's other words match many
// columns.
func (ix *Index) namedColumns(q *words, acc access) map[[2]int]bool {
	out := map[[2]int]bool{}
	for t, cols := range ix.names.column {
		for c, ws := range cols {
			if !acc.col[t][c] {
				continue
			}
			content, hit := 0, 0
			for _, w := range ws {
				if joins.KeyWord(w) || lex.StopWord(w) {
					continue
				}
				content++
				if q.has(w) {
					hit++
				}
			}
			if (content > 0 && hit == content) || hit >= 2 || impliesName(ws, q.implied) {
				out[[2]int{t, c}] = true
			}
		}
	}
	for _, w := range q.content {
		for _, k := range ix.names.joined[w] {
			if acc.col[k[0]][k[1]] {
				out[k] = true
			}
		}
		if s := lex.Singular(w); s != w {
			for _, k := range ix.names.joined[s] {
				if acc.col[k[0]][k[1]] {
					out[k] = true
				}
			}
		}
	}
	return out
}

// accounted reports whether every word of question that Weighed weighs
// (one at least) is a word of a table the question names (named), a word
// of a column it names or implies (cols: lex.SameWord, or the column's
// name is one the word implies) or a word of a value it spells (hits).
// Such a question has said, in the schema's own words, all it asks for:
// what the ranking adds beyond that are the columns of the named tables
// that the table's name alone ranks, which no word of the question asks
// for ("How many ships were captured?" needs ship's disposition, not its
// tonnage and location). A word nothing named accounts for ("pushed
// back", "turnaround") may be said in other terms than the schema's, and
// then the ranked columns are what finds it.
func (ix *Index) accounted(question string, named map[int]bool, cols map[[2]int]bool, hits []values.Hit) bool {
	var nameWords [][]string
	for t, ok := range named {
		if ok {
			nameWords = append(nameWords, ix.names.table[t])
		}
	}
	for k := range cols {
		nameWords = append(nameWords, ix.names.column[k[0]][k[1]])
	}
	valueWords := map[string]bool{}
	for _, h := range hits {
		for _, w := range lex.Words(h.Value) {
			valueWords[w] = true
		}
	}
	weighed := ix.weighed(question, nil)
	for _, w := range weighed {
		f := lex.Fold(w)
		if valueWords[f] {
			continue
		}
		imp := implied([]string{f})
		if !slices.ContainsFunc(nameWords, func(ws []string) bool {
			return impliesName(ws, imp) || slices.ContainsFunc(ws, func(n string) bool { return lex.SameWord(n, f) })
		}) {
			return false
		}
	}
	return len(weighed) > 0
}
