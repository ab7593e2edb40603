package engine

import (
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/cellfmt"
)

// previewRows is how many rows the answer may draw on.
const previewRows = 20

// summarise writes the short answer from the result's first rows only. It
// states what the rows say and nothing else: every number in it comes from
// the preview.
func summarise(r *Result) string {
	n := len(r.Rows)
	switch {
	case n == 0:
		return "No rows matched the question."
	case n == 1:
		return describeRow(r.Columns, r.Rows[0]) + "."
	}
	shown := n
	if shown > 3 {
		shown = 3
	}
	parts := make([]string, shown)
	for i := 0; i < shown; i++ {
		parts[i] = describeRow(r.Columns, r.Rows[i])
	}
	count := strconv.Itoa(n) + " rows"
	if r.Truncated {
		count = "More than " + strconv.Itoa(n) + " rows (cut at the row limit)"
	}
	lead := "First: "
	if shown == n {
		lead = "They are: "
	}
	return count + ". " + lead + strings.Join(parts, "; ") + "."
}

func describeRow(cols []string, row []any) string {
	parts := make([]string, 0, len(row))
	for i, v := range row {
		name := ""
		if i < len(cols) {
			name = cols[i]
		}
		parts = append(parts, name+" "+formatValue(v))
	}
	return strings.Join(parts, ", ")
}

// formatValue renders a result value for text exactly as the result
// table of the tools prints it (cellfmt.Value): the summary never rounds a
// number more than the table a host reads it beside.
func formatValue(v any) string { return cellfmt.Value(v) }
