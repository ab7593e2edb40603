package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The threat: the amount warning says to remove '$' before casting, a
// host does just that, and the values written another way ('$1,234.50',
// '€50,00') still read as NULL: the sum comes back short, with nothing
// said, because the profile counted the column's own values and not what
// the expression makes of them. The result must say how many values the
// cast of the expression read as NULL and show one; an expression that
// reads every value must bring nothing. On every engine.
func TestCastOfAnExpressionNamesTheValuesItLost(t *testing.T) {
	db := []string{
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, amount TEXT, clean TEXT)",
		"INSERT INTO orders VALUES (1, '$1,234.50', '$10.00')",
		"INSERT INTO orders VALUES (2, '1500', '$20.00')",
		"INSERT INTO orders VALUES (3, '$20.00', '$30.50')",
		"INSERT INTO orders VALUES (4, '€50,00', NULL)",
		"INSERT INTO orders VALUES (5, NULL, '$1.00')",
		"INSERT INTO orders VALUES (6, '$2,000.00', '$2.00')",
		"INSERT INTO orders VALUES (7, '12.5', '$3.00')",
	}
	sum := func(c string) string {
		return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":{"kind":"func","name":"REPLACE","args":[` +
			`{"kind":"column","table":"o","column":"` + c + `"},{"kind":"literal","value":"$"},{"kind":"literal","value":""}]}}]},"alias":"s"}],"from":[{"table":"orders","alias":"o"}]}`
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", []byte(sum("amount")))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "of the table as NULL")
			if !strings.Contains(w, "read 3 values") || !strings.Contains(w, `"$1,234.50"`) || !strings.Contains(w, "REPLACE") {
				t.Errorf("sum %v warnings %q, want the 3 values the REPLACE left unreadable named, with one of them", res.Rows, res.Warnings)
			}
			res, err = e.RunPlan(context.Background(), "air", []byte(sum("clean")))
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "of the table as NULL"); w != "" || !strings.HasPrefix(fmt.Sprint(res.Rows), "[[66.5") {
				t.Errorf("clean: rows %v warning %q, want 66.5 and no warning", res.Rows, w)
			}
		})
	}
}
