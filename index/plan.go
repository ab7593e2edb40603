package index

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/nl2sql/nl2sql/index/joins"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// Tuning holds the selection policy's constants. The zero value means
// DefaultTuning. Sizes scale with the schema (n allowed tables, d allowed
// documents: tables plus columns), so one setting serves a five-table and
// a fifty-table schema.
type Tuning struct {
	// RRFK is the reciprocal-rank-fusion constant: a document at rank r
	// (from 1) of a ranking contributes weight/(RRFK+r). 60 is the value of
	// Cormack, Clarke and Büttcher (SIGIR 2009); a larger constant flattens
	// the rankings, a smaller one trusts their heads.
	RRFK int
	// Weights of the BM25, vector, value and mention rankings, in that
	// order.
	Weights [4]float64
	// SeedTableShare: the best ⌈SeedTableShare·n⌉ tables, ordered by their
	// best document, are seeds.
	SeedTableShare float64
	// SeedDocScale: the tables of the best SeedDocScale·√d documents are
	// seeds too.
	SeedDocScale float64
	// ColumnDocScale: a non-key column of a kept table is kept when it is
	// among the best ColumnDocScale·√d documents.
	ColumnDocScale float64
	// MinColumns: each seed table keeps at least its best MinColumns
	// non-key columns.
	MinColumns int
	// FillShare: after the seeds and their bridges, further tables (best
	// first) are kept while the kept columns stay within FillShare of all
	// allowed columns; FillColumns is MinColumns for them.
	FillShare   float64
	FillColumns int
}

// DefaultTuning is the policy Retrieve uses when Options.Tuning is zero. It
// was set through evalret by sweeping each constant over a grid, never by
// looking at one database or question; the last sweep (MinColumns 2 → 1,
// equal recall at a lower column share) ran on the tuning half of the
// Spider and BIRD development databases only (evalret.HalfOf), so the
// held-out half measures schemas it was not tuned on. FillShare 0.45 →
// 0.35 came with keeping, of the foreign keys, only those joining kept
// tables (plan.keyColumns), on the tuning half too: equal recall at a
// lower column share. Keeping the columns the question names or implies
// (namedColumns) and the label of a table it names (labelColumn) whatever
// their rank only adds columns: held-out column recall 0.957 → 0.970
// (Spider) and 0.958 → 0.967 (BIRD) at a column share of 0.44 → 0.48 and
// 0.30 → 0.32. Cutting the shares with them (MinColumns 0, fill 30%,
// ranked columns at most 15% of the documents, primary keys only where
// they join) cost held-out column recall while the tuning half showed no
// loss, so the shares stay where they were. A label that is the plain
// "name" before a suffixed one (cards.name, not cards.asciiName): held-out
// BIRD column recall 0.967 → 0.968, share 0.317 → 0.316, the rest equal.
// Seeds by coverage (the first table, then each that explains a word,
// value or spelled-out name of the question no better one explains) in
// place of the best ⌈0.4·n⌉, primary keys only where they join or the
// question asks for ids, and fewer ranked columns cut the tuning half's
// Spider share from 0.51 to 0.34 at a column recall of 0.997, and cost
// the held-out half recall at every setting tried (Spider 0.951 at a
// share of 0.34, BIRD 0.917 at 0.22; with keys and ranked columns as here
// but coverage seeds, 0.960 and 0.958): the tables a count of best tables
// keeps beyond the question's evidence carry columns the held-out
// questions need. Names matched in any inflection and by two words or
// more (namedColumns) only add columns: equal recall, BIRD share +0.001.
// The tuning halves could not tell those cuts apart, so a third set was
// written to tune on (scripts/retrieval-tuneset: eight databases, 235
// questions, wide tables, undeclared keys, a star schema, views). On it:
// views seed only when named (seeds), a person's family name beside a
// named table's first name (labelColumns), initialisms (lex.Abbreviates),
// two-letter, money and passenger words (impliedNames) and keys joined by
// a shortened name (joins.Graph: "advisor_res_id" → researcher_id) took
// table and column recall from 0.885 and 0.856 to 0.945 and 0.908 at a
// share of 0.272 → 0.277, the Spider and BIRD tuning halves unchanged;
// held-out column recall 0.970 (Spider, equal) and 0.968 → 0.969 (BIRD). Ranked columns
// at 1.5·√d cut that set's share to 0.256 and its column recall to
// 0.888: it tells what the halves could not, and the cut stays out.
// Then a question that asks who labels each kept table of people
// (plan.people), a first and family name label people before a lone
// Title (their job's; plan.givenName), and a unit word ending a column
// name (susp_cnt, reclass_rt) leaves the words before it to match
// (lex.Abbreviates), and units of distance and stock with their verbs
// (impliedNames: drove, kilometres → km): that set 0.908 → 0.917 column
// recall at a share of 0.277 → 0.278; the halves, tuning and held out,
// unchanged (BIRD held-out share 0.319 → 0.320).
// Then a table of people kept as a bridge labelled when the question asks
// who, the label of the best seed (LabelSeeds) and names matched by words
// the question writes together (names.joined: "eGFR", "A1c"): that set
// 0.917 → 0.928 column recall at a share of 0.278 → 0.280, the tuning
// halves equal (Spider share 0.511 → 0.513); held out, Spider 0.970 →
// 0.971 at 0.482 → 0.486, BIRD 0.968 equal at 0.320 → 0.321.
// Then no ranked columns beyond each table's least for a question every
// weighed word of which a named table, column or value accounts for
// (plan.accounted): every recall equal, column share 0.513 → 0.487
// (Spider tuning half) and 0.280 → 0.278 (that set), BIRD's equal. Cuts
// tried beside it cost that set column recall for little share: ranked
// columns only where a column's own name, comment or sample matches
// (0.928 → 0.901 at a Spider share of 0.478), primary keys only where
// they join (0.923, 0.493), seeds without a named word, column or value
// kept with their join keys alone (0.881, 0.476); labels of every seed
// gave it 0.933 at a share of 0.295 and a lost fill table.
// Then a country named by its people ("Canadian" → 'Canada', a country
// column: package places) and everyday words for a sales tax, a boss, a
// salesperson and an airline (impliedNames): that set's table and column
// recall 0.945 → 0.962 and 0.928 → 0.936 at an equal share (0.278), the
// Spider tuning half's value recall 0.981 → 0.988; held out, Spider
// column recall 0.970 → 0.971 (share 0.474 → 0.471) and BIRD 0.968 →
// 0.970.
// Then, for a question plan.accounted finds every weighed word of, seeds
// past the first only among the tables it evidences (plan.evidenced) and
// no fill: that set's share 0.278 → 0.265 and the Spider tuning half's
// 0.483 → 0.455 at equal recall everywhere; held out, Spider 0.471 →
// 0.462 at an equal column recall (0.971), BIRD equal. Letting a named
// table's spelled columns or values stand for its least ranked column
// (MinColumns) as well took the Spider tuning half to 0.419 at equal
// tuning recall, and cost held-out Spider column recall 0.971 → 0.968
// (share 0.433): the least column again carries what held-out questions
// need, and it stays out. Counting named labels or implied names as that
// column cost this set recall besides (a money word implies a price; the
// revenue needs the quantity the least column kept).
var DefaultTuning = Tuning{
	RRFK:           60,
	Weights:        [4]float64{1, 0.5, 1, 1},
	SeedTableShare: 0.4,
	SeedDocScale:   1,
	ColumnDocScale: 2,
	MinColumns:     1,
	FillShare:      0.35,
	FillColumns:    1,
}

func (t Tuning) withDefaults() Tuning {
	if t == (Tuning{}) {
		return DefaultTuning
	}
	return t
}

func colID(t, c int) string { return fmt.Sprintf("c/%05d/%05d", t, c) }

// plan is the state of one selection.
type plan struct {
	ix        *Index
	acc       access
	b         Budget
	tun       Tuning
	fused     []ranked // every ranked document, best first
	valueCols map[[2]int]bool
	// yearCols may filter a year the question names (yearColumns): kept
	// with a seed or bridge table, not with a fill table, whose place
	// they would take.
	yearCols map[[2]int]bool
	named    map[int]bool // tables whose name the question spells (namedTables)
	// asksWho: the question asks who (who, whom, whose): the answer names
	// people, by the label of a kept table of people
	asksWho bool
	// namedCols are the columns whose name the question spells or implies
	// (namedColumns): kept with their table, whatever their rank.
	namedCols map[[2]int]bool
	// accounted: every weighed word of the question is a word of a table
	// it names, of a column it names or of a value it spells
	// (Index.accounted). The best-ranked columns are then no more than
	// the ranking's guesses at what the question's words already
	// reached, so none are kept beyond each table's least (MinColumns).
	accounted bool
	// top are the best LabelSeeds seed tables: kept with their label
	// (labelColumns) whatever the question's words.
	top map[int]bool
	// Sizes of the allowed schema.
	nTables, nDocs, nCols int
}

// LabelSeeds is how many of the best seed tables keep their label
// (labelColumns) although no word of the question names it: a question
// asks for the rows of its best table under a word of its own ("which
// movies…" of a table film, "which assays…" of lab_test), and an answer
// shows those rows by their label. The labels take no room from the fill
// (plan.selection): they are what a planner shows, not what it filters.
// One: on the tuning set the best three seeds kept twice as many needed
// labels at four times the column share.
const LabelSeeds = 1

func (p *plan) doc(i int) doc { return p.ix.docs[i] }

func (p *plan) count() {
	for t, ok := range p.acc.table {
		if ok {
			p.nTables++
		}
		for _, c := range p.acc.col[t] {
			if c {
				p.nCols++
			}
		}
	}
	for _, ok := range p.acc.doc {
		if ok {
			p.nDocs++
		}
	}
}

// selection runs the policy: seeds, expansion, columns, fill.
func (p *plan) selection() *Selection {
	p.count()
	columnDocs := int(math.Round(p.tun.ColumnDocScale * math.Sqrt(float64(p.nDocs))))
	if p.accounted {
		columnDocs = 0
	}
	seeds, order := p.seeds()
	p.top = map[int]bool{}
	for _, t := range seeds[:min(len(seeds), LabelSeeds)] {
		p.top[t] = true
	}
	kept, bridge := joins.Expand(p.ix.graph, seeds, p.acc.table, p.b.MaxTables)
	kept = p.links(kept, bridge)
	fill := map[int]bool{}
	keep := p.columns(kept, bridge, fill, columnDocs)

	// Fill: further tables, best first, each only while the kept columns
	// (its keys and best FillColumns included) stay within the cap.
	fillCap := min(p.b.MaxColumns, int(p.tun.FillShare*float64(p.nCols)))
	for t := range p.top {
		if !bridge[t] && !p.named[t] {
			fillCap += len(p.labelColumns(t)) // LabelSeeds
		}
	}
	in := map[int]bool{}
	for _, t := range kept {
		in[t] = true
	}
	for _, t := range order {
		// a question the schema's own words account for has named every
		// table it needs (seeds): a fill table is one no word asks for
		if p.accounted || len(kept) >= p.b.MaxTables || len(keep) >= fillCap {
			break
		}
		if in[t] {
			continue
		}
		try := append(slices.Clone(kept), t)
		fill[t] = true
		if k := p.columns(try, bridge, fill, columnDocs); len(k) <= fillCap {
			kept, keep, in[t] = try, k, true
		} else {
			delete(fill, t)
		}
	}

	sel := &Selection{Datasource: p.ix.snap.Datasource, DefaultSchema: p.ix.snap.Default(), Tables: []TableSelection{}}
	sort.Ints(kept)
	for _, t := range kept {
		tb := p.ix.snap.Tables[t]
		ts := TableSelection{Schema: tb.Schema, Name: tb.Name, Columns: []string{}, Bridge: bridge[t]}
		for ci, c := range tb.Columns {
			if keep[[2]int{t, ci}] {
				ts.Columns = append(ts.Columns, c.Name)
			}
		}
		sel.Tables = append(sel.Tables, ts)
	}
	return sel
}

// links adds, as bridges, the link tables between kept tables that join
// no other way directly: a table of mostly key columns (linkTable) joined
// to two kept tables that are not joined to each other. Expansion connects
// each seed by one shortest path, which may run through a shared
// neighbour (client and account both join district) although the
// question's relation is the link table's (client – disp – account).
func (p *plan) links(kept []int, bridge map[int]bool) []int {
	in := map[int]bool{}
	for _, t := range kept {
		in[t] = true
	}
	adjacent := func(a, b int) bool {
		for _, e := range p.ix.graph[a] {
			if e.To == b {
				return true
			}
		}
		return false
	}
	for t := range p.ix.snap.Tables {
		if len(kept) >= p.b.MaxTables {
			break
		}
		if in[t] || !p.acc.table[t] || !p.linkTable(t) {
			continue
		}
		var ends []int
		for _, e := range p.ix.graph[t] {
			if in[e.To] && !bridge[e.To] && !slices.Contains(ends, e.To) {
				ends = append(ends, e.To)
			}
		}
		joins := false
		for i := range ends {
			for _, b := range ends[i+1:] {
				joins = joins || !adjacent(ends[i], b)
			}
		}
		if joins {
			kept = append(kept, t)
			in[t], bridge[t] = true, true
		}
	}
	return kept
}

// linkTable reports whether at least half of table t's columns, and two
// or more, are keys or join other tables: a table that relates rows of
// others more than it describes anything (attendance, disp).
func (p *plan) linkTable(t int) bool {
	tb := p.ix.snap.Tables[t]
	keyCols := map[int]bool{}
	for _, c := range p.ix.keys[t] {
		keyCols[c] = true
	}
	for _, e := range p.ix.graph[t] {
		for _, c := range e.Cols {
			if ci := joins.ColumnIndex(tb, c); ci >= 0 {
				keyCols[ci] = true
			}
		}
	}
	return len(keyCols) >= 2 && 2*len(keyCols) >= len(tb.Columns)
}

// seeds returns the seed tables, best first, and every allowed table in
// the order of its best document. A referencing column's document
// ("driverId" of results) does not rank its own table: it speaks for the
// table it references. Seeds are the best ⌈SeedTableShare·n⌉ tables, the
// tables of the best SeedDocScale·√d documents, and the tables the
// question names. A view seeds only when the question names it: views
// repeat their base tables' columns under report names, and as seeds
// they took every table slot from the base tables whose keys join what
// the question relates (a salesperson to the sales); a view may still
// fill a slot left over. When every weighed word of the question is
// accounted for (plan.accounted), a table past the first is a seed only
// if the question evidences it (plan.evidenced): the count of best tables
// then adds only tables that rank by sharing a word with one the question
// named ("battles" ranks ship through lost_in_battle).
func (p *plan) seeds() (seeds, order []int) {
	seedTables := int(math.Ceil(p.tun.SeedTableShare * float64(p.nTables)))
	seedDocs := int(math.Round(p.tun.SeedDocScale * math.Sqrt(float64(p.nDocs))))
	var ev map[int]bool
	if p.accounted {
		ev = p.evidenced()
	}
	isSeed, seen := map[int]bool{}, map[int]bool{}
	for i, r := range p.fused {
		d := p.doc(r.doc)
		t := d.table
		if d.col >= 0 && p.ix.refCol[t][d.col] {
			continue
		}
		if !seen[t] {
			seen[t] = true
			order = append(order, t)
		}
		if !isSeed[t] && (i < seedDocs || len(seeds) < seedTables) && (p.ix.snap.Tables[t].Kind != schema.KindView || p.named[t]) && (ev == nil || len(seeds) == 0 || ev[t]) {
			isSeed[t] = true
			seeds = append(seeds, t)
		}
	}
	for _, t := range order {
		if !isSeed[t] && p.named[t] {
			isSeed[t] = true
			seeds = append(seeds, t)
		}
	}
	return seeds, order
}

// evidenced are the tables the question evidences: those it names, the
// tables of people when it asks who ("the people who went to the Spring
// Gala": "people" weighs too little to be a word it must account for),
// those holding a value it spells or a year it names, those with a column it
// names that is neither a bare label ("name", "title": every table has
// one, and "the names of the teachers" asks for the teacher's) nor a
// key to another table (concert.stadium_id, named by "stadiums", speaks
// for stadium), and the tables such a named key joins.
func (p *plan) evidenced() map[int]bool {
	ev := map[int]bool{}
	for t, ok := range p.named {
		if ok {
			ev[t] = true
		}
	}
	for t, ok := range p.acc.table {
		if !p.asksWho {
			break
		}
		if ok && p.people(t) {
			ev[t] = true
		}
	}
	for k := range p.valueCols {
		ev[k[0]] = true
	}
	for k := range p.yearCols {
		ev[k[0]] = true
	}
	for k := range p.namedCols {
		t, c := k[0], k[1]
		if !p.ix.refCol[t][c] {
			if !p.bareLabel(t, c) {
				ev[t] = true
			}
			continue
		}
		n := p.ix.snap.Tables[t].Columns[c].Name
		for _, e := range p.ix.graph[t] {
			if slices.Contains(e.Cols, n) {
				ev[e.To] = true
			}
		}
	}
	return ev
}

// bareLabel reports whether every word of column c's name is a label
// word (name, title, nm).
func (p *plan) bareLabel(t, c int) bool {
	for _, w := range p.ix.names.column[t][c] {
		if !labelWords[w] {
			return false
		}
	}
	return true
}

// columns picks the columns of the kept tables: their key columns, the
// columns holding matched values, and (but for bridges) the columns the
// question names or implies (namedCols) and a named table's label; then,
// by fused rank, each column among
// the best columnDocs documents and each table's best few (MinColumns for
// a seed, FillColumns for a fill table, none for a bridge), until
// MaxColumns.
func (p *plan) columns(kept []int, bridge, fill map[int]bool, columnDocs int) map[[2]int]bool {
	in := map[int]bool{}
	for _, t := range kept {
		in[t] = true
	}
	keep := map[[2]int]bool{}
	for _, t := range kept {
		for _, ci := range p.keyColumns(t, in) {
			if p.acc.col[t][ci] {
				keep[[2]int{t, ci}] = true
			}
		}
	}
	for k := range p.valueCols {
		if in[k[0]] {
			keep[k] = true
		}
	}
	for k := range p.yearCols {
		if in[k[0]] && !fill[k[0]] {
			keep[k] = true
		}
	}
	for k := range p.namedCols {
		if in[k[0]] && !bridge[k[0]] {
			keep[k] = true
		}
	}
	for _, t := range kept {
		// a table of people answers who even as a bridge: the question's
		// words name its role ("who chairs", "who leads"), through the
		// key of the table they rank (chair_id, pi_id), not the table
		if (p.named[t] || p.top[t]) && !bridge[t] || p.asksWho && p.people(t) {
			for _, c := range p.labelColumns(t) {
				keep[[2]int{t, c}] = true
			}
		}
	}
	perTable := map[int]int{}
	for i, r := range p.fused {
		d := p.doc(r.doc)
		if d.col < 0 || !in[d.table] {
			continue
		}
		key := [2]int{d.table, d.col}
		if keep[key] || len(keep) >= p.b.MaxColumns {
			continue
		}
		least := p.tun.MinColumns
		switch {
		case bridge[d.table]:
			least = 0
		case fill[d.table]:
			least = p.tun.FillColumns
		}
		if i < columnDocs || perTable[d.table] < least {
			keep[key] = true
			perTable[d.table]++
		}
	}
	return keep
}

// keyColumns are table t's primary-key columns (declared or inferred) and
// its columns that join a kept table (declared or inferred keys, both
// ends): a foreign key to a table left out joins nothing in the
// selection, and the ranking keeps it when the question asks for it ("the
// ship id").
func (p *plan) keyColumns(t int, kept map[int]bool) []int {
	tb := p.ix.snap.Tables[t]
	out := slices.Clone(p.ix.keys[t])
	for _, e := range p.ix.graph[t] {
		if !kept[e.To] || !p.acc.table[e.To] {
			continue
		}
		for _, n := range e.Cols {
			if ci := joins.ColumnIndex(tb, n); ci >= 0 {
				out = append(out, ci)
			}
		}
	}
	return out
}

// focus is a whole selection's Focus: the columns holding values the
// question names, then the best-ranked non-key columns until n, grouped by
// table in snapshot order, columns in table order.
func (p *plan) focus(n int) []TableSelection {
	keep := map[[2]int]bool{}
	for k := range p.valueCols {
		keep[k] = true
	}
	for k := range p.yearCols {
		keep[k] = true
	}
	base := len(keep)
	for _, r := range p.fused {
		if len(keep) >= base+n {
			break
		}
		d := p.doc(r.doc)
		if d.col >= 0 && p.acc.col[d.table][d.col] && !p.isKey(d.table, d.col) {
			keep[[2]int{d.table, d.col}] = true
		}
	}
	var out []TableSelection
	for ti, t := range p.ix.snap.Tables {
		var cols []string
		for ci, c := range t.Columns {
			if keep[[2]int{ti, ci}] {
				cols = append(cols, c.Name)
			}
		}
		if len(cols) > 0 {
			out = append(out, TableSelection{Schema: t.Schema, Name: t.Name, Columns: cols})
		}
	}
	return out
}

// isKey reports whether a column is in its table's primary key or one of
// its foreign keys: keys carry no values worth showing.
func (p *plan) isKey(t, c int) bool {
	tb := &p.ix.snap.Tables[t]
	return isKeyColumn(tb, tb.Columns[c].Name)
}
