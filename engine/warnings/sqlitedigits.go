package warnings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// inexactLiterals explain a decimal literal SQLite cannot hold: it reads
// every number past 64-bit integers, and every decimal, as a double, so a
// literal whose digits the nearest double does not read back as
// (123456789012345678901234567890, 12345678901234567.89) is computed and
// compared as another number there, where PostgreSQL and DuckDB keep it
// exact. A literal the double reads back as written (0.1, 19.99) earns
// nothing.
func inexactLiterals(dialect string, plan *planast.Query) []string {
	if dialect != schema.DialectSQLite {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	planast.Inspect(plan, func(n planast.Node) bool {
		lit, ok := n.(*planast.Literal)
		if !ok || lit.Type != planast.TDecimal || seen[lit.Text] {
			return true
		}
		f, err := strconv.ParseFloat(lit.Text, 64)
		if err != nil {
			return true
		}
		if back := strconv.FormatFloat(f, 'f', -1, 64); back != plainDecimal(lit.Text) {
			seen[lit.Text] = true
			out = append(out, fmt.Sprintf("the literal %s has more digits than SQLite holds: it computes and compares with the double nearest it, %s, so a comparison or sum with it may be off (PostgreSQL and DuckDB keep it exact); round it to 15 significant digits, or compare the column as text",
				lit.Text, strconv.FormatFloat(f, 'g', -1, 64)))
		}
		return true
	})
	return out
}

// plainDecimal is a decimal's text without a leading +, leading zeros of
// its integer part or trailing zeros of its fraction ("007.50" is "7.5",
// "-0.0" is "-0"), as strconv writes a double.
func plainDecimal(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"), "0")
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "" || strings.HasPrefix(s, ".") {
		s = "0" + s
	}
	if neg {
		s = "-" + s
	}
	return s
}
