package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
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

// formatValue renders a result value for text: NULL for null, numbers with
// at most two decimals, strings as stored.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return x
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
	case json.Number:
		return x.String()
	}
	return fmt.Sprint(v)
}
