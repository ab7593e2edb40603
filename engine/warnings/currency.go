package warnings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"golang.org/x/text/currency"
)

// mixedCurrencies names a SUM or AVG of an amount whose table has a
// currency column holding several currencies, when the query neither
// groups by it nor keeps one of them: invoices in EUR and USD summed
// give a figure in no currency, which reads like revenue. A currency
// column is one named so (currency, currency_code, ccy, curr, cur) whose
// complete values hold two or more; the warning lists them and the fix.
// A measure beside its unit column (weight and weight_unit holding kg and
// lbs: unitOf) is named alike: an average weight of 408 where the
// shipments weigh 332 kg on average. The currencies counted are those the
// where leaves (keptValues: an IN of two of three names two). An amount
// whose table and joined tables hold no currency may have it on a table
// its rows belong to through foreign keys (heldCurrencies), or, of a
// view, on a table the view's definition reads (viewCurrencies).
func mixedCurrencies(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []string {
	var out []string
	for _, fd := range currencyFindings(snap, plan, stored) {
		out = append(out, fd.text())
	}
	return out
}

// currencyFindings are mixedCurrencies' warnings, each with what a probe
// needs to count the currencies the summed rows hold (currencyFinding).
func currencyFindings(snap *schema.Snapshot, plan *planast.Query, stored func(string, string, string) []string) []currencyFinding {
	var out []currencyFinding
	eachQuery(plan, func(q *planast.Query) {
		inspectQuery(q, func(e planast.Expr) {
			f, ok := e.(*planast.Func)
			if !ok || len(f.Args) != 1 {
				return
			}
			if name := strings.ToUpper(f.Name); name != "SUM" && name != "AVG" {
				return
			}
			ref := valueColumn(f.Args[0])
			if ref == nil {
				return
			}
			t, c := emptyrange.TableOfColumn(snap, q, ref)
			if c == nil || !c.Type.IsNumeric() && !textual(c) || codeName(c.Name) || countName(c.Name) || inOneCurrency(c.Name) {
				return // an id, a count or an amount converted is no mix
			}
			own := slices.ContainsFunc(t.Columns, func(cur schema.Column) bool {
				return cur.Name != c.Name && textual(&cur) && currencyName(cur.Name)
			})
			sides := []currencySide{{t, ref.Table, true}}
			if !own {
				// the amount's currency may be held by a table it is joined
				// to (invoices' plans.currency)
				for _, fr := range q.From {
					if jt, ok := snap.Lookup(fr.Schema, fr.Table); ok && fr.Subquery == nil && jt != t && fr.Alias != ref.Table {
						sides = append(sides, currencySide{jt, fr.Alias, false})
					}
				}
			}
			var fds []currencyFinding
			for _, side := range sides {
				if fd, ok := currencyWarning(q, f, ref, c, side, stored); ok {
					fds = append(fds, fd)
				}
			}
			if !own && !slices.ContainsFunc(sides, func(s currencySide) bool { return currencyColumn(s.t) != nil }) {
				// nor does a joined table: the currency may be held by a
				// table its rows belong to that the plan never joins
				fds = append(fds, heldCurrencies(snap, plan, q, f, ref, t, c, stored)...)
				for _, w := range viewCurrencies(snap, f, t, c, stored) {
					fds = append(fds, currencyFinding{head: w})
				}
			}
			for _, fd := range fds {
				if !slices.ContainsFunc(out, func(o currencyFinding) bool { return o.text() == fd.text() }) {
					out = append(out, fd)
				}
			}
		})
	})
	return out
}

// currencyName reports whether a column's name says it holds currency
// codes.
func currencyName(name string) bool {
	n := strings.ToLower(strings.Trim(name, "_"))
	switch n {
	case "ccy", "curr", "cur", "currency", "currency_code", "currencycode", "currency_id", "iso_currency":
		return true
	}
	return strings.HasSuffix(n, "_currency") || strings.HasSuffix(n, "_ccy")
}

// distinctLoose is vals without repeats, by letter case and surrounding
// spaces ('usd' and 'USD ' are one currency), sorted.
func distinctLoose(vals []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vals {
		if k := loose(v); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// pinned reports whether q groups by column col of alias, or its where
// keeps one value of it (= a literal, or an IN of one, required of every
// row: under "or" it keeps others too).
func pinned(q *planast.Query, alias, col string) bool {
	names := func(e planast.Expr) bool {
		hit := false
		inspectOwn(e, func(x planast.Expr) {
			if r, ok := x.(*planast.Column); ok && r.Table == alias && r.Column == col {
				hit = true
			}
		})
		return hit
	}
	for _, g := range q.GroupBy {
		if names(groupedExpr(q, g)) {
			return true
		}
	}
	kept := false
	if q.Where != nil {
		eachConjunct(q.Where, func(x planast.Expr) {
			switch w := x.(type) {
			case *planast.Binary:
				if w.Op == planast.OpEq && (names(w.Left) || names(w.Right)) {
					kept = true
				}
			case *planast.In:
				// one currency, or the spellings of one ('USD', 'usd '),
				// as the spelling warning advises
				if !w.Negated && names(w.Expr) && (len(w.List) == 1 || len(distinctLoose(literalTexts(w.List))) == 1) {
					kept = true
				}
			}
		})
	}
	return kept
}

// keptValues are the values of distinct (a column's, one per spelling)
// that q's where leaves column col of alias, read off the conditions it
// requires of every row (joined by "and"): currency IN ('EUR', 'USD')
// sums two of three currencies, and NOT IN or != takes some out. A
// condition under "or" or "not" keeps what it may, so it removes
// nothing.
func keptValues(q *planast.Query, alias, col string, distinct []string) []string {
	names := func(e planast.Expr) bool {
		r, ok := e.(*planast.Column)
		return ok && r.Table == alias && r.Column == col
	}
	kept := slices.Clone(distinct)
	keep := func(lits []string, in bool) {
		set := map[string]bool{}
		for _, l := range lits {
			set[loose(l)] = true
		}
		kept = slices.DeleteFunc(kept, func(v string) bool { return set[loose(v)] != in })
	}
	if q.Where == nil {
		return kept
	}
	eachConjunct(q.Where, func(e planast.Expr) {
		switch w := e.(type) {
		case *planast.Binary:
			switch {
			case w.Op != planast.OpEq && w.Op != planast.OpNe:
			case names(w.Left) && literalTexts([]planast.Expr{w.Right}) != nil:
				keep(literalTexts([]planast.Expr{w.Right}), w.Op == planast.OpEq)
			case names(w.Right) && literalTexts([]planast.Expr{w.Left}) != nil:
				keep(literalTexts([]planast.Expr{w.Left}), w.Op == planast.OpEq)
			}
		case *planast.In:
			if lits := literalTexts(w.List); names(w.Expr) && w.Subquery == nil && len(lits) > 0 {
				keep(lits, !w.Negated)
			}
		}
	})
	return kept
}

// eachConjunct calls f with each condition where requires of every row:
// where itself, or each side of an "and", at any depth. A condition under
// "or" or "not" may fail for rows the rest keeps, so it is none.
func eachConjunct(where planast.Expr, f func(planast.Expr)) {
	if b, ok := where.(*planast.Binary); ok && b.Op == planast.OpAnd {
		eachConjunct(b.Left, f)
		eachConjunct(b.Right, f)
		return
	}
	f(where)
}

// oneRow reports whether q keeps one row of table t (alias) per result
// row: every column of its primary key is pinned to one value (order_id =
// 7) or grouped by. One row holds one currency, so its sum mixes none.
func oneRow(q *planast.Query, t *schema.Table, alias string) bool {
	if t == nil || len(t.PrimaryKey) == 0 {
		return false
	}
	for _, k := range t.PrimaryKey {
		if !pinned(q, alias, k) {
			return false
		}
	}
	return true
}

// literalTexts are the texts of the string literals among xs; nil when
// any is another expression.
func literalTexts(xs []planast.Expr) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		l, ok := x.(*planast.Literal)
		if !ok || l.Type != planast.TString {
			return nil
		}
		out = append(out, l.Text)
	}
	return out
}

// groupedExpr is what the group_by item g of q groups by: the selected
// expression when g names an output alias, else g itself.
func groupedExpr(q *planast.Query, g planast.Expr) planast.Expr {
	if r, ok := g.(*planast.Column); ok && r.Table == "" {
		for _, it := range q.Select {
			if it.Alias == r.Column {
				return it.Expr
			}
		}
	}
	return g
}

// valueColumn is the one column whose values e's value is made of (an
// amount, or a CASE choosing it, or it times a count, or the first of
// several of one source added), or nil when there is none or several of
// several sources.
// A column only tested (the WHEN of SUM(CASE WHEN c.entry_type =
// 'COMMISSION' THEN 1 ELSE 0 END), a comparison, a LIKE) gives e no
// value: a count of rows summed beside a currency column was warned of
// as amounts in several currencies, which taught a host to skip the
// warning where it was right.
func valueColumn(e planast.Expr) *planast.Column {
	var found []*planast.Column
	var walk func(e planast.Expr)
	walk = func(e planast.Expr) {
		switch x := e.(type) {
		case *planast.Column:
			if !slices.ContainsFunc(found, func(c *planast.Column) bool { return c.Table == x.Table && c.Column == x.Column }) {
				found = append(found, x)
			}
		case *planast.Case:
			for _, w := range x.Whens {
				walk(w.Then)
			}
			walk(x.Else)
		case *planast.Binary:
			switch x.Op {
			case planast.OpAdd, planast.OpSub, planast.OpMul, planast.OpDiv, planast.OpIDiv, planast.OpMod:
				walk(x.Left)
				walk(x.Right)
			}
		case *planast.Unary:
			if x.Op == "-" {
				walk(x.Expr)
			}
		case *planast.Cast:
			walk(x.Expr)
		case *planast.Func:
			for _, a := range x.Args {
				walk(a)
			}
		}
	}
	walk(e)
	if len(found) > 1 {
		// a count times an amount (qty * unit_price, qty * weight) is
		// in the amount's currency or unit
		found = slices.DeleteFunc(found, func(c *planast.Column) bool { return countName(c.Column) })
	}
	if len(found) > 1 && !slices.ContainsFunc(found, func(c *planast.Column) bool { return c.Table != found[0].Table }) {
		// amounts of one row added (amount_cents + tip_cents) are in that
		// row's currency: the first stands for them; amounts of two
		// sources (an amount times a rate) are a conversion, or a mix no
		// one column says
		return found[0]
	}
	if len(found) != 1 {
		return nil
	}
	return found[0]
}

// countName reports whether a column's name says it counts things (n_rows,
// num_guests, row_count, cnt, quantity): a sum of counts is in no currency.
func countName(name string) bool {
	l := strings.ToLower(name)
	for _, p := range []string{"n_", "num_", "nb_", "count_", "cnt_"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	// whole words only: a discount or an account balance is an amount
	for _, suf := range []string{"_count", "_cnt", "_quantity", "_qty"} {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	return slices.Contains([]string{"n", "rows", "count", "cnt", "quantity", "qty"}, l)
}

// quantity reports whether c counts or measures things rather than
// money: a column whose name says a unit or a measure other than money
// (measureName: distance_km, duration_min, rating beside the table's
// currency), or one of whole numbers whose name has no word of money in it
// (seats, users, licences, nights). A whole-number amount says so in its
// name (amount_cents, fee, price, total, paid).
func quantity(c *schema.Column) bool {
	if measureName(c.Name) {
		return true
	}
	return c.Type == planast.TypeInteger && !moneyName(c.Name)
}

// measureName reports whether a column's name says it holds a measure in
// a unit of its own, not an amount of money (distance_km, weight_kg,
// total_minutes, net_weight, time_spent, tax_pct, rating): read from its
// last word back, the first word of measureWords or of money decides
// (month_fee and day_rate are money, weight_kg a weight), past words that
// qualify either (total, net, paid, spent, min, max: weakMoneyWords). Only
// the words before a "per" count, as price_per_km is money per kilometre.
// A name no word decides is no measure. A sum of distances beside a
// trip's currency was warned of as amounts in three currencies, and a
// host grouped kilometres by currency.
func measureName(name string) bool {
	words := lex.SplitWords(name)
	if i := slices.Index(words, "per"); i >= 0 {
		words = words[:i]
	}
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		switch {
		case weakMoneyWords[w]:
		case measureWords[w]:
			return true
		case moneyName(w):
			return false
		}
	}
	return false
}

// measureWords are the words of a column name that say it holds a
// measure other than money: units of distance, mass, time, volume,
// energy, data and share, and the measures themselves. Words that also
// name money stay out of it (rate: hourly_rate; value; unit: unit_price;
// share: share_price; pound), and a period is one in the plural alone:
// days_overdue counts days, day_total is a day's money.
var measureWords = map[string]bool{
	"km": true, "kms": true, "kilometre": true, "kilometres": true, "kilometer": true, "kilometers": true, "mi": true,
	"mile": true, "miles": true, "mileage": true, "meters": true, "metres": true, "cm": true, "mm": true, "ft": true,
	"feet": true, "inches": true, "yards": true, "distance": true, "dist": true, "length": true, "height": true,
	"width": true, "depth": true, "altitude": true, "elevation": true, "area": true, "sqm": true, "sqft": true,
	"kg": true, "kgs": true, "kilos": true, "grams": true, "lb": true, "lbs": true, "oz": true, "tons": true,
	"tonnes": true, "weight": true, "mass": true, "tonnage": true,
	"sec": true, "secs": true, "seconds": true, "mins": true, "minutes": true, "hr": true, "hrs": true, "hours": true,
	"days": true, "weeks": true, "months": true, "years": true, "yrs": true, "nights": true, "ms": true, "millis": true,
	"duration": true, "elapsed": true, "time": true, "latency": true, "age": true,
	"litres": true, "liters": true, "gallons": true, "ml": true, "volume": true, "capacity": true,
	"kwh": true, "kw": true, "watts": true, "calories": true, "kcal": true, "temperature": true, "temp": true,
	"speed": true, "kmh": true, "mph": true, "bytes": true, "kb": true, "mb": true, "gb": true,
	"pct": true, "percent": true, "percentage": true, "ratio": true, "fraction": true,
	"score": true, "rating": true, "stars": true, "points": true, "grade": true, "rank": true,
	"quantity": true, "qty": true,
}

// weakMoneyWords qualify a measure or an amount without saying which
// (total_minutes, net_weight, time_spent, duration_min beside fare_min):
// measureName reads past them.
var weakMoneyWords = map[string]bool{
	"total": true, "subtotal": true, "sum": true, "net": true, "gross": true, "value": true, "paid": true, "spent": true,
	"due": true, "owed": true, "min": true, "max": true, "avg": true, "mean": true,
}

// moneyName reports whether a column's name has a word of money in it
// (moneyWords, an ISO currency code).
func moneyName(name string) bool {
	for _, w := range lex.SplitWords(name) {
		w = strings.ToLower(w)
		if moneyWords[w] || moneyWords[strings.TrimSuffix(w, "s")] || isoCode(w) {
			return true
		}
	}
	return false
}

// reads reports whether e (an aggregate, or a value compared) reads
// column col of alias: SUM(CASE WHEN weight_unit = 'lb' THEN weight *
// 0.4536 ELSE weight END) converts by the unit, the fix the warning
// gives, and is no mix.
func reads(e planast.Expr, alias, col string) bool {
	hit := false
	inspectOwn(e, func(x planast.Expr) {
		if r, ok := x.(*planast.Column); ok && r.Table == alias && r.Column == col {
			hit = true
		}
	})
	return hit
}

// moneyWords are the words of a column name that say it holds money.
var moneyWords = map[string]bool{
	"amount": true, "amt": true, "price": true, "cost": true, "fee": true, "total": true, "revenue": true, "paid": true,
	"pay": true, "payment": true, "balance": true, "cent": true, "penny": true, "pence": true, "value": true, "charge": true,
	"tax": true, "vat": true, "mrr": true, "arr": true, "salary": true, "wage": true, "income": true, "spend": true,
	"spent": true, "discount": true, "refund": true, "credit": true, "debit": true, "net": true, "gross": true,
	"sale": true, "sales": true, "budget": true, "profit": true, "margin": true, "commission": true, "bonus": true,
	"rate": true, "tip": true, "deposit": true, "owed": true, "due": true, "money": true, "minor": true, "subtotal": true,
}

// inOneCurrency reports whether a column's name says the currency its
// amounts are in (owed_eur, amount_usd, eur_total, totalGbp, eur): an amount
// converted row by row, its table's currency column then tells where it
// came from, not what it is in.
func inOneCurrency(name string) bool {
	parts := lex.SplitWords(name) // a column named eur holds euros too
	return isoCode(parts[0]) || isoCode(parts[len(parts)-1])
}

// isoCode reports whether a word of a column's name is an ISO 4217
// currency code, not one that is also a common word.
func isoCode(w string) bool {
	if len(w) != 3 || commonWordCode[strings.ToLower(w)] {
		return false
	}
	_, err := currency.ParseISO(strings.ToUpper(w))
	return err == nil
}

// commonWordCode are ISO 4217 codes that are also words a column's name
// uses for something else (all_amount, top_price).
var commonWordCode = map[string]bool{"all": true, "top": true, "cup": true, "try": true, "mop": true, "bam": true}

// codeName reports whether a column's name says it holds codes, not
// amounts: an id, a reference or a number of something ("processor_ref",
// "customer_id", "InvoiceId", "order_no").
func codeName(name string) bool {
	if idNamed(name) {
		return true
	}
	l := strings.ToLower(name)
	for _, suf := range []string{"ref", "_no", "_code", "_number", "_key"} {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	return false
}

// currencySide is a table whose columns may hold an amount's currency or
// unit: the amount's own (units too) or one joined to it (currencies).
type currencySide struct {
	t     *schema.Table
	alias string
	own   bool
}

// currencyWarning is the warning of SUM or AVG f of amount c (ref) whose
// currency or unit a column of side holds in several values; ok is false
// when none does or q keeps one of them.
func currencyWarning(q *planast.Query, f *planast.Func, ref *planast.Column, c *schema.Column, side currencySide, stored func(string, string, string) []string) (fd currencyFinding, ok bool) {
	t := side.t
	for i := range t.Columns {
		cur := &t.Columns[i]
		what := ""
		switch {
		case cur == c || !textual(cur):
		case currencyName(cur.Name) && !quantity(c) && (side.own || moneyName(c.Name)):
			// of a joined table, only for an amount named as money: a
			// weight summed over orders is in no order's currency
			what = "currencies"
		case side.own && lex.UnitColumn(cur.Name, c.Name):
			what = "units"
		}
		if what == "" {
			continue
		}
		if pinned(q, side.alias, cur.Name) || oneRow(q, t, side.alias) || reads(f, side.alias, cur.Name) {
			continue
		}
		vals, all := knownValues(t, cur, stored)
		if cur.Profile == nil && len(vals) == 0 && what == "currencies" && side.own {
			// a column never profiled (a PostgreSQL view's): no value is
			// known, so a run counts them in the rows summed (unprofiled)
			fd = currencyFinding{q: q, cur: &planast.Column{Table: side.alias, Column: cur.Name}, what: what, unprofiled: true,
				held: fmt.Sprintf("%q of %s was not profiled", cur.Name, t.Name)}
			fd.head = exprText(f) + " may add amounts in "
			fd.tail = fmt.Sprintf(", a figure in none of them; group by %s.%s or keep one currency in the where", side.alias, cur.Name)
			return fd, true
		}
		distinct := distinctLoose(vals)
		kept := keptValues(q, side.alias, cur.Name, distinct)
		if !all || len(kept) < 2 {
			continue
		}
		held := fmt.Sprintf("%q holds %s", cur.Name, someQuoted(kept))
		if len(kept) < len(distinct) {
			held += " in the rows the where keeps"
		}
		fd = currencyFinding{q: q, cur: &planast.Column{Table: side.alias, Column: cur.Name}, what: what, n: len(kept), held: held}
		if what == "units" {
			fd.head = exprText(f) + " adds values in "
			fd.tail = fmt.Sprintf(", a figure in none of them; convert them to one unit first (a CASE on %s.%s), group by it or keep one unit in the where", side.alias, cur.Name)
			return fd, true
		}
		fd.head = exprText(f) + " adds amounts in "
		fd.tail = fmt.Sprintf(", a figure in none of them; group by %s.%s or keep one currency in the where", side.alias, cur.Name)
		return fd, true
	}
	return fd, false
}
