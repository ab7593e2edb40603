package schemactx

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
)

var (
	codecOnce sync.Once
	codec     tokenizer.Codec
)

// ContextTokens counts s in OpenAI's o200k_base encoding (GPT-4o and later)
// with github.com/tiktoken-go/tokenizer, whose vocabulary is compiled in:
// no network, no files. It is an estimate for other providers' tokenizers.
// Invalid UTF-8 is counted as is.
func ContextTokens(s string) int {
	n, ok := countTokens(s)
	if !ok {
		return len(s) / 4
	}
	return n
}

// countTokens counts s in o200k_base; false when the tokenizer failed.
func countTokens(s string) (int, bool) {
	codecOnce.Do(func() {
		c, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			panic("schemactx: o200k_base tokenizer: " + err.Error()) // compiled in; cannot fail
		}
		codec = c
	})
	n, err := codec.Count(s)
	return n, err == nil
}

// MaxExamples bounds the sample values shown for a column whose values are
// not all listed (AllValues false), and MaxExampleBytes the length of each:
// such samples only show the values' format (or, put first by
// index.Selection.Filter, the stored values a question matched), so a few short
// ones do. A column with at most 50 distinct values is listed whole
// (internal/source's profiling rule): those lists are what literal matching
// needs and are never cut.
const (
	MaxExamples     = 2
	MaxExampleBytes = 48
	// MaxNoteChars bounds a table's or a column's comment in the context
	// (Note): the owner's words are documentation, whose decisive
	// sentence is often its last ("only customer accounts are real
	// revenue"), so a note is whole up to a length few reach; past it
	// the cut says where the rest is.
	MaxNoteChars = 600
)

// Note is a table's or a column's comment as the context gives it, table
// naming the table it is of: JSON-quoted, whole up to MaxNoteChars
// characters; a longer one cut there, saying that describe_schema of the
// table shows it whole. describe_schema's text shows every note whole.
func Note(comment, table string) string {
	r := []rune(comment)
	if len(r) <= MaxNoteChars {
		return jsonString(comment)
	}
	return jsonString(string(r[:MaxNoteChars])+"…") + fmt.Sprintf(" (note cut at %d characters of %d: describe_schema with table %s shows it whole)", MaxNoteChars, len(r), jsonString(table))
}

// SchemaContext renders a snapshot for the planner's prompt, one line per
// table, tables sorted by name then schema:
//
//	Album (347 rows): AlbumId integer pk; Title text e.g. ["A Real Dead One"]; ArtistId integer -> Artist.ArtistId
//	Genre (25 rows): GenreId integer pk; Name text values ["Alternative","Blues",…]
//	InvoiceLine (2240 rows): …; UnitPrice decimal range [0.99, 1.99]; …
//
// A view says so after its name, with what it covers (ViewNote:
// ` view "SELECT … FROM trips t … WHERE t.status = 'done' GROUP BY d.id"`).
// A column is its name and normalised type, then "pk" for a primary-key
// column, "-> T.C" for a single-column foreign key, and of its profile
// (none for a key that is not text):
// "values [...]" (every distinct value, when the profile has them all and
// values repeat or the column is its table's only text column, the label
// of a lookup table), "e.g. [...]" (at most MaxExamples values of at most
// MaxExampleBytes bytes, otherwise: names, addresses, e-mails), "range
// [min, max]" for a text column holding ISO dates, or "range [min, max]" for a numeric or
// temporal column that is no key, "values [...]" for a SQLite boolean
// column holding text spellings ('y' beside 1: ColumnProfile.Respelled),
// and "(13% NULL)" for a share of NULL values of at least MaterialNulls
// that no values list shows; a text column of dates or numbers
// that a cast reads partly as NULL adds "as date: N unreadable (e.g.
// "27/02/2025", day first)" (writeCastNulls). Values are JSON-encoded, so quotes and
// separators inside them stay unambiguous. A multi-column foreign key ends
// the line as "fk (A, B) -> T(X, Y)". A name that is not a plain
// identifier is written as a JSON string ("Order Details"), so everything
// taken from the data (names, values) is either a plain identifier or
// inside JSON literals. The same snapshot renders
// byte-identically. Render index.Selection.Filter's sub-snapshot with it; the
// measured sizes are in index.DefaultWholeSchemaTokens' comment.
func SchemaContext(snap *schema.Snapshot) string {
	tables := sortedTables(snap)
	var b strings.Builder
	for i, t := range tables {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeTable(&b, snap, t)
	}
	return b.String()
}

// SchemaTokens is ContextTokens(SchemaContext(snap)), counted a table's
// line at a time (joinedTokens): the whole context of a 2,000-table schema
// is megabytes, and the tokenizer holds four bytes per character of what
// it counts, so counting it at once took a tenth of a build's memory.
func SchemaTokens(snap *schema.Snapshot) int {
	tables := sortedTables(snap)
	return joinedTokens(func(yield func(string) bool) {
		for _, t := range tables {
			var b strings.Builder
			writeTable(&b, snap, t)
			if !yield(b.String()) {
				return
			}
		}
	})
}

// joinedTokens is ContextTokens of the lines joined by newlines, counted
// without joining them all: o200k_base splits text into pieces before it
// merges tokens, and no piece spans a newline followed by a letter, a
// digit, '_', '$' or '"' (a piece runs on past a newline only into more
// whitespace or a '/'), so the text is cut only there, each line keeping
// its newline; a line that starts otherwise is counted with the one
// before it. lines must yield the same lines each time.
func joinedTokens(lines iter.Seq[string]) int {
	n := 0
	var chunk strings.Builder
	first := true
	for line := range lines {
		if !first {
			chunk.WriteByte('\n')
			if r, _ := utf8.DecodeRuneInString(line); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$' || r == '"' {
				k, ok := countTokens(chunk.String())
				if !ok {
					return ContextTokens(strings.Join(slices.Collect(lines), "\n"))
				}
				n += k
				chunk.Reset()
			}
		}
		first = false
		chunk.WriteString(line)
	}
	k, ok := countTokens(chunk.String())
	if !ok {
		return ContextTokens(strings.Join(slices.Collect(lines), "\n"))
	}
	return n + k
}

// sortedTables are snap's tables in SchemaContext's order: tables, then
// views, each by name. A view named for a result (driver_km) listed
// before the tables it sums read as the answer to a question it does not
// answer (km per driver in one quarter, where it sums every year): after
// the tables, its definition is read against what they hold.
func sortedTables(snap *schema.Snapshot) []schema.Table {
	tables := append([]schema.Table(nil), snap.Tables...)
	sort.SliceStable(tables, func(i, j int) bool {
		if vi, vj := tables[i].Kind == schema.KindView, tables[j].Kind == schema.KindView; vi != vj {
			return vj
		}
		if tables[i].Name != tables[j].Name {
			return tables[i].Name < tables[j].Name
		}
		return tables[i].Schema < tables[j].Schema
	})
	return tables
}

// Copies says how many rows of t repeat another exactly, after its row
// count (", 43 repeat another row exactly"; "" for none): a planner that
// reads it before summing dedups first. describe_schema's text says it
// the same way.
func Copies(t schema.Table) string {
	if t.DuplicateRows == 0 {
		return ""
	}
	return fmt.Sprintf(", %d repeat another row exactly", t.DuplicateRows)
}

// writeTable writes one table's line of SchemaContext.
func writeTable(b *strings.Builder, snap *schema.Snapshot, t schema.Table) {
	b.WriteString(planName(snap.PlanName(&t)))
	b.WriteString(ViewNote(&t))
	if t.RowCount != nil {
		fmt.Fprintf(b, " (%d rows%s)", *t.RowCount, Copies(t))
	}
	if t.Comment != "" {
		b.WriteString(" note " + NoteFrom(snap, t.CommentFrom) + Note(t.Comment, t.Name))
	}
	b.WriteString(":")
	pk := map[string]bool{}
	for _, k := range t.PrimaryKey {
		pk[k] = true
	}
	ref := map[string]string{} // column -> "T.C" of a single-column key
	var multi []schema.ForeignKey
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) == 1 && len(fk.RefColumns) == 1 {
			if _, dup := ref[fk.Columns[0]]; !dup {
				ref[fk.Columns[0]] = planName(snap.RefPlanName(fk)) + "." + name(fk.RefColumns[0]) + KeyNote(snap, &t, fk)
				continue
			}
		}
		multi = append(multi, fk)
	}
	texts := 0
	for _, c := range t.Columns {
		if c.Type == planast.TypeText {
			texts++
		}
	}
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(" " + name(c.Name) + " " + string(c.Type))
		if c.Type.IsNested() || c.Type == planast.TypeInterval || c.Type == planast.TypeUnknown && c.DeclaredType != "" {
			// the engine's own type: what a cast or comparison must respect
			b.WriteString(" (" + strings.ToLower(c.DeclaredType) + ")")
		}
		if pk[c.Name] {
			b.WriteString(" pk")
		}
		r, isFK := ref[c.Name]
		if isFK {
			b.WriteString(" -> " + r)
		}
		p := c.Profile
		nulls := p != nil && p.NullFraction >= MaterialNulls // said once below, unless a values list holds NULL
		switch {
		case p == nil || pk[c.Name] && c.Type != planast.TypeText:
			// a numeric key's range says nothing a join needs; a text
			// key's examples show how codes are spelled (" APG" against
			// a referencing "APG"), which an equality must match exactly
		case c.Type == planast.TypeText && p.Temporal != "" && p.Min != nil:
			b.WriteString(" range " + jsonList([]any{p.Min, p.Max}))
		case c.Type == planast.TypeText && len(p.SampleValues) > 0:
			if p.AllValues && (texts == 1 || !uniquePerRow(t.RowCount, p)) {
				vals := p.SampleValues
				if p.NullFraction > 0 {
					// the list is every value: NULL is one (a NOT IN over
					// it keeps no row, an = never finds it)
					vals = append(slices.Clip(vals), nil)
					nulls = false
				}
				b.WriteString(" values " + jsonList(vals))
			} else if ex := examples(p.SampleValues); len(ex) > 0 {
				b.WriteString(" e.g. " + jsonList(ex))
			}
		case c.Type == planast.TypeBoolean && p.Respelled > 0 && p.AllValues:
			// a SQLite flag holding 'y' or 'yes' beside 1 and 0: plans read
			// them as the boolean they spell, SQL written for SQLite as
			// false, and only the list shows there is text to count
			vals := p.SampleValues
			if p.NullFraction > 0 {
				vals, nulls = append(slices.Clip(vals), nil), false
			}
			b.WriteString(" values " + jsonList(vals))
		case (c.Type.IsNested() || c.Type == planast.TypeInterval) && len(p.SampleValues) > 0:
			if ex := examples(p.SampleValues); len(ex) > 0 {
				b.WriteString(" e.g. " + jsonList(ex))
			}
		case (c.Type.IsNumeric() || c.Type.IsTemporal()) && p.Min != nil && !isFK:
			b.WriteString(" range " + jsonList([]any{p.Min, p.Max}))
			b.WriteString(EpochNote(&c))
		}
		if note := UnixTimesNote(&c); note != "" && p != nil && !isFK {
			// a column of Unix times alone has no range, and needs it most
			b.WriteString(" (" + note + ")")
		}
		if note := UnreadNote(&c); note != "" && !isFK {
			// the range is of the values the type reads: '15/01/2024' may
			// be the latest date the column holds
			b.WriteString(" (" + note + ")")
		}
		if note := SpellingsNote(&c); note != "" {
			b.WriteString(" (" + note + ")")
		}
		if note := UnitNote(&t, &c); note != "" {
			b.WriteString(" (" + note + ")")
		}
		if ZoneColumn(&c) {
			// instants read in UTC: a local hour or day needs this column
			b.WriteString(" (" + ZoneNote + ")")
		}
		if nulls {
			// a range or examples say nothing of blanks: a count or an
			// average over "all" of a column 13% NULL is off by that much
			b.WriteString(" (" + NullShare(p.NullFraction) + " NULL)")
		}
		if c.Type == planast.TypeText && p != nil {
			writeCastNulls(b, p.CastNulls)
		}
		if marked, _, ok := TestFlag(&c); ok {
			b.WriteString(" (" + TestFlagNote(marked) + ")")
		}
		if marked, _, ok := DeletedMark(&c); ok {
			b.WriteString(" (" + DeletedNote(&c, marked) + ")")
		}
		if extra, ok := RepeatedIDs(snap, &t, &c); ok {
			b.WriteString(" (" + RepeatedIDsNote(extra) + ")")
		}
		if c.Comment != "" {
			b.WriteString(" note " + NoteFrom(snap, c.CommentFrom) + Note(c.Comment, t.Name))
		}
	}
	for _, fk := range multi {
		fmt.Fprintf(b, "; fk (%s) -> %s(%s)", names(fk.Columns), planName(snap.RefPlanName(fk)), names(fk.RefColumns))
	}
	for _, k := range t.UniqueKeys {
		// a lookup table keyed by (currency, month) under a surrogate id:
		// a join naming the whole key meets one row
		fmt.Fprintf(b, "; unique (%s)", names(k))
	}
}

// MaterialNulls is the least share of NULL values the context says of a
// column whose values it does not list with NULL among them: a few NULLs
// in a large column change no count a question asks for, and each note
// costs tokens every question pays for.
const MaterialNulls = 0.05

// NullShare writes a share of NULL values as a whole percentage, never
// 0% or 100% for a share that is neither; describe_schema writes it so
// too.
func NullShare(f float64) string {
	pct := math.Round(f * 100)
	switch {
	case f < 0.005:
		return "<1%"
	case f < 1 && pct >= 100:
		return ">99%"
	}
	return strconv.Itoa(int(pct)) + "%"
}

// uniquePerRow reports whether a column's non-null values are all
// distinct (names, addresses, e-mails): its complete value list names each
// row once, which helps literal matching no more than a few examples and
// the question's matched values (index.Selection.Filter puts them first) do.
func uniquePerRow(rows *int64, p *schema.ColumnProfile) bool {
	if rows == nil || *rows <= 1 {
		return false
	}
	nonNull := float64(*rows) * (1 - p.NullFraction)
	return float64(p.DistinctCount) >= nonNull-0.5
}

// name writes a table or column name as it is when it is a plain
// identifier (letters, digits, _ and $, not starting with a digit), else as
// a JSON string, so that a name holding spaces or punctuation (or text
// meant for the model) stays one delimited token of data.
func name(n string) string {
	if plain(n) {
		return n
	}
	return jsonString(n)
}

// planName is name for a table's name as plans write it (schema.table
// outside the default schema): bare when both parts are plain
// identifiers.
func planName(n string) string {
	if sch, t, ok := strings.Cut(n, "."); ok && plain(sch) && plain(t) {
		return n
	}
	return name(n)
}

func plain(n string) bool {
	for i, r := range n {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return n != ""
}

// names writes a list of names separated by ", ".
func names(ns []string) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = name(n)
	}
	return strings.Join(out, ", ")
}

// examples picks the sample values SchemaContext shows for a column whose
// values are not all listed.
func examples(vals []any) []any {
	var out []any
	for _, v := range vals {
		if s, ok := v.(string); ok && len(s) > MaxExampleBytes {
			continue
		}
		if out = append(out, v); len(out) == MaxExamples {
			break
		}
	}
	return out
}

// jsonString encodes s as a JSON string, HTML characters unescaped.
func jsonString(s string) string { return strings.TrimSuffix(jsonList([]any{s})[1:], "]") }

// jsonList encodes values as a JSON array, HTML characters unescaped and
// format characters escaped as a result table escapes them
// (cellfmt.Visible: a bidi override such as U+202E would reverse the text
// around it, a zero-width space hide one value inside another), which
// JSON reads back as the same characters.
func jsonList(vals []any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(vals) // values are the result encoding: strings, numbers, bools, nil
	return cellfmt.Visible(strings.TrimSuffix(b.String(), "\n"))
}

// ContextTables lists the table names of a SchemaContext text, in its
// order (a JSON-quoted name is decoded). Lines that are not table lines are
// skipped.
func ContextTables(ctx string) []string {
	out := []string{}
	for _, line := range strings.Split(ctx, "\n") {
		if strings.HasPrefix(line, "{") {
			continue // a semantic layer's line, no table
		}
		if strings.HasPrefix(line, `"`) {
			var n string
			if err := json.NewDecoder(strings.NewReader(line)).Decode(&n); err == nil {
				out = append(out, n)
			}
			continue
		}
		if i := strings.IndexAny(line, " :"); i > 0 {
			out = append(out, line[:i])
		}
	}
	return out
}

// writeCastNulls writes what the profile counted of a text column of
// dates or numbers that a cast reads as NULL: " as date: 1615 unreadable
// (e.g. "27/02/2025", day first)". A planner that sees only examples
// ("2023-02-15") casts the column as it is and loses those rows without a
// word until the result warns; here the first plan can read them.
func writeCastNulls(b *strings.Builder, cns []schema.CastNulls) {
	for _, cn := range cns {
		if cn.Invalid <= 0 {
			continue
		}
		what := "number"
		if cn.To.IsTemporal() {
			what = string(cn.To)
		} else if ex, _ := cn.InvalidExample.(string); !source.NumberText(ex) {
			// codes that are mostly digits (postal codes, phone
			// numbers) are no numbers to cast: only amounts written
			// for people ("$1,015.00") are said of
			continue
		}
		fmt.Fprintf(b, " as %s: %d unreadable", what, cn.Invalid)
		var more []string
		shown := cn.InvalidExample
		if cn.ReorderableExample != nil {
			shown = cn.ReorderableExample // the kind the day-first note is about
		}
		if shown != nil {
			ex := jsonList([]any{shown})
			more = append(more, "e.g. "+ex[1:len(ex)-1])
		}
		switch {
		case cn.DayFirst > 0 && cn.MonthFirst == 0:
			more = append(more, "day first")
		case cn.MonthFirst > 0 && cn.DayFirst == 0:
			more = append(more, "month first")
		case len(cn.Orders) > 1:
			// separators that write different orders ('15.02.2024',
			// '03/20/2024') are said each: one order for the column
			// reads the other's ambiguous dates in the wrong month
			for _, o := range cn.Orders {
				switch {
				case o.DayFirst > 0 && o.MonthFirst == 0:
					more = append(more, fmt.Sprintf("day first with %q", o.Sep))
				case o.MonthFirst > 0 && o.DayFirst == 0:
					more = append(more, fmt.Sprintf("month first with %q", o.Sep))
				}
			}
		}
		if cn.Reorderable > 0 && cn.Invalid > cn.Reorderable && cn.OtherExample != nil {
			// forms no reordering reads ('Feb 27, 2025'): a plan that
			// reads the others still leaves these NULL
			ex := jsonList([]any{cn.OtherExample})
			more = append(more, fmt.Sprintf("%d in other forms, e.g. %s", cn.Invalid-cn.Reorderable, ex[1:len(ex)-1]))
		}
		if len(more) > 0 {
			b.WriteString(" (" + strings.Join(more, ", ") + ")")
		}
	}
}
