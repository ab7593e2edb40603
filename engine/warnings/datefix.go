package warnings

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/nl2sql/nl2sql/planast"
)

// numericDate is a date written with two-digit day and month and a
// four-digit year, in either order: 27/02/2025, 02.27.2025, 27-02-2025.
var numericDate = regexp.MustCompile(`^([0-9]{2})([/.-])([0-9]{2})([/.-])([0-9]{4})$`)

// dateFix writes, as plan JSON, the expression (and says how it reads
// them) that reads text dates
// shaped as example (27/02/2025) as dates along with the ISO ones: a CASE
// that reorders such a value into YYYY-MM-DD with SUBSTR and CONCAT, cast
// to the type. Which of the two first parts is the day only a part over
// 12 shows; the example alone may not, so the fix reads the first as the
// day unless the example proves otherwise, and then says how to swap
// them. "" for an example of another shape (a month name, epoch
// seconds), whose reading a plan cannot spell so simply.
func dateFix(x planast.Expr, to planast.CastType, ex any) (expr, reading string) {
	s, _ := ex.(string)
	m := numericDate.FindStringSubmatch(s)
	if m == nil {
		return "", ""
	}
	first, _ := strconv.Atoi(m[1])
	second, _ := strconv.Atoi(m[3])
	day, month, which := 1, 4, "the first part as the day"
	switch {
	case second > 12 && first <= 12:
		day, month, which = 4, 1, fmt.Sprintf("the second part as the day, as %s shows", example(s, planast.TypeText))
	case first > 12:
		which = fmt.Sprintf("the first part as the day, as %s shows", example(s, planast.TypeText))
	default:
		which += fmt.Sprintf(` (%s could be either: if the data writes the month first, swap SUBSTR's starts %d and %d)`, example(s, planast.TypeText), 1, 4)
	}
	col, err := json.Marshal(x)
	if err != nil {
		return "", ""
	}
	sub := func(from, n int) string {
		return fmt.Sprintf(`{"kind": "func", "name": "SUBSTR", "args": [%s, {"kind": "literal", "value": %d}, {"kind": "literal", "value": %d}]}`, col, from, n)
	}
	dash := `{"kind": "literal", "value": "-"}`
	iso := fmt.Sprintf(`{"kind": "func", "name": "CONCAT", "args": [%s, %s, %s, %s, %s]}`, sub(7, 4), dash, sub(month, 2), dash, sub(day, 2))
	shape := "__" + m[2] + "__" + m[4] + "____"
	read := fmt.Sprintf(`{"kind": "cast", "type": %q, "expr": {"kind": "case", "whens": [{"when": {"kind": "like", "expr": %s, "pattern": {"kind": "literal", "value": %q}}, "then": %s}], "else": %s}}`,
		to, col, shape, iso, col)
	return read, fmt.Sprintf(`the %s ones reordered into ISO, reading %s`, shape, which)
}
