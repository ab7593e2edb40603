package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// textNumbersDB: invoices whose numbers are written as text: invoice_no
// runs 990 to 1009 (across a width, every value profiled), batch_no 1000
// to 1019 (one width), order_no 1000 to 1059 and ticket_no 999 and 1000
// to 1058 (too many values for the profile to hold them all; order_no of
// one width), total amounts of several widths, part_no codes of one width
// padded with zeros ('000900', too many to hold too).
func textNumbersDB() []string {
	var rows []string
	for i := 0; i < 60; i++ {
		invoice, batch := "NULL", "NULL"
		if i < 20 {
			invoice, batch = fmt.Sprintf("'%d'", 990+i), fmt.Sprintf("'%d'", 1000+i)
		}
		ticket := fmt.Sprintf("'%d'", 1000+i)
		if i == 59 {
			ticket = "'999'"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, '%d', %s, '%d', '%06d')", i+1, invoice, batch, 1000+i, ticket, []int{9, 10, 120}[i%3], 900+i))
	}
	return []string{
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, invoice_no TEXT, batch_no TEXT, order_no TEXT, ticket_no TEXT, total TEXT, part_no TEXT)",
		"INSERT INTO invoices VALUES " + strings.Join(rows, ", "),
	}
}

// The threat: "the latest invoice number" as MAX(invoice_no) over numbers
// written as text says '999' where 1009 is stored, and the warning worded
// it as amounts ("not the smallest and largest amounts"), which a host
// reading about invoice numbers took for another column's. An
// identifier's warning speaks of its numbers' order, with a pair of its
// own values text misorders and the cast that orders them (which gives
// the true extreme); amounts keep the amounts' words. And the warning is
// said only where it is true: not of numbers of one width every value of
// which the profile holds (text orders them as numbers), nor, after a
// run, where the text extreme of the rows read is the numbers' (a check,
// which runs nothing, still says it where the profile cannot tell).
func TestTextNumbersOrderWarningFitsTheColumn(t *testing.T) {
	agg := func(fn, arg, where string) string {
		doc := `{"select":[{"expr":{"kind":"func","name":"` + fn + `","args":[` + arg + `]},"alias":"v"}],"from":[{"table":"invoices","alias":"i"}]`
		if where != "" {
			doc += `,"where":` + where
		}
		return doc + `}`
	}
	col := func(c string) string { return `{"kind":"column","table":"i","column":"` + c + `"}` }
	firstTen := `{"kind":"binary","op":"<=","left":` + col("id") + `,"right":{"kind":"literal","value":10}}`
	const said = "orders its values as text"
	for _, en := range everyEngine(textNumbersDB()) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				name, fn, col, where string
				run                  string // a phrase of the run's warning, "" for none
				check                bool   // check_plan says it
				number               string // the extreme the warning's cast gives
			}{
				{"latest invoice number", "MAX", "invoice_no", "", "MAX of i.invoice_no orders its values as text, and this identifier holds numbers written as text: text orders character by character ('990' comes after '1000'), so the first and last are not the lowest and highest numbers", true, "1009"},
				{"first invoice number", "MIN", "invoice_no", "", "MIN of i.invoice_no orders its values as text, and this identifier", true, "990"},
				{"batch numbers of one width", "MAX", "batch_no", "", "", false, ""},
				{"order numbers of one width, not all profiled", "MAX", "order_no", "", "", true, ""},
				{"ticket numbers across a width", "MIN", "ticket_no", "", "MIN of i.ticket_no orders its values as text, and this identifier", true, "999"},
				{"ticket numbers of the rows read", "MAX", "ticket_no", firstTen, "", true, ""},
				// text orders codes padded with zeros as their numbers, and a
				// cast would drop the zeros they are written with
				{"zero-padded part numbers, not all profiled", "MAX", "part_no", "", "", false, ""},
				{"amounts", "MAX", "total", "", "MAX of i.total orders its values as text, and it holds numbers written as text: text orders character by character ('9999.99' comes after '$12,500.00', '9' after '10'), so the first and last rows are not the smallest and largest amounts", true, ""},
			} {
				plan := agg(c.fn, col(c.col), c.where)
				res := runAir(t, e, plan)
				w := warningWith(res.Warnings, said)
				if c.run == "" && w != "" || c.run != "" && !strings.Contains(w, c.run) {
					t.Errorf("%s: rows %v warnings %q\nwant one with %q", c.name, res.Rows, res.Warnings, c.run)
				}
				check, err := e.CheckPlan(context.Background(), "air", []byte(plan), "")
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if got := warningWith(check.Warnings, said) != ""; got != c.check {
					t.Errorf("%s: check warnings %q, want the text order said: %v", c.name, check.Warnings, c.check)
				}
				if c.number == "" {
					continue
				}
				_, cast, _ := strings.Cut(w, "cast the column to an integer (")
				cast, _, _ = strings.Cut(cast, ") to order them as numbers")
				fixed := runAir(t, e, agg(c.fn, cast, c.where))
				if got := fmt.Sprint(fixed.Rows[0][0]); got != c.number {
					t.Errorf("%s: %s over the warning's cast %s = %s, want %s", c.name, c.fn, cast, got, c.number)
				}
			}
		})
	}
}
