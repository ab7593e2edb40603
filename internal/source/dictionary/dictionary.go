package dictionary

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

// Querier is the read-only query path of an adapter (source.Source.Query):
// the dictionary is read as any query is, under its gate and timeout.
type Querier interface {
	Query(ctx context.Context, sql string, args []any, maxRows int) (*source.Result, error)
}

// Bounds of the read.
const (
	// MaxRows is the most rows of one documentation table read.
	MaxRows = 5000
	// sampleRows are the rows a candidate table is judged by.
	sampleRows = 200
	// maxCandidates is the most tables sampled: a catalog of thousands
	// of tables is not read table by table at each open.
	maxCandidates = 64
	// maxColumns: a documentation table is narrow.
	maxColumns = 16
	// sampleChars is how much of each value a sample reads: enough for
	// any name and to tell prose, never a document per cell.
	sampleChars = 300
)

// budget bounds the whole read, beside each statement's own timeout.
var budget = source.DefaultTimeout

// noteNames are words of a column name that say it holds the note.
var noteNames = []string{"note", "description", "comment", "definition", "meaning", "remark", "explanation", "documentation"}

// tableNames are words of a column name that say it names tables: such
// tables are sampled first.
var tableNames = []string{"table", "tbl", "entity", "object", "relation"}

// Attach makes the notes of the datasource's documentation tables (read
// through q) the comments of the tables and columns of snap they name,
// where those have none, and lists those tables in snap.Dictionaries (see
// the package comment). A table that cannot be read is logged on log and
// its notes left out; a read that runs out of time attaches nothing.
func Attach(ctx context.Context, snap *schema.Snapshot, q Querier, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	rctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	r := reader{snap: snap, q: q, log: log, refs: map[string]target{}, taken: map[target]bool{}}
	tooLong := func() bool {
		if rctx.Err() != nil && ctx.Err() == nil {
			log.Warn("reading the documentation tables took too long; their notes are left out", "datasource", snap.Datasource, "limit", budget)
		}
		return rctx.Err() != nil
	}
	found := map[int]schema.Dictionary{}
	for _, ti := range candidates(snap) {
		if d, ok := r.detect(rctx, ti); ok {
			found[ti] = d
		}
		if tooLong() {
			return
		}
	}
	// read in snapshot order, which is by schema and name: the first
	// gives an object documented twice its note
	for _, ti := range slices.Sorted(maps.Keys(found)) {
		r.read(rctx, ti, found[ti])
		if tooLong() {
			return
		}
	}
	for _, n := range r.notes {
		if n.target.col < 0 {
			t := &snap.Tables[n.target.table]
			t.Comment, t.CommentFrom = n.text, n.from
		} else {
			c := &snap.Tables[n.target.table].Columns[n.target.col]
			c.Comment, c.CommentFrom = n.text, n.from
		}
	}
	snap.Dictionaries = append(snap.Dictionaries, r.dicts...)
}

// target is a table (col -1) or a column of snap.Tables.
type target struct{ table, col int }

// note is the text a dictionary gives one target.
type note struct {
	target target
	text   string
	from   *schema.Relation
}

type reader struct {
	snap  *schema.Snapshot
	q     Querier
	log   *slog.Logger
	refs  map[string]target // a table's value, resolved (table -1: none)
	taken map[target]bool   // targets given a note
	notes []note
	dicts []schema.Dictionary
}

// candidates are the indexes of the tables of snap that may be
// documentation tables, at most maxCandidates: narrow tables with two
// text columns or more, those with a column named like table names or
// notes first, then in snapshot order.
func candidates(snap *schema.Snapshot) []int {
	var out []int
	hint := map[int]int{}
	for i, t := range snap.Tables {
		if t.Kind != schema.KindTable || len(t.Columns) > maxColumns || len(textColumns(&t)) < 2 {
			continue
		}
		for _, c := range textColumns(&t) {
			if named(c, tableNames) || named(c, noteNames) {
				hint[i]++
			}
		}
		out = append(out, i)
	}
	slices.SortStableFunc(out, func(a, b int) int { return hint[b] - hint[a] })
	if len(out) > maxCandidates {
		out = out[:maxCandidates]
	}
	return out
}

// textColumns are the names of t's columns that may hold text: text of a
// string type (an enum takes no substr), or no declared type (an SQLite
// column declared without one).
func textColumns(t *schema.Table) []string {
	var out []string
	for _, c := range t.Columns {
		if c.Type == planast.TypeText && c.TextOf == "" || c.Type == planast.TypeUnknown && c.DeclaredType == "" {
			out = append(out, c.Name)
		}
	}
	return out
}

// named reports whether column name holds one of words.
func named(name string, words []string) bool {
	l := strings.ToLower(name)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(l, w) })
}

// selectFrom is the SELECT of the first chars characters of each of t's
// columns cols (as "c0", "c1", …), from t as d: an ORDER BY names its
// columns as d."name", which no alias shadows.
func selectFrom(t *schema.Table, cols []string, chars int) string {
	sel := make([]string, len(cols))
	for i, c := range cols {
		sel[i] = fmt.Sprintf(`substr(d.%s, 1, %d) AS "c%d"`, source.QuoteIdent(c), chars, i)
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM " + source.QuoteIdent(t.Schema) + "." + source.QuoteIdent(t.Name) + " AS d"
}

// detect samples table ti and says which of its columns name tables,
// columns and notes, ok false when it is no documentation table.
func (r *reader) detect(ctx context.Context, ti int) (schema.Dictionary, bool) {
	t := &r.snap.Tables[ti]
	cols := textColumns(t)
	res, err := r.q.Query(ctx, selectFrom(t, cols, sampleChars), nil, sampleRows)
	if err != nil {
		// any table is sampled: one this role reads only in part is no fault
		r.log.Debug("cannot sample a table for notes", "datasource", r.snap.Datasource, "table", t.Name, "err", err)
		return schema.Dictionary{}, false
	}
	rows := texts(res.Rows)
	if len(rows) == 0 {
		return schema.Dictionary{}, false
	}
	// the column naming tables: most rows name one
	tc, best := -1, 0
	for i := range cols {
		n := 0
		for _, row := range rows {
			if row[i] != "" && r.ref(t.Schema, row[i]).table >= 0 {
				n++
			}
		}
		if n > best && n*5 >= len(rows)*4 {
			tc, best = i, n
		}
	}
	if tc < 0 {
		return schema.Dictionary{}, false
	}
	// the column naming their columns, if any
	cc, best := -1, 0
	for i := range cols {
		if i == tc {
			continue
		}
		n, filled := 0, 0
		for _, row := range rows {
			if row[i] == "" {
				continue
			}
			filled++
			if tg := r.ref(t.Schema, row[tc]); tg.table >= 0 && tg.col < 0 && columnOf(&r.snap.Tables[tg.table], row[i]) >= 0 {
				n++
			}
		}
		if n > best && n*5 >= filled*4 {
			cc, best = i, n
		}
	}
	nc := r.noteColumn(cols, rows, tc, cc)
	if nc < 0 {
		return schema.Dictionary{}, false
	}
	// a log names the same objects again and again
	objects, noted := map[target]bool{}, 0
	for _, row := range rows {
		if row[nc] == "" {
			continue
		}
		if tg, ok := r.target(t.Schema, row[tc], pick(row, cc)); ok {
			objects[tg] = true
			noted++
		}
	}
	if len(objects) == 0 || noted > 3*len(objects) {
		return schema.Dictionary{}, false
	}
	d := schema.Dictionary{Schema: t.Schema, Name: t.Name, TableColumn: cols[tc], NoteColumn: cols[nc]}
	if cc >= 0 {
		d.ColumnColumn = cols[cc]
	}
	return d, true
}

// noteColumn is the column of prose among cols other than tc and cc: the
// first named like a note, else the one with the longest values; -1 when
// fewer than half of its values are prose.
func (r *reader) noteColumn(cols []string, rows [][]string, tc, cc int) int {
	nc, longest := -1, -1.0
	for i, c := range cols {
		if i == tc || i == cc {
			continue
		}
		if named(c, noteNames) {
			nc = i
			break
		}
		total, filled := 0, 0
		for _, row := range rows {
			if row[i] != "" {
				total += utf8.RuneCountInString(row[i])
				filled++
			}
		}
		if filled > 0 && float64(total)/float64(filled) > longest {
			nc, longest = i, float64(total)/float64(filled)
		}
	}
	if nc < 0 {
		return -1
	}
	prose, filled := 0, 0
	for _, row := range rows {
		if row[nc] == "" {
			continue
		}
		filled++
		if isProse(row[nc]) {
			prose++
		}
	}
	if filled == 0 || prose*2 < filled {
		return -1
	}
	return nc
}

// isProse reports whether s is two words or more: a sentence, not a
// code, a name or a timestamp.
func isProse(s string) bool {
	words := 0
	for _, f := range strings.Fields(s) {
		if strings.ContainsFunc(f, unicode.IsLetter) {
			words++
		}
	}
	return words >= 2
}

// read reads the notes of dictionary d (table ti) in its key order and
// keeps, for each object without a comment nor a note of an earlier
// dictionary, its rows' text.
func (r *reader) read(ctx context.Context, ti int, d schema.Dictionary) {
	t := &r.snap.Tables[ti]
	cols := d.Columns()
	var order []string
	for _, c := range append(slices.Clone(t.PrimaryKey), cols...) {
		order = append(order, "d."+source.QuoteIdent(c))
	}
	// a note longer than a comment may be is cut anyway
	res, err := r.q.Query(ctx, selectFrom(t, cols, schema.MaxCommentBytes+1)+" ORDER BY "+strings.Join(order, ", "), nil, MaxRows)
	if err != nil {
		if ctx.Err() == nil {
			r.log.Warn("cannot read the documentation table; its notes are left out", "datasource", r.snap.Datasource, "table", t.Name, "err", err)
		}
		return
	}
	cc := -1
	if d.ColumnColumn != "" {
		cc = 1
	}
	rel := &schema.Relation{Schema: d.Schema, Name: d.Name}
	byTarget := map[target][]string{}
	var seq []target // in the order of their first row
	for _, row := range texts(res.Rows) {
		text := row[len(row)-1]
		if text == "" {
			continue
		}
		tg, ok := r.target(d.Schema, row[0], pick(row, cc))
		if !ok || r.taken[tg] || r.comment(tg) != "" {
			continue
		}
		if _, seen := byTarget[tg]; !seen {
			seq = append(seq, tg)
		}
		byTarget[tg] = append(byTarget[tg], text)
	}
	for _, tg := range seq {
		r.taken[tg] = true
		r.notes = append(r.notes, note{target: tg, text: planast.Truncate(strings.Join(byTarget[tg], " "), schema.MaxCommentBytes), from: rel})
	}
	if len(seq) > 0 {
		r.dicts = append(r.dicts, d)
	}
}

// comment is tg's comment as introspected.
func (r *reader) comment(tg target) string {
	t := &r.snap.Tables[tg.table]
	if tg.col < 0 {
		return t.Comment
	}
	return t.Columns[tg.col].Comment
}

// target is the object a row names: table value tv (a table, or
// "table.column"), and column cv of it when cv is not "".
func (r *reader) target(sch, tv, cv string) (target, bool) {
	tg := r.ref(sch, tv)
	switch {
	case tg.table < 0:
		return tg, false
	case cv == "":
		return tg, true
	case tg.col >= 0:
		return tg, false // a column named twice
	}
	tg.col = columnOf(&r.snap.Tables[tg.table], cv)
	return tg, tg.col >= 0
}

// ref resolves a value naming a table, case-insensitively, in the
// dictionary's schema sch first: "orders", "sales.orders", or
// "orders.status" for a column. table is -1 when it names none.
func (r *reader) ref(sch, v string) target {
	key := sch + "\x00" + v
	if tg, ok := r.refs[key]; ok {
		return tg
	}
	tg := target{table: -1, col: -1}
	if i := r.table(sch, v); i >= 0 {
		tg.table = i
	} else if dot := strings.LastIndexByte(v, '.'); dot > 0 {
		if i := r.table(sch, v[:dot]); i >= 0 {
			if c := columnOf(&r.snap.Tables[i], v[dot+1:]); c >= 0 {
				tg = target{table: i, col: c}
			}
		}
	}
	r.refs[key] = tg
	return tg
}

// table is the index of the table v names, -1 for none.
func (r *reader) table(sch, v string) int {
	if v == "" {
		return -1
	}
	t, ok := r.snap.Lookup(sch, v)
	if !ok {
		t, ok = r.snap.Lookup("", v)
	}
	if !ok {
		return -1
	}
	return slices.IndexFunc(r.snap.Tables, func(x schema.Table) bool { return x.Schema == t.Schema && x.Name == t.Name })
}

// columnOf is the index of t's column name, -1 for none.
func columnOf(t *schema.Table, name string) int {
	c, ok := t.Column(name)
	if !ok {
		return -1
	}
	return slices.IndexFunc(t.Columns, func(x schema.Column) bool { return x.Name == c.Name })
}

// texts are rows as trimmed strings ("" for NULL or a value no text).
func texts(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, row := range rows {
		out[i] = make([]string, len(row))
		for j, v := range row {
			out[i][j] = strings.TrimSpace(source.AsString(v))
		}
	}
	return out
}

// pick is row[i], "" when i < 0.
func pick(row []string, i int) string {
	if i < 0 {
		return ""
	}
	return row[i]
}
