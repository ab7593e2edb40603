package planast_test

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast/validate"
)

// A host summing invoice totals across a join to their lines gets each
// Total once per line, a figure several times too large, from a plan that
// is valid SQL; the validated plan must say so. Aggregates a repeated row
// cannot change, and aggregates over the many side, get no warning.
func TestValidateWarnsJoinFanOut(t *testing.T) {
	invToLines := frm(from("Invoice", "i"), from("InvoiceLine", "il"))
	onInvoice := joins(joinOn("inner", "i", "il", "InvoiceId", "InvoiceId"))
	linesToInv := frm(from("InvoiceLine", "il"), from("Invoice", "i"))
	onLine := joins(joinOn("inner", "il", "i", "InvoiceId", "InvoiceId"))
	distinct := func(name, arg string) string {
		return `{"kind":"func","name":"` + name + `","distinct":true,"args":[` + arg + `]}`
	}
	for _, tc := range []struct {
		name, plan string
		want       string // "" for no warning
	}{
		{"sum of the one side", plan(sel(item(fn("SUM", c("i", "Total")), "t")), invToLines, onInvoice), "SUM(i.Total) counts each Invoice row once per joined InvoiceLine row"},
		{"the join written from the many side", plan(sel(item(fn("SUM", c("i", "Total")), "t")), linesToInv, onLine), "SUM(i.Total) counts each Invoice row once per joined InvoiceLine row"},
		{"avg of the one side", plan(sel(item(fn("AVG", c("i", "Total")), "t")), invToLines, onInvoice), "AVG(i.Total)"},
		// the warning names the aggregate as written, not its column alone
		{"avg of an expression", plan(sel(item(fn("AVG", `{"kind":"binary","op":"*","left":`+c("i", "Total")+`,"right":{"kind":"literal","value":2}}`), "t")), invToLines, onInvoice), "AVG of an expression of i.Total counts each Invoice row"},
		// the column whose values are summed, not the one a CASE tests
		// (naming i.BillingCountry sent the reader to the wrong column)
		{"sum of a case", plan(sel(item(fn("SUM", `{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":`+c("i", "BillingCountry")+`,"right":{"kind":"literal","value":"USA"}},"then":`+c("i", "Total")+`}]}`), "t")), invToLines, onInvoice), "SUM of an expression of i.Total counts each Invoice row"},
		// a value of each joined row (quantity times the repeated price) is
		// no inflation: obeying a warning there would lose the answer
		{"sum of a value per joined row", plan(sel(item(fn("SUM", `{"kind":"binary","op":"*","left":`+c("il", "Quantity")+`,"right":`+c("t", "UnitPrice")+`}`), "cost")), frm(from("InvoiceLine", "il"), from("Track", "t")), joins(joinOn("inner", "il", "t", "TrackId", "TrackId"))), ""},
		{"ratio per joined row", plan(sel(item(fn("AVG", `{"kind":"binary","op":"/","left":`+c("il", "UnitPrice")+`,"right":`+c("i", "Total")+`}`), "t")), invToLines, onInvoice), ""},
		// both sides repeat (two lines of one invoice per playlist entry):
		// the value per joined row is inflated all the same
		{"value per row of a repeated pair", plan(sel(item(fn("SUM", `{"kind":"binary","op":"*","left":`+c("il", "Quantity")+`,"right":`+c("t", "UnitPrice")+`}`), "cost")), frm(from("InvoiceLine", "il"), from("Track", "t"), from("PlaylistTrack", "pt")),
			joins(joinOn("inner", "il", "t", "TrackId", "TrackId"), joinOn("inner", "t", "pt", "TrackId", "TrackId"))), "SUM of an expression of"},
		{"count of the one side", plan(sel(item(fn("COUNT", c("i", "InvoiceId")), "n")), invToLines, onInvoice), "COUNT(i.InvoiceId)"},
		{"in having", plan(sel(c("i", "CustomerId")), invToLines, onInvoice, `"group_by":[`+c("i", "CustomerId")+`]`, `"having":{"kind":"binary","op":">","left":`+fn("SUM", c("i", "Total"))+`,"right":{"kind":"literal","type":"integer","value":10}}`), "having: SUM(i.Total)"},
		{"in a subquery", plan(sel(c("cu", "Country")), frm(from("Customer", "cu")), `"where":{"kind":"binary","op":">","left":{"kind":"subquery","query":`+plan(sel(item(fn("SUM", c("i", "Total")), "t")), invToLines, onInvoice)+`},"right":{"kind":"literal","type":"integer","value":1}}`), "SUM(i.Total)"},
		// payments -> orders <- order items: each payment once per item of its order
		{"two joins away", plan(sel(item(fn("SUM", c("il", "UnitPrice")), "t")), frm(from("InvoiceLine", "il"), from("Track", "t"), from("PlaylistTrack", "pt")),
			joins(joinOn("inner", "il", "t", "TrackId", "TrackId"), joinOn("inner", "t", "pt", "TrackId", "TrackId"))),
			"SUM(il.UnitPrice) counts each InvoiceLine row once per joined PlaylistTrack row (PlaylistTrack refers to Track"},
		{"two joins away, written from the far end", plan(sel(item(fn("SUM", c("il", "UnitPrice")), "t")), frm(from("PlaylistTrack", "pt"), from("Track", "t"), from("InvoiceLine", "il")),
			joins(joinOn("inner", "pt", "t", "TrackId", "TrackId"), joinOn("inner", "t", "il", "TrackId", "TrackId"))),
			"SUM(il.UnitPrice) counts each InvoiceLine row once per joined PlaylistTrack row"},
		{"many to one all the way", plan(sel(item(fn("SUM", c("il", "Quantity")), "q")), frm(from("InvoiceLine", "il"), from("Invoice", "i"), from("Customer", "cu")),
			joins(joinOn("inner", "il", "i", "InvoiceId", "InvoiceId"), joinOn("inner", "i", "cu", "CustomerId", "CustomerId"))), ""},
		{"sum of the many side", plan(sel(item(fn("SUM", c("il", "Quantity")), "q")), invToLines, onInvoice), ""},
		{"count distinct of the one side", plan(sel(item(distinct("COUNT", c("i", "InvoiceId")), "n")), invToLines, onInvoice), ""},
		{"max of the one side", plan(sel(item(fn("MAX", c("i", "Total")), "m")), invToLines, onInvoice), ""},
		{"count star", plan(sel(item(fn("COUNT"), "n")), invToLines, onInvoice), ""},
		// lines counted by a condition on their invoice, as COUNT(*) with a
		// filter: no value of the repeated row is added (a host obeying the
		// warning would rewrite a right answer)
		{"conditional count over the one side", plan(sel(item(fn("SUM", `{"kind":"case","whens":[{"when":{"kind":"binary","op":"=","left":`+c("i", "BillingCountry")+`,"right":{"kind":"literal","value":"USA"}},"then":{"kind":"literal","value":1}}],"else":{"kind":"literal","value":0}}`), "n")), linesToInv, onLine), ""},
		{"no join", plan(sel(item(fn("SUM", c("i", "Total")), "t")), frm(from("Invoice", "i"))), ""},
		// the join in a derived table or a CTE, the sum outside it: the
		// same inflation, in two queries
		{"through a derived table", plan(sel(item(fn("SUM", c("x", "Total")), "t")), frm(`{"alias":"x","subquery":`+plan(sel(item(c("i", "Total"), "Total")), invToLines, onInvoice)+`}`)),
			"SUM(x.Total) counts each Invoice row once per joined InvoiceLine row inside x"},
		{"through a CTE", `{"with":[{"name":"lines","query":` + plan(sel(item(c("i", "Total"), "Total"), item(c("il", "Quantity"), "q")), invToLines, onInvoice) + `}],` + plan(sel(item(fn("SUM", c("x", "Total")), "t")), frm(from("lines", "x")))[1:],
			"SUM(x.Total) counts each Invoice row once per joined InvoiceLine row inside x"},
		{"a derived table's many side", plan(sel(item(fn("SUM", c("x", "q")), "t")), frm(`{"alias":"x","subquery":`+plan(sel(item(c("il", "Quantity"), "q")), invToLines, onInvoice)+`}`)), ""},
		{"a derived table that aggregates", plan(sel(item(fn("SUM", c("x", "Total")), "t")), frm(`{"alias":"x","subquery":`+plan(sel(item(c("i", "Total"), "Total")), invToLines, onInvoice, `"group_by":[`+c("i", "InvoiceId")+`,`+c("i", "Total")+`]`)+`}`)), ""},
		{"a derived table's computed column", plan(sel(item(fn("SUM", c("x", "Total")), "t")), frm(`{"alias":"x","subquery":`+plan(sel(item(`{"kind":"binary","op":"*","left":`+c("i", "Total")+`,"right":`+c("il", "Quantity")+`}`, "Total")), invToLines, onInvoice)+`}`)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := validate.Plan(decode(t, tc.plan), chinook, validate.Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, tc.plan)
			}
			var fan []string
			for _, w := range v.Warnings {
				if strings.Contains(w, "once per joined") {
					fan = append(fan, w)
				}
			}
			switch {
			case tc.want == "" && len(fan) > 0:
				t.Errorf("unexpected fan-out warning %q", fan)
			case tc.want != "" && (len(fan) != 1 || !strings.Contains(fan[0], tc.want)):
				t.Errorf("warnings %q, want one containing %q", v.Warnings, tc.want)
			}
		})
	}
}
