package tools

import (
	"fmt"
	"github.com/nl2sql/nl2sql/internal/plural"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// SnapshotText renders a schema snapshot for people: one block per table
// with its columns, types, keys and sample values.
func SnapshotText(s *schema.Snapshot) string { return snapshotTextIn(s, s) }

// snapshotTextIn is SnapshotText of a page of the snapshot whole (some of
// its tables): what a column is said to be may depend on tables the page
// leaves out (a key another table declares).
func snapshotTextIn(s, whole *schema.Snapshot) string {
	return fmt.Sprintf("datasource %s (%s), %s\n", s.Datasource, s.Dialect, plural.Relations(len(s.Tables), s.Views())) + snapshotBody(s, whole)
}

// snapshotBody is snapshotTextIn without its first line (the datasource
// and its counts), for a page that counts the listing it is part of.
func snapshotBody(s, whole *schema.Snapshot) string {
	var b strings.Builder
	if slices.ContainsFunc(s.Tables, func(t schema.Table) bool {
		return slices.ContainsFunc(t.Columns, func(c schema.Column) bool { return schemactx.ZonedType(&c) })
	}) {
		// whether TIMESTAMP '2024-01-01 00:00:00' against a timestamptz
		// depends on the session's zone: it does not, sessions run in UTC
		b.WriteString("(timestamptz columns hold instants: they read in UTC, and a timestamp literal compared with one is a UTC time)\n")
	}
	for _, t := range s.Tables {
		rows := ""
		if t.RowCount != nil {
			rows = fmt.Sprintf(", %d rows%s", *t.RowCount, schemactx.Copies(t))
		}
		fmt.Fprintf(&b, "\n%s.%s (%s%s)\n", t.Schema, t.Name, t.Kind, rows)
		switch {
		case t.DefinitionWithheld:
			b.WriteString("  " + schemactx.WithheldNote + " (it names what you may not read)\n")
		case t.Definition != "":
			// what the view covers (a filter, a grain, every year),
			// which its name does not say: the database's text, quoted
			b.WriteString("  as " + cellfmt.Quote(schemactx.DefinitionText(t.Definition)) + "\n")
		}
		if t.Comment != "" {
			// the schema's own words (which way a rate converts, what a
			// percentage applies to): quoted, as stored text is, and whole
			// (the page budget pages whole tables): a note's decisive
			// sentence is often its last
			b.WriteString("  note " + schemactx.NoteFrom(s, t.CommentFrom) + cellfmt.Quote(t.Comment) + "\n")
		}
		pk := map[string]bool{}
		for _, k := range t.PrimaryKey {
			pk[k] = true
		}
		for _, c := range t.Columns {
			flags := []string{}
			if pk[c.Name] {
				flags = append(flags, "pk")
			}
			if !c.Nullable {
				flags = append(flags, "not null")
			}
			// padded by display width: a column named in CJK keeps the
			// type column in line with the others
			line := "  " + cellfmt.Pad(c.Name, 24) + " " + cellfmt.Pad(string(c.Type), 10) + " " + cellfmt.Pad(c.DeclaredType, 14) + " " + strings.Join(flags, ", ")
			if p := c.Profile; p != nil && p.Min != nil && (c.Type.IsNumeric() || c.Type.IsTemporal() || p.Temporal != "") {
				// the profiled range, as the planners' schema context has it:
				// a host sees that orders run 2016..2018 before asking for 1997
				line += "  range [" + quotedValue(p.Min, c.Type) + ", " + quotedValue(p.Max, c.Type) + "]"
			}
			if note := schemactx.UnixTimesNote(&c); note != "" {
				// a column of Unix times alone has no range, and needs it most
				line += "  (" + note + ")"
			}
			if note := schemactx.UnreadNote(&c); note != "" {
				// the range is of the values the type reads: '15/01/2024' may
				// be the latest date the column holds
				line += "  (" + note + ")"
			}
			if note := schemactx.SpellingsNote(&c); note != "" {
				line += "  (" + note + ")"
			}
			if note := schemactx.UnitNote(&t, &c); note != "" {
				line += "  (" + note + ")"
			}
			if schemactx.ZoneColumn(&c) {
				line += "  (" + schemactx.ZoneNote + ")"
			}
			if p := c.Profile; p != nil && len(p.SampleValues) > 0 {
				vals := make([]string, 0, len(p.SampleValues))
				for _, v := range p.SampleValues {
					// stored text is data: quoted, so a sample holding a line
					// break or an instruction stays inside its quotes
					vals = append(vals, quotedValue(v, c.Type))
				}
				if p.AllValues && p.NullFraction > 0 {
					// a complete list must say NULL is among the values: a NOT
					// IN over a column holding NULL keeps no row
					vals = append(vals, "NULL")
				}
				line += sampleList(vals, p.AllValues)
			}
			if p := c.Profile; p != nil && p.NullFraction > 0 && !(p.AllValues && len(p.SampleValues) > 0) {
				// a range says nothing of blanks: 15 of 95 empty readings
				// read as none, and a count or an average over "all" is off
				line += "  " + nullShare(p.NullFraction) + " NULL"
			}
			if c.Profile != nil {
				line += castNullsText(c.Profile.CastNulls)
			}
			if marked, _, ok := schemactx.TestFlag(&c); ok {
				line += "  (" + schemactx.TestFlagNote(marked) + ")"
			}
			if marked, _, ok := schemactx.DeletedMark(&c); ok {
				line += "  (" + schemactx.DeletedNote(&c, marked) + ")"
			}
			if extra, ok := schemactx.RepeatedIDs(whole, &t, &c); ok {
				line += "  (" + schemactx.RepeatedIDsNote(extra) + ")"
			}
			if c.Comment != "" {
				// the schema's own words: quoted, as stored text is, and whole
				line += "  note " + schemactx.NoteFrom(s, c.CommentFrom) + cellfmt.Quote(c.Comment)
			}
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
		for _, fk := range t.ForeignKeys {
			fmt.Fprintf(&b, "  foreign key (%s) → %s(%s)%s\n", strings.Join(fk.Columns, ", "), fk.RefSchema+"."+fk.RefTable, strings.Join(fk.RefColumns, ", "), schemactx.KeyNote(whole, &t, fk))
		}
		for _, k := range t.UniqueKeys {
			fmt.Fprintf(&b, "  unique (%s)\n", strings.Join(k, ", "))
		}
	}
	return b.String()
}

// nullShare is schemactx.NullShare: the planners' context says a share
// as describe_schema does.
var nullShare = schemactx.NullShare

// quotedValue is a value for text a model reads: strings as JSON strings,
// everything else by cellfmt's rule. A number of a numeric column carried
// as a string (an integer beyond 2^53 keeps its digits that way) is a
// number: quoted, 9223372036854775807 read as text.
func quotedValue(v any, t planast.Type) string {
	if s, ok := v.(string); ok {
		if (t == planast.TypeInteger || t == planast.TypeDecimal) && numberText.MatchString(s) {
			return s
		}
		return cellfmt.Quote(s)
	}
	return cellfmt.Value(v, t)
}

// numberText is a decimal number as an exact value carries it.
var numberText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// sampleBudget is how many characters of a column's line its samples
// take; allValuesBudget when they are all of its values.
const sampleBudget, allValuesBudget = 100, 300

// sampleList is a column's quoted samples, whole values only (a host
// checks a spelling against them, so none is cut but a first one that
// alone passes the budget), saying how many did not fit and whether they
// are all of the column's values.
func sampleList(vals []string, all bool) string {
	// every value of a column of few: the list the ask context shows
	// whole, cut here to five of seven specialties, left a host unsure
	// which spellings exist
	budget := sampleBudget
	if all {
		budget = allValuesBudget
	}
	s, shown := "", 0
	for _, v := range vals {
		next := v
		if shown > 0 {
			next = s + " | " + v
		}
		if shown > 0 && utf8.RuneCountInString(next) > budget {
			break
		}
		s, shown = next, shown+1
	}
	if r := []rune(s); len(r) > budget {
		s = string(r[:budget-1]) + "…"
	}
	if shown < len(vals) {
		// of examples, more examples: "… 1 more" beside 150 distinct
		// values read as one more value
		n, what := len(vals)-shown, "example"
		if all {
			what = "value"
		}
		if n > 1 {
			what += "s"
		}
		s += fmt.Sprintf(" | … %d more %s", n, what)
	}
	if all {
		return "  all values: " + s
	}
	return "  e.g. " + s
}

// castNullsText says how many of a text column's values a cast to a date,
// a timestamp or a number reads as NULL (schema.ColumnProfile.CastNulls),
// with the least of them: a host that groups such a column by month knows
// before it runs that '05/01/2024' falls in no month, and can filter or
// say so. "" when the profile counted none.
func castNullsText(counts []schema.CastNulls) string {
	var parts []string
	var ex any
	for _, cn := range counts {
		if cn.Invalid == 0 {
			continue
		}
		noun := map[planast.Type]string{planast.TypeDate: "dates", planast.TypeTimestamp: "timestamps", planast.TypeFloat: "numbers"}[cn.To]
		if len(parts) == 0 {
			verb := "values are"
			if cn.Invalid == 1 {
				verb, noun = "value is", "a "+strings.TrimSuffix(noun, "s")
			}
			parts = append(parts, fmt.Sprintf("%d %s not %s", cn.Invalid, verb, noun))
			ex = cn.InvalidExample
			continue
		}
		if cn.Invalid == 1 {
			noun = "a " + strings.TrimSuffix(noun, "s")
		}
		parts = append(parts, fmt.Sprintf("%d not %s", cn.Invalid, noun))
	}
	if len(parts) == 0 {
		return ""
	}
	s := "  " + strings.Join(parts, ", ")
	if ex != nil {
		if t, ok := ex.(string); ok {
			ex = planast.Truncate(t, 40) // an example, not the value in full
		}
		s += " (such as " + quotedValue(ex, planast.TypeText) + ")"
	}
	return s + ", read as NULL when cast"
}
