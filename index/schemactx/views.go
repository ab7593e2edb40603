package schemactx

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"github.com/nl2sql/nl2sql/planast"
)

// MaxViewBytes bounds a view's definition in SchemaContext. Of a view's
// query the context shows what it covers: a view named for its result
// ("driver_km") reads as the answer to "km per driver in 2024" while it
// sums every year's completed trips, which only its FROM, WHERE and
// GROUP BY say. Its select list mostly repeats the column names the line
// lists anyway, so a query that starts with SELECT is written from its
// first FROM outside parentheses, "SELECT … FROM trips t JOIN drivers d
// ON … WHERE t.status = 'done' GROUP BY d.id"; any other (WITH …,
// VALUES) whole. Either is written on one line, comments left out, and
// cut to MaxViewBytes ending in "…": the start of the tail names the
// tables and most filters in at most about 60 tokens a view (33 on
// average over Northwind's 17 views: its whole context grew from 2,291 to
// 2,858 tokens, within the whole-schema budget). A view of long join
// chains loses its WHERE to the cut ("…"): describe_schema shows the
// definition whole (DefinitionText).
const MaxViewBytes = 240

// ViewNote is what a view's line says after its name: ` view "SELECT …
// FROM … GROUP BY d.id"` (ViewTail, quoted as data), ` view (definition
// withheld)` when the caller may not read all it names, or ` view` when
// no definition was recorded; "" for a table.
func ViewNote(t *schema.Table) string {
	switch {
	case t.Kind != schema.KindView:
		return ""
	case t.DefinitionWithheld:
		return " view (" + WithheldNote + ")"
	case t.Definition == "":
		return " view"
	}
	return " view " + jsonString(ViewTail(t.Definition))
}

// WithheldNote says that a view's definition was left out because it
// names what the caller may not read (schema.Table.DefinitionWithheld).
const WithheldNote = "definition withheld"

// ViewTail is a view's definition as SchemaContext shows it (see
// MaxViewBytes).
func ViewTail(def string) string {
	toks, err := sqlscan.ScanSQLite(def)
	if err != nil || len(toks) == 0 {
		// a definition cut inside a string: its words, on one line
		return planast.Truncate(strings.Join(strings.Fields(def), " "), MaxViewBytes)
	}
	from := 0
	if toks[0].Is("SELECT") {
		from = max(sqlscan.TopLevel(toks, "FROM"), 0)
	}
	out := oneLine(def, toks[from:], false)
	if from > 0 {
		out = "SELECT … " + out
	}
	return planast.Truncate(out, MaxViewBytes)
}

// DefinitionText is a view's whole definition on one line, for
// describe_schema: tokens separated by one space where the text had
// space, a -- comment written as /* … */ so that the code after it stays
// code.
func DefinitionText(def string) string {
	toks, err := sqlscan.ScanSQLite(def)
	if err != nil || len(toks) == 0 {
		return strings.Join(strings.Fields(def), " ")
	}
	return oneLine(def, toks, true)
}

// oneLine writes toks of def on one line, comments kept (as /* … */) or
// left out.
func oneLine(def string, toks []sqlscan.Token, comments bool) string {
	var b strings.Builder
	end := toks[0].Start
	for _, t := range toks {
		if t.Kind == sqlscan.Comment && !comments {
			continue
		}
		if b.Len() > 0 && t.Start > end {
			b.WriteByte(' ')
		}
		text := t.Text
		if t.Kind == sqlscan.Comment {
			text = strings.Join(strings.Fields(text), " ")
			if rest, ok := strings.CutPrefix(text, "--"); ok {
				text = "/* " + strings.TrimSpace(rest) + " */"
			}
		}
		b.WriteString(text)
		end = t.End
	}
	return b.String()
}
