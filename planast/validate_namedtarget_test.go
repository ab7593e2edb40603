package planast_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// The threat: a host converting subscription amounts to dollars joins a
// monthly rate table on its currency code (subscriptions.currency =
// fx_rates.ccy, the rate's month fixed in the join's condition) and is
// told on every such plan that no foreign key joins them: a warning that
// fires on the intended join teaches it to skip warnings, the one that
// matters included. subscriptions.currency declares no foreign key, but it
// is named for the table fx_rates.ccy references (currencies), so both
// hold currency codes; a column named for no such table, one joined to a
// column that references nothing, or a pair beside the key a lookup
// covers is still an accident to warn of.
func TestValidateWarnsUndeclaredJoinsNamedForTheReferencedTable(t *testing.T) {
	keyed := func(t *planast.TableInfo, pk ...string) *planast.TableInfo { t.PrimaryKey = pk; return t }
	cat := memCatalog{
		table("", "currencies", []string{"ccy_code text", "ccy_name text"}),
		keyed(table("", "fx_rates", []string{"rate_month date", "ccy text", "usd_per_unit decimal", "src text"},
			fk("ccy", "currencies", "ccy_code")), "rate_month", "ccy"),
		table("", "subscriptions", []string{"sub_id integer", "currency text", "base_currency text", "BillingCurrency text",
			"currency_name text", "status text", "start_date date", "amount decimal"}),
		table("", "countries", []string{"code text", "country text"}),
		table("", "addresses", []string{"address_id integer", "country_code text"}, fk("country_code", "countries", "code")),
		table("", "warehouses", []string{"id integer", "city text"}),
		table("", "stock", []string{"id integer", "wh integer"}, fk("wh", "warehouses", "id")),
		table("", "shipments", []string{"shipment_id integer", "warehouse_id integer", "origin_warehouse_id integer"}),
		keyed(table("", "invoice_lines", []string{"invoice_id integer", "line_no integer", "amount decimal"}), "invoice_id", "line_no"),
		table("", "line_adjustments", []string{"adj_id integer", "invoice_id integer", "line_no integer"},
			planast.ForeignKeyInfo{Columns: []string{"invoice_id", "line_no"}, RefTable: "invoice_lines", RefColumns: []string{"invoice_id", "line_no"}}),
		table("", "refunds", []string{"refund_id integer", "invoice_line integer"}),
		table("", "payouts", []string{"payout_id integer", "paid_in text", "paid_month date"}, fk("paid_in", "currencies", "ccy_code")),
		table("", "codes", []string{"code text", "percent_off integer"}),
		table("", "redemptions", []string{"redemption_id integer", "code text"}, fk("code", "codes", "code")),
		table("", "products", []string{"product_id integer", "barcode text"}),
	}
	on := func(typ, l, r string, pairs ...string) string {
		var ps []string
		for i := 0; i+1 < len(pairs); i += 2 {
			ps = append(ps, `{"left_column":"`+pairs[i]+`","right_column":"`+pairs[i+1]+`"}`)
		}
		return `{"type":"` + typ + `","left":"` + l + `","right":"` + r + `","on":[` + strings.Join(ps, ",") + `]`
	}
	cond := func(j, e string) string { return j + `,"condition":` + e + `}` }
	june := bin("=", c("f", "rate_month"), lit(`"2025-06-01"`))
	month := bin("=", c("f", "rate_month"), fn("DATE_TRUNC", lit(`"month"`), c("s", "start_date")))
	subsFx := frm(from("subscriptions", "s"), from("fx_rates", "f"))
	for _, tc := range []struct {
		name, from, join string
		warned           []string // the pairs warned of
	}{
		// the intended joins: no note
		{"code named for the referenced table, month fixed", subsFx, cond(on("left", "s", "f", "currency", "ccy"), june), nil},
		{"code named for the referenced table, month of the row", subsFx, cond(on("left", "s", "f", "currency", "ccy"), month), nil},
		{"the rate table on the left", frm(from("fx_rates", "f"), from("subscriptions", "s")), cond(on("inner", "f", "s", "ccy", "currency"), june), nil},
		{"named after a role, snake case", subsFx, cond(on("left", "s", "f", "base_currency", "ccy"), june), nil},
		{"named after a role, camel case", subsFx, cond(on("left", "s", "f", "BillingCurrency", "ccy"), june), nil},
		{"the month as a pair of another name", subsFx, on("left", "s", "f", "currency", "ccy", "start_date", "rate_month") + "}", nil},
		{"the referenced table's key itself", frm(from("subscriptions", "s"), from("currencies", "cu")), on("inner", "s", "cu", "currency", "ccy_code") + "}", nil},
		{"the referenced table's key on the left", frm(from("currencies", "cu"), from("subscriptions", "s")), on("inner", "cu", "s", "ccy_code", "currency") + "}", nil},
		{"named for the referenced table's row id", frm(from("shipments", "sh"), from("stock", "st")), on("inner", "sh", "st", "warehouse_id", "wh") + "}", nil},
		{"named for its row id after a role", frm(from("shipments", "sh"), from("stock", "st")), on("inner", "sh", "st", "origin_warehouse_id", "wh") + "}", nil},
		{"the foreign key on the left", frm(from("stock", "st"), from("shipments", "sh")), on("inner", "st", "sh", "wh", "warehouse_id") + "}", nil},
		// declared, whatever the names say
		{"two foreign keys to one key", frm(from("payouts", "p"), from("fx_rates", "f")), on("inner", "p", "f", "paid_in", "ccy") + "}", nil},
		{"the month beside two foreign keys to one key", frm(from("payouts", "p"), from("fx_rates", "f")), on("inner", "p", "f", "paid_in", "ccy", "paid_month", "rate_month") + "}", nil},
		// accidents: the note stays
		{"a text column named for nothing", subsFx, cond(on("left", "s", "f", "status", "ccy"), june), []string{"joins[0].on[0]"}},
		{"a column that references nothing", subsFx, cond(on("left", "s", "f", "currency", "src"), june), []string{"joins[0].on[0]"}},
		{"the table's name is not the column's last word", subsFx, cond(on("left", "s", "f", "currency_name", "ccy"), june), []string{"joins[0].on[0]"}},
		{"the month beside a code named for nothing", subsFx, on("left", "s", "f", "status", "ccy", "start_date", "rate_month") + "}", []string{"joins[0].on[0]", "joins[0].on[1]"}},
		{"a pair beside the whole key", subsFx, on("left", "s", "f", "currency", "ccy", "start_date", "rate_month", "amount", "usd_per_unit") + "}", []string{"joins[0].on[2]"}},
		{"the table's name ends the column but not as a word", frm(from("products", "pr"), from("redemptions", "rd")), on("inner", "pr", "rd", "barcode", "code") + "}", []string{"joins[0].on[0]"}},
		{"another column of the referenced table", frm(from("addresses", "ad"), from("countries", "co")), on("inner", "ad", "co", "country_code", "country") + "}", []string{"joins[0].on[0]"}},
		{"a column of a composite foreign key", frm(from("refunds", "rf"), from("line_adjustments", "la")), on("inner", "rf", "la", "invoice_line", "line_no") + "}", []string{"joins[0].on[0]"}},
	} {
		q := plan(sel(item(fn("COUNT"), "n")), tc.from, joins(tc.join))
		v, err := validate.Plan(decode(t, q), cat, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %s: %v", tc.name, q, err)
		}
		var warned []string
		for _, w := range v.Warnings {
			if path, _, ok := strings.Cut(w, ": no foreign key or declared relationship joins"); ok {
				warned = append(warned, path)
			}
		}
		if !slices.Equal(warned, tc.warned) {
			t.Errorf("%s: warnings %q, want the foreign key note on %q", tc.name, v.Warnings, tc.warned)
		}
	}
	// Only declared foreign keys relate stored tables under JoinDeclared:
	// a name is no declaration.
	q := plan(sel(item(fn("COUNT"), "n")), subsFx, joins(cond(on("left", "s", "f", "currency", "ccy"), june)))
	if _, err := validate.Plan(decode(t, q), cat, validate.Options{Joins: validate.JoinDeclared}); err == nil || !strings.Contains(err.Error(), "INVALID_JOIN") {
		t.Errorf("JoinDeclared: %v, want an INVALID_JOIN issue", err)
	}
}
