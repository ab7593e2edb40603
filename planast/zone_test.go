package planast_test

import (
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// AT_TIME_ZONE as a host writes it: the instant, then the zone.
func atZone(x, zone string) string { return fn("AT_TIME_ZONE", x, zone) }

var invoices = frm(from("Invoice", "i"))

// The threat: a host asking for local hours gets UTC hours, or a refusal
// that sends it round in circles. AT_TIME_ZONE of an instant (a
// timestamp, text read by the text-cast rule) in a zone named by a
// literal or a text column is a timestamp, usable as any other.
func TestAtTimeZoneValidates(t *testing.T) {
	for name, p := range map[string]string{
		"literal zone, hour part": plan(sel(item(fn("DATE_PART", lit(`"hour"`), atZone(c("i", "InvoiceDate"), lit(`"Europe/London"`))), "h")), invoices),
		"column zone":             plan(sel(item(atZone(c("i", "InvoiceDate"), c("i", "BillingCountry")), "t")), invoices),
		"compared with a literal": plan(sel(c("i", "InvoiceId")), invoices, where(bin("<", atZone(c("i", "InvoiceDate"), lit(`"UTC"`)), `{"kind":"literal","type":"timestamp","value":"2021-01-01 08:00:00"}`))),
		"text instant":            plan(sel(item(atZone(c("i", "BillingCountry"), lit(`"Asia/Kolkata"`)), "t")), invoices),
		"truncated to the day":    plan(sel(item(fn("DATE_TRUNC", lit(`"day"`), atZone(c("i", "InvoiceDate"), lit(`"America/New_York"`))), "d")), invoices),
	} {
		v, err := validate.Plan(decode(t, p), chinook, validate.Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name == "column zone" && v.Types[0] != planast.TypeTimestamp {
			t.Errorf("%s: type %s, want timestamp", name, v.Types[0])
		}
	}
}

// The threat: a zone name the engines do not know fails the query as a
// database error (PostgreSQL), or worse, 'UTC+3' reads three hours west
// there; a swapped call (PostgreSQL's timezone(zone, x) order) is told it
// holds no timestamp; a date, a day already, is shifted to the day
// before. Each is refused at its argument with what to write.
func TestAtTimeZoneRefusals(t *testing.T) {
	x := c("i", "InvoiceDate")
	for _, tc := range []struct {
		name, plan string
		cat        planast.Catalog
		code       planast.Code
		path, hint string
	}{
		{"letter case", plan(sel(item(atZone(x, lit(`"europe/london"`)), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args[1]", `did you mean "Europe/London"?`},
		{"spaces", plan(sel(item(atZone(x, lit(`"America/New York"`)), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args[1]", `did you mean "America/New_York"?`},
		{"an offset", plan(sel(item(atZone(x, lit(`"UTC+3"`)), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args[1]", "Etc/GMT-3 for UTC+3"},
		{"no such zone", plan(sel(item(atZone(x, lit(`"Mars/Olympus"`)), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args[1]", `e.g. "Europe/London"`},
		{"the server's zone", plan(sel(item(atZone(x, lit(`"Local"`)), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args[1]", `e.g. "Europe/London"`},
		{"empty", plan(sel(item(atZone(x, lit(`""`)), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args[1]", `e.g. "Europe/London"`},
		{"swapped", plan(sel(item(atZone(lit(`"Europe/London"`), x), "t")), invoices), chinook, planast.CodeBadValue, "select[0].expr.args",
			`write {"kind":"func","name":"AT_TIME_ZONE","args":[{"kind":"column","table":"i","column":"InvoiceDate"},{"kind":"literal","type":"string","value":"Europe/London"}]}`},
		{"a date", plan(sel(item(atZone(c("cu", "SignupDate"), lit(`"Europe/London"`)), "t")), frm(from("Customer", "cu"))), chinook, planast.CodeType, "select[0].expr.args[0]", "holds days already"},
		{"a number", plan(sel(item(atZone(c("i", "Total"), lit(`"Europe/London"`)), "t")), invoices), chinook, planast.CodeType, "select[0].expr.args[0]", "FROM_EPOCH_SECONDS"},
		{"a zone that is no text", plan(sel(item(atZone(x, c("i", "CustomerId")), "t")), invoices), chinook, planast.CodeType, "select[0].expr.args[1]", ""},
	} {
		is := firstIssue(t, tc.plan, tc.cat, validate.Options{})
		if is.Code != tc.code || is.Path != tc.path || !strings.Contains(is.Hint, tc.hint) {
			t.Errorf("%s: %+v\nwant %s at %s hinting %s", tc.name, is, tc.code, tc.path, tc.hint)
		}
	}
}

// The hint a host reaching for SQL's spellings of the conversion gets.
func TestAtTimeZoneAdvisedForSQLSpellings(t *testing.T) {
	for _, name := range []string{"TIMEZONE", "CONVERT_TZ", "FROM_UTC_TIMESTAMP"} {
		is := firstIssue(t, plan(sel(item(fn(name, lit(`"Europe/London"`), c("i", "InvoiceDate")), "t")), invoices), chinook, validate.Options{})
		if is.Code != planast.CodeFunction || !strings.Contains(is.Message, "AT_TIME_ZONE(instant, zone)") {
			t.Errorf("%s: %+v", name, is)
		}
	}
}
