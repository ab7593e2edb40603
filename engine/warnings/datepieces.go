package warnings

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// textDatePieces explain a plan that takes characters of a text column of
// dates written in more than one form (SUBSTR(joined_on, 1, 7), LEFT or
// RIGHT of it) or groups by its raw text, as the profile knows it
// (CastNulls of a cast to date, as the other warnings on such columns):
// "members per month" by SUBSTR(joined_on, 1, 7) over '2024-12-03' and
// '24/02/2025' came back with a month "24/02/2" of its own and February
// short, and nothing said so, where MIN, MAX, ORDER BY and comparisons of
// the same column were warned of. The warning counts those values, shows
// one and what the plan made of it, and gives PERIOD_LABEL (for the
// year, month or day a prefix of ISO text is) of dateFix's reading of the
// column: the rows then group by their date, whatever its form.
func textDatePieces(snap *schema.Snapshot, plan *planast.Query) []string {
	var out []string
	seen := map[*schema.Column]bool{}
	eachQuery(plan, func(q *planast.Query) {
		// the plan JSON of what q groups by: the validator has replaced
		// an output alias by the expression it names
		grouped := map[string]bool{}
		for _, g := range q.GroupBy {
			if j, err := planast.JSON(g); err == nil {
				grouped[string(j)] = true
			}
		}
		// the text column of mixed date forms ref reads, and what its
		// profile counted; nil when it is none or was warned of
		mixed := func(ref *planast.Column) (*schema.Column, schema.CastNulls) {
			_, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || c.Type != planast.TypeText || c.Profile == nil || seen[c] {
				return nil, schema.CastNulls{}
			}
			cn, ok := c.Profile.CastNull(planast.CastDate)
			if !ok || cn.Invalid == 0 {
				return nil, schema.CastNulls{}
			}
			return c, cn
		}
		// a piece read as a date is a reading of the column (dateFix's
		// own reorders '24/02/2025' with SUBSTR), no grouping by characters
		read := map[*planast.Func]bool{}
		inspectQuery(q, func(e planast.Expr) {
			if readsDate(e) {
				inspectOwn(e, func(x planast.Expr) {
					if f, ok := x.(*planast.Func); ok {
						read[f] = true
					}
				})
			}
		})
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || len(f.Args) == 0 || read[f] {
				return
			}
			name := strings.ToUpper(f.Name)
			if name != "SUBSTR" && name != "LEFT" && name != "RIGHT" {
				return
			}
			ref, ok := f.Args[0].(*planast.Column)
			if !ok {
				return
			}
			c, cn := mixed(ref)
			if c == nil {
				return
			}
			seen[c] = true
			j, _ := planast.JSON(f)
			out = append(out, datePieceWarning(ref, c, cn, f, grouped[string(j)]))
		})
		for _, g := range q.GroupBy {
			ref, ok := g.(*planast.Column)
			if !ok {
				continue
			}
			c, cn := mixed(ref)
			if c == nil {
				continue
			}
			seen[c] = true
			out = append(out, fmt.Sprintf("group_by on %s.%s groups its text, and %s: each such row falls into a group of its own, apart from the rows of the same date written as ISO; %s",
				ref.Table, ref.Column, otherDateForms(c, cn), byDates("group by", ref, c, cn)))
		}
	})
	return out
}

// readsDate reports whether e reads its operand as a date or timestamp:
// a cast to one, or a function of dates (PERIOD_LABEL, DATE_TRUNC,
// DATE_PART, DATE_ADD), which casts text.
func readsDate(e planast.Expr) bool {
	switch x := e.(type) {
	case *planast.Cast:
		return x.Type == planast.CastDate || x.Type == planast.CastTimestamp
	case *planast.Func:
		return planast.UnitsOf(x.Name) != nil
	}
	return false
}

// otherDateForms says that text column c holds cn.Invalid values that
// are dates in other forms than ISO, with the least of them.
func otherDateForms(c *schema.Column, cn schema.CastNulls) string {
	if cn.Invalid == 1 {
		return fmt.Sprintf("%q holds 1 value that is a date in another form than ISO (%s)", c.Name, example(cn.InvalidExample, planast.TypeText))
	}
	return fmt.Sprintf("%q holds %d values that are dates in other forms than ISO (such as %s)", c.Name, cn.Invalid, example(cn.InvalidExample, planast.TypeText))
}

// datePieceWarning explains f, SUBSTR, LEFT or RIGHT of ref (text column
// c of dates in several forms, cn its counts); grouped when the plan
// groups by f.
func datePieceWarning(ref *planast.Column, c *schema.Column, cn schema.CastNulls, f *planast.Func, grouped bool) string {
	start, n, known := piece(f)
	name := strings.ToUpper(f.Name)
	call := fmt.Sprintf("%s(%s.%s)", name, ref.Table, ref.Column)
	what := otherDateForms(c, cn)
	if known {
		call = fmt.Sprintf("%s(%s.%s, %d)", name, ref.Table, ref.Column, n)
		if name == "SUBSTR" {
			call = fmt.Sprintf("%s(%s.%s, %d, %d)", name, ref.Table, ref.Column, start+1, n)
		}
		if s, ok := cn.InvalidExample.(string); ok {
			what += fmt.Sprintf(", of which it takes %s", example(textPiece(s, start, n), planast.TypeText))
		}
	}
	// the piece of ISO text it takes is a year, a month or a day: the
	// label of that period reads every form the fix reads
	unit := ""
	if known && start == 0 {
		unit = map[int]string{4: "year", 7: "month", 10: "day"}[n]
	}
	happens := "those values compare and show by their characters, never by their date"
	switch {
	case grouped && unit != "":
		happens = fmt.Sprintf("grouped by it, each such row falls into a group of its own, and the group of its %s is short of it", unit)
	case grouped:
		happens = "grouped by it, each such row falls into a group of its own, never the group of its date"
	}
	fix := "read the column as a date instead: cast it to date (those values then read as NULL) or reformat them"
	if expr, reading := dateFix(ref, planast.CastDate, cn.InvalidExample, c.Profile); expr != "" {
		if unit != "" {
			fix = fmt.Sprintf(`take the %s of the date instead: {"kind": "func", "name": "PERIOD_LABEL", "args": [{"kind": "literal", "value": %q}, %s]} (%s)`, unit, unit, expr, reading)
		} else {
			fix = fmt.Sprintf("read the column as the date %s instead (%s), and take PERIOD_LABEL or DATE_PART of it", expr, reading)
		}
	} else if m := monthNameDates(cn.InvalidExample); m != "" {
		fix = "read the column as " + m
	}
	return fmt.Sprintf("%s takes characters of the text, and %s: %s; %s", call, what, happens, fix)
}

// textPiece is the characters of s a piece (start, n) takes.
func textPiece(s string, start, n int) string {
	r := []rune(s)
	if start < 0 {
		start = max(len(r)-n, 0)
	}
	if start >= len(r) {
		return ""
	}
	return string(r[start:min(start+n, len(r))])
}

// piece is the characters f (SUBSTR, LEFT or RIGHT with literal
// positions) takes: from start (0 for the first; -1 for RIGHT's, counted
// from the end), n of them; known false when the positions are no
// positive integer literals or SUBSTR takes the rest of the text.
func piece(f *planast.Func) (start, n int, known bool) {
	lit := func(i int) (int, bool) {
		if i >= len(f.Args) {
			return 0, false
		}
		l, ok := f.Args[i].(*planast.Literal)
		if !ok || l.Type != planast.TInteger || l.Int < 1 {
			return 0, false
		}
		return int(l.Int), true
	}
	switch strings.ToUpper(f.Name) {
	case "SUBSTR":
		from, ok1 := lit(1)
		n, ok2 := lit(2)
		return from - 1, n, ok1 && ok2
	case "LEFT":
		n, ok := lit(1)
		return 0, n, ok
	case "RIGHT":
		n, ok := lit(1)
		return -1, n, ok
	}
	return 0, 0, false
}
