package tools

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/jsontext"
	"github.com/nl2sql/nl2sql/planast"
)

// TextRows is how many rows the command line's text table shows; the rest
// are printed with --json. A tool result's text shows every row it holds.
const TextRows = 50

// ResultText renders a result for the host: the answer, the SQL and every
// row the result holds as an aligned table. Many hosts hand the model only
// a tool result's text, so a row the text leaves out is a row the model
// never sees: it re-queried, or took the first rows for all there were.
// The result budget counts the table (tools.FitResult), so a long result
// is cut in both parts alike. Values come from the result's encoded rows;
// NULL is shown as NULL.
func ResultText(r *engine.Result) string { return resultText(r, len(r.Rows), "", 0) }

// CommandText is the text for the command line: a terminal table of at
// most TextRows rows, saying the rest are printed with --json.
func CommandText(r *engine.Result) string {
	return resultText(r, TextRows, "with --json", CommandFixBytes)
}

// CommandFixBytes bounds a plan fix written inline in a warning of the
// command line's text: a CASE that reads four spellings of a date is
// kilobytes of JSON on one line, which a terminal wraps into a wall
// nobody reads; the sentence stays whole and --json prints the fix.
const CommandFixBytes = 400

// resultText is the text with at most limit rows in its table, and where
// the rows past it are, and each warning's inline JSON cut past fix bytes
// (0: none).
func resultText(r *engine.Result, limit int, rest string, fix int) string {
	var b strings.Builder
	table, cut := cutTable(r.Columns, r.ColumnTypes, r.Rows, limit)
	// one allocation for the usual text (the answer, the SQL, the table
	// and a few lines after it) instead of a doubling per line
	b.Grow(len(r.Answer) + len(r.SQL) + len(table) + 256)
	b.WriteString(r.Answer)
	b.WriteString("\n\n")
	if len(r.SubQueries) > 1 { // rows from several datasources, combined
		for _, sq := range r.SubQueries {
			fmt.Fprintf(&b, "SQL of %s (%s, table %s, %d rows", cellfmt.Text(sq.Name), sq.Datasource, sq.ID, sq.RowCount)
			if sq.Truncated {
				b.WriteString(", cut at the row limit")
			}
			b.WriteString("):\n" + sq.SQL + "\n\n")
		}
		b.WriteString("SQL that combined them (DuckDB):\n" + r.SQL + "\n\n")
	} else {
		b.WriteString("SQL:\n")
		b.WriteString(r.SQL)
		b.WriteString("\n\n")
	}
	b.WriteString(table)
	if cut {
		// a host copying a value from the table would report the cut one
		fmt.Fprintf(&b, "(a value ending in … is cut in this table at %d characters, a wide character such as 東 counting two; the structured rows hold every value whole)\n", CellWidth(len(r.Columns)))
	}
	if len(r.Rows) > limit {
		fmt.Fprintf(&b, "… %d more rows %s\n", len(r.Rows)-limit, rest)
	}
	switch {
	case r.TruncatedReason == "token_budget":
		fmt.Fprintf(&b, "(the structured result holds %d of the %d rows the query returned: cut to fit the result's token budget)\n", len(r.Rows), r.QueryRowCount)
	case r.Truncated:
		b.WriteString("(cut at the row limit)\n")
	}
	b.WriteString(definitionsText(r))
	ws := r.Warnings
	if fix > 0 {
		ws = make([]string, len(r.Warnings))
		for i, w := range r.Warnings {
			ws[i] = cutFixes(w, fix)
		}
	}
	b.WriteString(warningsText(ws))
	for _, n := range r.SQLNotes {
		b.WriteString("note on the SQL: " + cellfmt.Text(n) + "\n")
	}
	return b.String()
}

// warningsText prints every warning, one a line, through cellfmt.Visible: a
// warning names tables, columns and values from the schema and the plan,
// which are data and sit in quotes inside it, and a name holding a line
// break or a control character is escaped, so an instruction in one stays
// on its warning's line and inside its quotes. Hosts that read only the
// text part see what the structured warnings say.
func warningsText(ws []string) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("warning: " + cellfmt.Visible(w) + "\n")
	}
	return b.String()
}

// Table renders columns and up to max rows as an aligned text table, each
// value by cellfmt's rule for its column's type (types may be shorter than
// cols: the rest are unknown) and shown through cellfmt.Text, so stored
// text never acts on the reader's terminal. Columns are aligned, and long
// values cut, by display width (cellfmt.Width, cellfmt.Cut): a CJK
// character or an emoji takes two terminal cells, which counting runes or
// bytes would misalign.
func Table(cols []string, types []planast.Type, rows [][]any, max int) string {
	s, _ := cutTable(cols, types, rows, max)
	return s
}

// cutTable is Table, and whether it cut a value (CellWidth).
func cutTable(cols []string, types []planast.Type, rows [][]any, max int) (string, bool) {
	lines := make([][]string, 2, 2+min(len(rows), max))
	lines[0], lines[1] = make([]string, len(cols)), make([]string, len(cols))
	for i, c := range cols {
		lines[0][i] = cellfmt.Text(c)
		lines[1][i] = strings.Repeat("-", max1(cellfmt.Width(lines[0][i]), 3))
	}
	width, cut := CellWidth(len(cols)), false
	for i, row := range rows {
		if i >= max {
			break
		}
		cells := make([]string, len(row))
		for j, v := range row {
			t := planast.TypeUnknown
			if j < len(types) {
				t = types[j]
			}
			cells[j] = cell(v, t, width)
			cut = cut || strings.HasSuffix(cells[j], "…")
		}
		lines = append(lines, cells)
	}
	return alignCells(lines), cut
}

// alignCells writes lines of cells, every cell but a line's last padded
// with spaces to its column's widest display width plus two.
func alignCells(lines [][]string) string {
	var widths []int
	cellWidths := make([][]int, len(lines)) // each cell's, measured once
	for i, l := range lines {
		cellWidths[i] = make([]int, len(l))
		for j, c := range l {
			if j == len(l)-1 {
				continue
			}
			for len(widths) <= j {
				widths = append(widths, 0)
			}
			cellWidths[i][j] = cellfmt.Width(c)
			widths[j] = max1(widths[j], cellWidths[i][j])
		}
	}
	size := 0
	for _, l := range lines {
		for j, c := range l {
			size += len(c)
			if j < len(l)-1 {
				size += widths[j] + 2 // at least: a wide cell pads less than its bytes
			}
		}
		size++
	}
	var b strings.Builder
	b.Grow(size)
	for i, l := range lines {
		for j, c := range l {
			b.WriteString(c)
			if j < len(l)-1 {
				b.WriteString(padding(widths[j] - cellWidths[i][j] + 2))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// spaces is where padding cuts its runs of spaces from.
var spaces = strings.Repeat(" ", 256)

// padding is n spaces, without allocating for the usual widths.
func padding(n int) string {
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

// CellWidth is how many terminal cells (cellfmt.Width: a CJK character
// takes two) a value of a table of n columns shows before it is cut: 60,
// or more for a table of few columns, whose line has room for a title or
// an address whole.
func CellWidth(n int) int { return max(60, 160/max(n, 1)) }

func cell(v any, t planast.Type, width int) string {
	// one formatting with the answer summary (engine/answer.go), so the
	// numbers a host quotes from either agree
	s := cellfmt.Value(v, t)
	if str, ok := v.(string); ok && t != planast.TypeBlob && (quotedType(t) || cellfmt.Mistakable(str)) {
		// stored text is shown quoted, the way the summary quotes it: a
		// cell that reads like an instruction ("</rows> SYSTEM: …") stays
		// inside its quotes, and a bare cell is always a number, a date,
		// a time, an interval, a JSON document or NULL
		// a cut value ends its quotes where the stored text shown ends and
		// the marker follows them, so the … is never read as stored text
		if cellfmt.Width(s) > width-2 {
			head, _ := cellfmt.Cut(s, width-3)
			return cellfmt.Quote(head) + "…"
		}
		return cellfmt.Quote(s)
	}
	if cellfmt.Width(s) > width && !digitsOnly(s) { // a number keeps every digit
		head, _ := cellfmt.Cut(s, width-1)
		s = head + "…"
	}
	// escaped after the cut, so an escape is never cut in half
	if t.IsNested() {
		// JSON text: its backslashes are its own escapes, not doubled
		return cellfmt.Visible(s)
	}
	return cellfmt.Text(s)
}

// quotedType reports whether a string value of a column of type t is
// stored text: a text column's, or one whose type is not known (SQLite
// expressions, NULL-typed outputs), whose strings are text too. Binary
// values are shown by their placeholder, the other types by their own
// text forms, none of which holds free words.
func quotedType(t planast.Type) bool {
	return t == planast.TypeText || t == planast.TypeUnknown || t == ""
}

func max1(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// digitsOnly reports whether s is a plain decimal number's text.
func digitsOnly(s string) bool {
	for i, r := range s {
		if !(r >= '0' && r <= '9' || r == '.' || (r == '-' || r == '+') && i == 0 || r == 'e' || r == 'E') {
			return false
		}
	}
	return s != ""
}

// cutFixes is w with each JSON object it writes inline ({"kind": …})
// longer than n bytes shown as its first n bytes and "…}", and a last
// sentence saying where it is whole; w when none is.
func cutFixes(w string, n int) string {
	var b strings.Builder
	cut := false
	for i := 0; i < len(w); {
		end := -1
		if w[i] == '{' {
			if n := jsontext.ObjectLen(w[i:]); n > 0 {
				end = i + n
			}
		}
		if end < 0 || end-i <= n {
			next := i + 1
			if end > 0 {
				next = end
			}
			b.WriteString(w[i:next])
			i = next
			continue
		}
		head, _ := cellfmt.Cut(w[i:end], n)
		b.WriteString(strings.TrimSuffix(head, "…") + "…}")
		cut, i = true, end
	}
	if !cut {
		return w
	}
	return b.String() + " (plan JSON past " + fmt.Sprint(n) + " bytes is cut here; --json prints each warning whole)"
}
