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

// The threat, the other way: a host that reads each form of amount in its
// own branch of a CASE (euro amounts with a decimal comma, dollar amounts
// with thousands commas) was told the cast of each branch read the other
// branch's values as NULL, a false alarm that teaches it to ignore the
// real ones. A cast in a branch is judged by the rows that reach the
// branch: silent when it reads them all, named with the count of those it
// does not.
func TestCastInACaseBranchCountsItsOwnRows(t *testing.T) {
	db := []string{
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, amount TEXT)",
		"INSERT INTO orders VALUES (1, '$1,234.50'), (2, '1500'), (3, '$20.00'), (4, '€50,00'), (5, NULL), (6, '$2,000.00')",
	}
	amount := `{"kind":"column","table":"o","column":"amount"}`
	replace := func(x, from, to string) string {
		return `{"kind":"func","name":"REPLACE","args":[` + x + `,{"kind":"literal","value":"` + from + `"},{"kind":"literal","value":"` + to + `"}]}`
	}
	cast := func(x string) string { return `{"kind":"cast","type":"decimal","expr":` + x + `}` }
	like := func(p string) string {
		return `{"kind":"like","expr":` + amount + `,"pattern":{"kind":"literal","value":"` + p + `"}}`
	}
	euro := cast(replace(replace(replace(amount, "€", ""), ".", ""), ",", "."))
	dollar := cast(replace(replace(amount, "$", ""), ",", ""))
	for _, c := range []struct {
		name, expr, want string // want: "" for no warning
	}{
		{"every form read in its branch", `{"kind":"case","whens":[{"when":` + like("€%") + `,"then":` + euro + `}],"else":` + dollar + `}`, ""},
		{"a branch that loses its own rows", `{"kind":"case","whens":[{"when":` + like("$%") + `,"then":` + cast(replace(amount, "$", "")) + `}]}`, "read 2 values"},
		{"a bare cast in a branch", `{"kind":"case","whens":[{"when":` + like("€%") + `,"then":{"kind":"literal","value":0}}],"else":` + cast(amount) + `}`, "read 3 values"},
	} {
		plan := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[` + c.expr + `]},"alias":"s"}],"from":[{"table":"orders","alias":"o"}]}`
		for _, en := range everyEngine(db) {
			t.Run(c.name+"/"+en.name, func(t *testing.T) {
				e := specEngine(t, en.spec(t))
				res, err := e.RunPlan(context.Background(), "air", []byte(plan))
				if err != nil {
					t.Fatal(err)
				}
				var lost []string
				for _, w := range res.Warnings {
					if strings.Contains(w, "as NULL") {
						lost = append(lost, w)
					}
				}
				if c.want == "" && len(lost) > 0 || c.want != "" && (len(lost) != 1 || !strings.Contains(lost[0], c.want) || !strings.Contains(lost[0], "branch of the CASE")) {
					t.Errorf("rows %v warnings %q, want %q", res.Rows, res.Warnings, c.want)
				}
			})
		}
	}
}

// The threat: a host turns blank scores into NULL on purpose
// (CAST(NULLIF(TRIM(score), ”) AS integer)) and was told the cast "read
// 3 values (such as "") as NULL … change the expression until it reads
// them too": a false alarm about the very values it meant to drop, which
// teaches it to skip warnings. What the expression itself makes NULL is
// not counted; a value the cast still loses ('n/a') is.
func TestCastProbeCountsOnlyWhatTheCastLost(t *testing.T) {
	db := []string{
		"CREATE TABLE nps (id INTEGER PRIMARY KEY, score TEXT, tidy TEXT)",
		"INSERT INTO nps VALUES (1, '9', '9'), (2, '', ''), (3, ' ', ' '), (4, '7', '7'), (5, 'n/a', '10'), (6, '10', '')",
	}
	avg := func(c string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"cast","type":"integer","expr":{"kind":"func","name":"NULLIF","args":[` +
			`{"kind":"func","name":"TRIM","args":[{"kind":"column","table":"n","column":"` + c + `"}]},{"kind":"literal","value":""}]}}]},"alias":"a"}],"from":[{"table":"nps","alias":"n"}]}`)
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", avg("score"))
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "of the table as NULL"); !strings.Contains(w, "read 1 value") || !strings.Contains(w, `"n/a"`) {
				t.Errorf("score: warnings %q, want the one 'n/a' named, not the blanks", res.Warnings)
			}
			res, err = e.RunPlan(context.Background(), "air", avg("tidy"))
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "of the table as NULL"); w != "" {
				t.Errorf("tidy: %q, want no warning: only blanks, which the expression drops", w)
			}
		})
	}
}

// The threat: a warning that quotes the host's own expression wrote its
// ">" as "\u003e" and its '&' as "\u0026"; read from the structured
// result, where the warning is a JSON string, the escape arrives as text,
// and the expression pasted back was refused ("binary operator \"\\u003e\"
// is not one of …") or compared with another value. Quoted expressions
// are written as the host wrote them, and pasted back they run.
func TestWarningsQuoteThePlanAsWritten(t *testing.T) {
	db := []string{
		"CREATE TABLE nps (id INTEGER PRIMARY KEY, score TEXT)",
		"INSERT INTO nps VALUES (1, '9'), (2, 'R&D'), (3, '7'), (4, 'n/a')",
	}
	cast := `{"kind":"cast","type":"integer","expr":{"kind":"case","whens":[{"when":{"kind":"binary","op":">","left":{"kind":"func","name":"LENGTH","args":[{"kind":"column","table":"n","column":"score"}]},"right":{"kind":"literal","value":0}},` +
		`"then":{"kind":"func","name":"REPLACE","args":[{"kind":"column","table":"n","column":"score"},{"kind":"literal","value":"&"},{"kind":"literal","value":""}]}}]}}`
	avg := func(c string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"AVG","args":[` + c + `]},"alias":"a"}],"from":[{"table":"nps","alias":"n"}]}`)
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", avg(cast))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "the cast of ")
			_, quoted, _ := strings.Cut(w, "the cast of ")
			quoted, _, _ = strings.Cut(quoted, " to integer")
			if !strings.Contains(quoted, `"op":">"`) || !strings.Contains(quoted, `"value":"&"`) || strings.Contains(w, `\u00`) {
				t.Fatalf("warning %q: want the expression quoted as written", w)
			}
			if _, err := e.RunPlan(context.Background(), "air", avg(`{"kind":"cast","type":"integer","expr":`+quoted+`}`)); err != nil {
				t.Errorf("the quoted expression pasted back: %v", err)
			}
		})
	}
}

// The threat: the copied-rows warning says to read the table through a
// distinct subquery; a host did, with the amount cleaned by REPLACE, and
// the 17 'N/A' prices the cast read as NULL went unsaid, where the same
// cast over the table named them. The probe follows the column through a
// derived table or CTE (renamed or not) to the stored table.
func TestCastProbeFollowsTheColumnThroughDerivedTables(t *testing.T) {
	db := []string{
		"CREATE TABLE sales (id INTEGER, price TEXT)",
		"INSERT INTO sales VALUES (1, '€15.00'), (2, '135,00'), (3, 'N/A'), (4, '45'), (4, '45'), (5, 'N/A')",
	}
	cast := func(alias, col string) string {
		return `{"kind":"cast","type":"decimal","expr":{"kind":"func","name":"REPLACE","args":[{"kind":"func","name":"REPLACE","args":[{"kind":"column","table":"` + alias + `","column":"` + col + `"},{"kind":"literal","value":"€"},{"kind":"literal","value":""}]},{"kind":"literal","value":","},{"kind":"literal","value":"."}]}}`
	}
	inner := `{"distinct":true,"select":[{"expr":{"kind":"column","table":"s","column":"id"},"alias":"id"},{"expr":{"kind":"column","table":"s","column":"price"},"alias":"pr"}],"from":[{"table":"sales","alias":"s"}]}`
	plans := map[string]string{
		"table":   `{"select":[{"expr":{"kind":"func","name":"SUM","args":[` + cast("s", "price") + `]},"alias":"t"}],"from":[{"table":"sales","alias":"s"}]}`,
		"derived": `{"select":[{"expr":{"kind":"func","name":"SUM","args":[` + cast("d", "pr") + `]},"alias":"t"}],"from":[{"subquery":` + inner + `,"alias":"d"}]}`,
		"cte":     `{"with":[{"name":"u","query":` + inner + `}],"select":[{"expr":{"kind":"func","name":"SUM","args":[` + cast("d", "pr") + `]},"alias":"t"}],"from":[{"table":"u","alias":"d"}]}`,
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for name, plan := range plans {
				res := runAir(t, e, plan)
				if w := warningWith(res.Warnings, "of the table as NULL"); !strings.Contains(w, `"N/A"`) {
					t.Errorf("%s: warnings %q, want the N/A prices the cast lost named", name, res.Warnings)
				}
			}
		})
	}
}

// The threat: a weight column writes some values with a decimal comma
// ('94,4') among plain ones and thousands ('1,234'). A host that removes
// the comma, as the amount fix does for thousands, reads '94,4' as 944:
// the sum came back 75% too high, and the only warning named values read
// as NULL, with a blank one as their example, so the host took them all
// for missing values. The result says how many values lost a decimal
// comma, with one, and shows a lost value that is not blank; a comma made
// a point says nothing of commas.
func TestRemovingADecimalCommaIsNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE deliveries (id INTEGER PRIMARY KEY, weight TEXT)",
		"INSERT INTO deliveries VALUES (1, '94,4'), (2, '5,8'), (3, '103.5'), (4, ''), (5, '1,234'), (6, 'n/a'), (7, '12')",
	}
	sum := func(to string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":{"kind":"func","name":"REPLACE","args":[` +
			`{"kind":"column","table":"d","column":"weight"},{"kind":"literal","value":","},{"kind":"literal","value":"` + to + `"}]}}]},"alias":"kg"}],"from":[{"table":"deliveries","alias":"d"}]}`)
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", sum(""))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "decimal comma")
			if !strings.Contains(w, `removes the comma of 2 values written with a decimal comma (such as "5,8")`) {
				t.Errorf("sum %v warnings %q, want the 2 values whose decimal comma was removed named", res.Rows, res.Warnings)
			}
			if w := warningWith(res.Warnings, "of the table as NULL"); !strings.Contains(w, `read 2 values (1 blank, the others such as "n/a")`) {
				t.Errorf("warning %q: want the lost values counted with the blank apart and an example that is not blank", w)
			}
			res, err = e.RunPlan(context.Background(), "air", sum("."))
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "decimal comma"); w != "" {
				t.Errorf("a comma made a point: warning %q, want none of decimal commas", w)
			}
		})
	}
}

// The threat: a revenue plan summed CAST(REPLACE(REPLACE(price, '$', ”),
// ',', ”)) and filtered the year on a cast of the text date; 'USD 12.34'
// was read as NULL and the sum came back 8% short with no word, because
// only the first cast met (the date's, which read every value) was
// probed. Every such cast is probed: the amount's losses are named
// whatever else the plan casts.
func TestEveryCastOfAPlanIsProbed(t *testing.T) {
	db := []string{
		"CREATE TABLE sales (id INTEGER PRIMARY KEY, price TEXT, sold_on TEXT)",
		"INSERT INTO sales VALUES (1, '$1,200.00', '2025-01-03'), (2, 'USD 12.34', '03/02/2025'), (3, '$5.00', '2025-04-01'), (4, 'n/a', 'soon')",
	}
	price := `{"kind":"cast","type":"decimal","expr":{"kind":"func","name":"REPLACE","args":[{"kind":"func","name":"REPLACE","args":[{"kind":"column","table":"s","column":"price"},{"kind":"literal","value":"$"},{"kind":"literal","value":""}]},{"kind":"literal","value":","},{"kind":"literal","value":""}]}}`
	day := `{"kind":"cast","type":"date","expr":{"kind":"func","name":"REPLACE","args":[{"kind":"column","table":"s","column":"sold_on"},{"kind":"literal","value":"/"},{"kind":"literal","value":"-"}]}}`
	plan := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[` + price + `]},"alias":"revenue"}],"from":[{"table":"sales","alias":"s"}],` +
		`"where":{"kind":"binary","op":"=","left":{"kind":"func","name":"DATE_PART","args":[{"kind":"literal","value":"year"},` + day + `]},"right":{"kind":"literal","value":2025}}}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, plan)
			if w := warningWith(res.Warnings, `"USD 12.34"`); !strings.Contains(w, "the cast of") {
				t.Errorf("rows %v warnings %q: want the amount cast's lost 'USD 12.34' named beside the date's cast", res.Rows, res.Warnings)
			}
		})
	}
}

// The threat: a fee column writes euros with a decimal comma ('1.150,50')
// and dollars with a thousands comma ('$1,200.00'); a plan reads each in
// its own CASE branch, the euros with their ',' made a '.', and its sum was
// right, yet the warning said the cast removed the comma of the euro
// value and read it a hundred times too large: a host that trusted it
// broke a correct plan. Only the rows that reach a branch which removes
// commas count; a euro sent to the dollar branch still does.
func TestDecimalCommaCountsOnlyRowsOfTheBranchThatRemovesCommas(t *testing.T) {
	db := []string{
		"CREATE TABLE fees (id INTEGER PRIMARY KEY, fee TEXT)",
		"INSERT INTO fees VALUES (1, '1.150,50'), (2, '$1,200.00'), (3, '$950.00')",
	}
	col := `{"kind":"column","table":"f","column":"fee"}`
	rep := func(x, from, to string) string {
		return `{"kind":"func","name":"REPLACE","args":[` + x + `,{"kind":"literal","value":"` + from + `"},{"kind":"literal","value":"` + to + `"}]}`
	}
	dollar := rep(rep(col, "$", ""), ",", "")
	euro := rep(rep(col, ".", ""), ",", ".")
	sum := func(when string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":{"kind":"case","whens":[{"when":` +
			`{"kind":"like","expr":` + col + `,"pattern":{"kind":"literal","value":"` + when + `"}},"then":` + dollar + `}],"else":` + euro + `}}]},"alias":"total"}],"from":[{"table":"fees","alias":"f"}]}`)
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", sum("$%"))
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "decimal comma"); w != "" {
				t.Errorf("euros read in their own branch (rows %v): warning %q, want none of decimal commas", res.Rows, w)
			}
			// every row to the dollar branch: the euro's comma is dropped
			res, err = e.RunPlan(context.Background(), "air", sum("%"))
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "decimal comma"); !strings.Contains(w, "removes the comma of 1 value") {
				t.Errorf("a euro read by the branch that drops commas: warnings %q, want it named", res.Warnings)
			}
		})
	}
}

// The threat: a total column writes '2.986,77 €' and '$1,234.50'; the
// REPLACE chain a host wrote (remove "€", "$" and ",") read every value,
// so no NULL betrayed the euros read a thousand times too small, and the
// answer came back 66% off with no warning: the stored text ends in the
// symbol, not in two digits after a comma. The value is judged as the
// expression has it just before its commas go.
func TestDecimalCommaBehindACurrencySymbolIsNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, total TEXT)",
		"INSERT INTO orders VALUES (1, '2.986,77 €'), (2, '230,07 €'), (3, '$1,234.50'), (4, '$99.00')",
	}
	col := `{"kind":"column","table":"o","column":"total"}`
	rep := func(x, from string) string {
		return `{"kind":"func","name":"REPLACE","args":[` + x + `,{"kind":"literal","value":"` + from + `"},{"kind":"literal","value":""}]}`
	}
	plan := []byte(`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"cast","type":"decimal","expr":` + rep(rep(rep(col, "€"), "$"), ",") + `}]},"alias":"total"}],"from":[{"table":"orders","alias":"o"}]}`)
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res, err := e.RunPlan(context.Background(), "air", plan)
			if err != nil {
				t.Fatal(err)
			}
			if w := warningWith(res.Warnings, "decimal comma"); !strings.Contains(w, "removes the comma of 2 values") {
				t.Errorf("rows %v: warnings %q, want the two euro amounts named", res.Rows, res.Warnings)
			}
		})
	}
}

// The threat: a host pasted a warning's 4 KB date-reading CASE into its
// plan, and every run after quoted the whole CASE back in the next
// warning, the host paying for its own expression again each time. A long
// operand is named by its start and length; a short one is still quoted
// whole.
func TestLongCastOperandIsNamedByItsStart(t *testing.T) {
	db := []string{
		"CREATE TABLE nps (id INTEGER PRIMARY KEY, score TEXT)",
		"INSERT INTO nps VALUES (1, '9'), (2, 'n/a'), (3, '7')",
	}
	var whens []string
	for i := range 30 {
		whens = append(whens, fmt.Sprintf(`{"when":{"kind":"binary","op":"=","left":{"kind":"column","table":"n","column":"score"},"right":{"kind":"literal","value":"code-%02d"}},"then":{"kind":"literal","value":"%d"}}`, i, i))
	}
	long := `{"kind":"case","whens":[` + strings.Join(whens, ",") + `],"else":{"kind":"column","table":"n","column":"score"}}`
	e := specEngine(t, everyEngine(db)[0].spec(t))
	res, err := e.RunPlan(context.Background(), "air", []byte(`{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"cast","type":"integer","expr":`+long+`}]},"alias":"a"}],"from":[{"table":"nps","alias":"n"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	w := warningWith(res.Warnings, "the cast of ")
	if w == "" || len(w) > len(long) || !strings.Contains(w, "characters of your plan") || !strings.Contains(w, `{"kind":"case","whens":[`) {
		t.Errorf("warning (%d bytes, operand %d): %q", len(w), len(long), w)
	}
}
