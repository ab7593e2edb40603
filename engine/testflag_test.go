package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index/schemactx"
)

// The threat: 60 QA accounts flagged is_test_account = 1 carried 42% of a
// year's invoiced amount, and a sum over invoices joined to owners counted
// them with nothing said. An aggregate over a table with such a flag that
// the plan never reads names the flag and gives the filter that, pasted,
// leaves the test records out; a plan that reads the flag, a listing, and
// a column merely named like one ('internal_notes') say nothing.
func TestTestRecordsFlagIsNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE owners (id INTEGER PRIMARY KEY, email TEXT, is_test_account INTEGER, internal_notes TEXT)",
		"INSERT INTO owners VALUES (1, 'a@x.nl', 0, 'vip'), (2, 'qa@vet.test', 1, 'seed'), (3, 'b@x.nl', 0, 'new customer')",
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES owners(id), amount INTEGER)",
		"INSERT INTO invoices VALUES (1, 1, 100), (2, 2, 5000), (3, 3, 50), (4, 2, 7000)",
		"CREATE TABLE invoice_lines (id INTEGER PRIMARY KEY, invoice_id INTEGER REFERENCES invoices(id), amount INTEGER)",
		"INSERT INTO invoice_lines VALUES (1, 1, 60), (2, 1, 40), (3, 2, 5000), (4, 3, 50), (5, 4, 7000)",
	}
	plan := func(sel, where string) string {
		p := `{"select":[` + sel + `],"from":[{"table":"invoices","alias":"i"},{"table":"owners","alias":"o"}],"joins":[{"type":"inner","left":"i","right":"o","on":[{"left_column":"owner_id","right_column":"id"}]}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `}`
	}
	sum := `{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"amount"}]},"alias":"total"}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, plan(sum, ""))
			w := warningWith(res.Warnings, "marks test or internal records")
			_, fix, ok := strings.Cut(w, "if they should not, add ")
			fix, _, _ = strings.Cut(fix, " to the filters")
			if !ok || !strings.HasPrefix(w, "owners.is_test_account") {
				t.Fatalf("warnings %q: want the test flag named with a filter", res.Warnings)
			}
			if got := runAir(t, e, plan(sum, fix)); fmt.Sprint(got.Rows) != "[[150]]" || warningWith(got.Warnings, "marks test") != "" {
				t.Errorf("with the filter %s: rows %v warnings %q, want 150 and nothing more said", fix, got.Rows, got.Warnings)
			}
			if got := runAir(t, e, plan(`{"expr":{"kind":"column","table":"i","column":"amount"},"alias":"amount"}`, "")); warningWith(got.Warnings, "marks test") != "" {
				t.Errorf("a listing: %q, want nothing said", got.Warnings)
			}
			if strings.Contains(w, "internal_notes") || len(res.Warnings) > 0 && strings.Count(strings.Join(res.Warnings, "\n"), "marks test") != 1 {
				t.Errorf("warnings %q: want the flag named once, the notes column not at all", res.Warnings)
			}
			// the lines' sum: the flag is two foreign keys away, on a table
			// the plan does not read; the warning names the way there
			lines := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"l","column":"amount"}]},"alias":"total"}],"from":[{"table":"invoice_lines","alias":"l"}]}`)
			if w := warningWith(lines.Warnings, "marks test or internal records"); !strings.Contains(w, "invoice_lines.invoice_id → invoices.owner_id → owners") {
				t.Errorf("invoice lines: warnings %q, want the flag on owners named with the way there", lines.Warnings)
			}
			if ctx := schemactx.SchemaContext(airSnapshot(t, e)); !strings.Contains(ctx, "is_test_account integer range [0,1] (marks test or internal records with 1") {
				t.Errorf("the schema context does not name the flag:\n%s", ctx)
			}
		})
	}
}

// The threat: 20 appointments deleted in place (deleted_at set) and
// merged patients (is_deleted = 1) counted in every figure, with nothing
// said: the schema says so only by the columns' names. A plan reading
// such a table without reading the column names it, with the filter
// that, pasted, leaves those rows out; a plan that reads it, and a
// column named like one that holds no deleted row, and other times, say
// nothing.
func TestRowsDeletedInPlaceAreNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE patients (id INTEGER PRIMARY KEY, name TEXT, is_deleted INTEGER)",
		"INSERT INTO patients VALUES (1, 'Ann', 0), (2, 'Ann (dup)', 1), (3, 'Bo', 0)",
		"CREATE TABLE visits (id INTEGER PRIMARY KEY, patient_id INTEGER, fee INTEGER, deleted_at TIMESTAMP, removed_on DATE, booked TIMESTAMP)",
		"INSERT INTO visits VALUES (1, 1, 100, NULL, NULL, '2025-02-01 08:00:00'), (2, 1, 900, '2025-03-01 10:00:00', NULL, NULL), (3, 3, 50, NULL, NULL, '2025-02-03 08:00:00'), (4, 2, 700, '2025-03-02 09:00:00', NULL, '2025-02-04 08:00:00')",
		// a meter removed from its premises on a day is an event of the
		// meter, not a row deleted: its readings count
		"CREATE TABLE meters (id INTEGER PRIMARY KEY, kwh INTEGER, installed_on DATE, removed_on DATE)",
		"INSERT INTO meters VALUES (1, 10, '2020-01-01', '2025-02-06'), (2, 20, '2025-02-06', NULL), (3, 5, '2019-05-01', NULL)",
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range []struct {
				plan, column, want string
			}{
				{`{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"v","column":"fee"}]},"alias":"total"}],"from":[{"table":"visits","alias":"v"}]}`, "visits.deleted_at", "[[150]]"},
				{`{"select":[{"expr":{"kind":"column","table":"p","column":"name"},"alias":"name"}],"from":[{"table":"patients","alias":"p"}],"order_by":[{"expr":{"kind":"column","column":"name"}}]}`, "patients.is_deleted", "[[Ann] [Bo]]"},
			} {
				res := runAir(t, e, c.plan)
				w := warningWith(res.Warnings, c.column+" ")
				_, fix, ok := strings.Cut(w, "if they should not, add ")
				fix, _, _ = strings.Cut(fix, ` to the filters with "and"`)
				if !ok || !strings.Contains(w, "deleted in place") || c.column == "visits.deleted_at" && !strings.Contains(w, "visits.deleted_at marks the rows deleted in place, which stay in the table: 50% of rows hold a time in it; this plan never reads it") {
					t.Fatalf("warnings %q: want %s named with a filter", res.Warnings, c.column)
				}
				filtered := strings.Replace(c.plan, `,"from":`, `,"where":`+fix+`,"from":`, 1)
				got := runAir(t, e, filtered)
				if fmt.Sprint(got.Rows) != c.want || warningWith(got.Warnings, "deleted in place") != "" {
					t.Errorf("with the filter %s: rows %v warnings %q, want %s and nothing more said", fix, got.Rows, got.Warnings, c.want)
				}
			}
			res := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"visits","alias":"v"}]}`)
			if all := strings.Join(res.Warnings, "\n"); strings.Contains(all, "removed_on") || strings.Contains(all, "booked") {
				t.Errorf("warnings %q: a column that marks no row, or a time of another meaning, is named", res.Warnings)
			}
			res = runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"m","column":"kwh"}]},"alias":"kwh"}],"from":[{"table":"meters","alias":"m"}]}`)
			if w := warningWith(res.Warnings, "removed_on"); w != "" {
				t.Errorf("warning %q: the day a meter was removed from its premises is no row deleted", w)
			}
			// a patient merged since is joined by its key to visits that
			// happened: leaving those visits out, as the warning said,
			// cut a right figure; the visits' own deleted rows still count
			res = runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"v","column":"fee"}]},"alias":"total"}],"from":[{"table":"visits","alias":"v"},{"table":"patients","alias":"p"}],"joins":[{"type":"inner","left":"v","right":"p","on":[{"left_column":"patient_id","right_column":"id"}]}]}`)
			if w := warningWith(res.Warnings, "patients.is_deleted "); w != "" || warningWith(res.Warnings, "visits.deleted_at ") == "" {
				t.Errorf("warnings %q: want the visits' deleted rows named and the joined patients' not", res.Warnings)
			}
			if ctx := schemactx.SchemaContext(airSnapshot(t, e)); !strings.Contains(ctx, "(marks the rows deleted in place, which stay in the table: 50% of rows hold a time in it; business figures usually leave them out)") {
				t.Errorf("the schema context does not name the deleted rows:\n%s", ctx)
			}
		})
	}
}

// The threat: a reservations table filled by several systems writes its
// test flag ten ways ('Y', 'yes', '1', 'true' beside 'N', 'no', '0',
// 'false', blank and NULL). The flag was taken for no flag at all (more
// than two values), so test bookings counted in every figure with
// nothing said. Every spelling of a yes/no is read as one, and the
// warning's filter, pasted, leaves out each spelling of a marked row and
// keeps the blank and NULL ones.
func TestTestFlagWrittenManyWaysIsNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE bookings (id INTEGER PRIMARY KEY, amount INTEGER, is_test TEXT)",
		"INSERT INTO bookings VALUES (1, 10, 'Y'), (2, 20, 'yes'), (3, 40, '1'), (4, 80, 'true'), (5, 1, 'N'), (6, 2, 'no'), (7, 4, '0'), (8, 8, 'false'), (9, 16, ''), (10, 32, NULL)",
	}
	sum := func(where string) string {
		p := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"b","column":"amount"}]},"alias":"total"}],"from":[{"table":"bookings","alias":"b"}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `}`
	}
	pastedTestFilterLeaves(t, db, sum, "", "[[63]]")
}

// The threat: accounts of type 'test', 'internal' and 'demo' beside the
// customers, and a count of accounts or a sum of their seats takes them
// all, with nothing said but a column of kinds. An aggregate over such a
// table names the column and the test values, with the filter that,
// pasted, leaves them out (NULL kept: an account of no type is no test).
func TestTestRecordsByCategoryAreNamed(t *testing.T) {
	db := []string{
		"CREATE TABLE accounts (id INTEGER PRIMARY KEY, account_type TEXT, seats INTEGER)",
		"INSERT INTO accounts VALUES (1, 'customer', 10), (2, 'test', 50), (3, 'customer', 5), (4, 'internal', 40), (5, 'demo', 7), (6, NULL, 3)",
	}
	plan := func(where string) string {
		p := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"a","column":"seats"}]},"alias":"seats"}],"from":[{"table":"accounts","alias":"a"}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `}`
	}
	pastedTestFilterLeaves(t, db, plan, `accounts.account_type marks test or internal records with ["demo","internal","test"]`, "[[18]]")
}

// pastedTestFilterLeaves runs plan("") on each engine over db, wants a
// test-records warning starting with prefix, and its filter, pasted into
// plan, to give want with no such warning left.
func pastedTestFilterLeaves(t *testing.T, db []string, plan func(where string) string, prefix, want string) {
	t.Helper()
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, plan(""))
			w := warningWith(res.Warnings, "marks test or internal records")
			_, fix, ok := strings.Cut(w, "if they should not, add ")
			fix, _, _ = strings.Cut(fix, " to the filters")
			if !ok || !strings.HasPrefix(w, prefix) {
				t.Fatalf("warnings %q: want the test values named (%q) with a filter", res.Warnings, prefix)
			}
			if got := runAir(t, e, plan(fix)); fmt.Sprint(got.Rows) != want || warningWith(got.Warnings, "marks test") != "" {
				t.Errorf("with the filter %s: rows %v warnings %q, want %s and nothing more said", fix, got.Rows, got.Warnings, want)
			}
		})
	}
}

// The threat: a plan over invoices, their lines and payments, all of them
// belonging to accounts flagged two ways (a class 'test' and an internal
// flag), was told so in six near-alike paragraphs, which buried the
// warnings that mattered. Each flagged table is said once, with every
// table read that belongs to it and both flags.
func TestFlaggedParentIsSaidOnce(t *testing.T) {
	db := []string{
		"CREATE TABLE accounts (id INTEGER PRIMARY KEY, account_class TEXT, is_internal INTEGER)",
		"INSERT INTO accounts VALUES (1, 'residential', 0), (2, 'test', 0), (3, 'business', 1), (4, 'business', 0)",
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES accounts(id), total INTEGER)",
		"INSERT INTO invoices VALUES (1, 1, 100), (2, 2, 5), (3, 3, 70), (4, 4, 40)",
		"CREATE TABLE payments (id INTEGER PRIMARY KEY, account_id INTEGER REFERENCES accounts(id), amount INTEGER)",
		"INSERT INTO payments VALUES (1, 1, 100), (2, 2, 5), (3, 4, 40)",
	}
	plan := `{"select":[{"expr":{"kind":"column","table":"i","column":"account_id"},"alias":"account"},` +
		`{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"total"}]},"alias":"billed"},` +
		`{"expr":{"kind":"subquery","query":{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"p","column":"amount"}]},"alias":"s"}],"from":[{"table":"payments","alias":"p"}]}},"alias":"paid"}],` +
		`"from":[{"table":"invoices","alias":"i"}],"group_by":[{"kind":"column","table":"i","column":"account_id"}]}`
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			res := runAir(t, e, plan)
			var said []string
			for _, w := range res.Warnings {
				if strings.Contains(w, "marks test or internal records") {
					said = append(said, w)
				}
			}
			want := `each row of invoices and payments belongs to one of accounts (invoices.account_id → accounts; payments.account_id → accounts), whose account_class marks test or internal records with "test", and whose is_internal marks test or internal records with 1`
			if len(said) != 1 || !strings.HasPrefix(said[0], want) || !strings.Contains(said[0], "join accounts and filter on account_class and is_internal, e.g. ") {
				t.Errorf("warnings %q\nwant one starting %q", said, want)
			}
		})
	}
}

// The threat: patients.account_type holds 'patient', 'test', 'demo' and
// 'staff'; the warning named only the test and demo accounts, and a host
// that followed it kept the clinic's own staff in "real patient" figures.
// Staff accounts are internal records of a table of customers: the
// warning names them with the others, and its filter, pasted, keeps the
// patients alone. The column's comment, which says which rows are real,
// is quoted in the warning (PostgreSQL, where the fixture can write one).
func TestStaffAccountsAreInternalRecords(t *testing.T) {
	db := []string{
		"CREATE TABLE patients (id INTEGER PRIMARY KEY, account_type TEXT NOT NULL, visits INTEGER)",
		"INSERT INTO patients VALUES (1, 'patient', 3), (2, 'staff', 10), (3, 'test', 20), (4, 'patient', 4), (5, 'demo', 40), (6, 'staff', 80)",
	}
	plan := func(where string) string {
		p := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"p","column":"visits"}]},"alias":"visits"}],"from":[{"table":"patients","alias":"p"}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `}`
	}
	pastedTestFilterLeaves(t, db, plan, `patients.account_type marks test or internal records with ["demo","staff","test"]`, "[[7]]")

	pg := everyEngine(append(slices.Clone(db), "COMMENT ON COLUMN patients.account_type IS 'only ''patient'' rows are real customers'"))[2]
	t.Run("postgres/comment", func(t *testing.T) {
		e := specEngine(t, pg.spec(t))
		w := warningWith(runAir(t, e, plan("")).Warnings, "marks test or internal records")
		if !strings.Contains(w, `(its note: "only 'patient' rows are real customers")`) {
			t.Errorf("warning %q: want the column's note quoted", w)
		}
	})
}

// flagNoteDB: customers flagged is_test, some of them test accounts by
// their email or name alone, as a note may say; each books one amount, a
// power of two, so that a sum names the customers it counts.
var flagNoteDB = []string{
	"CREATE TABLE customers (id INTEGER PRIMARY KEY, full_name TEXT, email TEXT, is_test BOOLEAN NOT NULL)",
	"INSERT INTO customers VALUES (1, 'Ann', 'ann@mail.nl', false), (2, 'QA', 'qa@mail.nl', true), (3, 'Bo', 'bo@example.com', false)," +
		" (4, 'test user', 'tu@mail.nl', false), (5, 'Cy', 'CY@Example.COM', false), (6, 'Di', NULL, false)",
	"CREATE TABLE bookings (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), amount INTEGER)",
	"INSERT INTO bookings VALUES (1, 1, 1), (2, 2, 2), (3, 3, 4), (4, 4, 8), (5, 5, 16), (6, 6, 32)",
}

// The threat: the is_test flag came in 2026, and its note said accounts
// whose email ends in @example.com are test accounts too; the warning
// quoted the note but its filter read the flag alone, and a host that
// pasted it counted those accounts (1353 bookings where the note's rule
// left 1302). A note's rule on a column of the flag's table (an email
// domain, a name's start) is in the filter, which pasted gives the note's
// figure; a plan that filters on the flag alone is told of the rule, with
// its filter; a rule in words no filter reads is said not covered.
func TestFlagNoteRuleIsInTheFix(t *testing.T) {
	pg := func(note string) engineSpec {
		return everyEngine(append(slices.Clone(flagNoteDB), "COMMENT ON COLUMN customers.is_test IS '"+strings.ReplaceAll(note, "'", "''")+"'"))[2]
	}
	// the bookings of customers joined; where is "" or a filter
	plan := func(where string) string {
		p := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"b","column":"amount"}]},"alias":"total"}],` +
			`"from":[{"table":"bookings","alias":"b"},{"table":"customers","alias":"c"}],"joins":[{"type":"inner","left":"b","right":"c","on":[{"left_column":"customer_id","right_column":"id"}]}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `}`
	}
	flagOnly := `{"kind":"unary","op":"not","expr":{"kind":"column","table":"c","column":"is_test"}}`
	for _, c := range []struct {
		name, note, want string
	}{
		// the flag alone leaves 1+4+8+16+32 = 61
		{"email ends in", "Set by QA. Note that the flag was only introduced in 2026: accounts whose email ends in @example.com are also test accounts even when is_test is false.", "[[41]]"},
		{"an email domain", "Accounts with an @example.com email are test accounts too.", "[[41]]"},
		{"names starting with", "Customers whose names start with 'test' are QA accounts as well.", "[[53]]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := specEngine(t, pg(c.note).spec(t))
			w := warningWith(runAir(t, e, plan("")).Warnings, "customers.is_test marks test or internal records")
			_, fix, ok := strings.Cut(w, "if they should not, add ")
			fix, _, _ = strings.Cut(fix, " to the filters")
			if !ok || !strings.Contains(w, "it also leaves out the rows its note adds: customers.") {
				t.Fatalf("warning %q: want the filter with the note's rule", w)
			}
			if got := runAir(t, e, plan(fix)); fmt.Sprint(got.Rows) != c.want || warningWith(got.Warnings, "is_test") != "" {
				t.Errorf("with the filter %s: rows %v warnings %q, want %s (not 61) and nothing more said", fix, got.Rows, got.Warnings, c.want)
			}
			// the flag filtered as the schema says, the rule forgotten
			res := runAir(t, e, plan(flagOnly))
			w = warningWith(res.Warnings, "its note adds the rows where customers.")
			rule := jsonValuesAfter(t, w, "if they should not, add ")[0]
			where, _ := json.Marshal(map[string]any{"kind": "binary", "op": "and", "left": json.RawMessage(flagOnly), "right": rule})
			if got := runAir(t, e, plan(string(where))); fmt.Sprint(got.Rows) != c.want || warningWith(got.Warnings, "is_test") != "" {
				t.Errorf("the flag filtered, then the rule %v: rows %v warnings %q, want %s and nothing more said", rule, got.Rows, got.Warnings, c.want)
			}
		})
	}
	t.Run("a rule in words", func(t *testing.T) {
		e := specEngine(t, pg("Accounts opened by the sales team before 2020 are also test accounts, flagged or not.").spec(t))
		w := warningWith(runAir(t, e, plan("")).Warnings, "customers.is_test marks test or internal records")
		if !strings.Contains(w, "its note adds a rule this filter does not cover: apply it too") {
			t.Errorf("warning %q: want the rule the filter misses said", w)
		}
		// of the bookings alone, the fix is said in words
		w = warningWith(runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"bookings","alias":"b"}]}`).Warnings, "belongs to one of customers")
		if !strings.Contains(w, `its note adds a rule this filter does not cover: "Accounts opened by the sales team before 2020 are also test accounts, flagged or not"`) {
			t.Errorf("warning %q: want the rule the filter misses quoted", w)
		}
	})
}

// The threat: accounts.is_internal marks the partners' and resellers'
// accounts as well as the staff's, as its note says, and a figure over
// accounts was told the flag marks "test or internal records": a host
// read the partners as customers. The kinds the note names are said with
// the flag, as data; of a column of kinds, those its filter keeps are
// said kept.
func TestFlagNoteKindsAreSaid(t *testing.T) {
	db := []string{
		"CREATE TABLE accounts (id INTEGER PRIMARY KEY, is_internal BOOLEAN, account_type TEXT, seats INTEGER)",
		"INSERT INTO accounts VALUES (1, false, 'customer', 1), (2, true, 'partner', 2), (3, true, 'test', 4), (4, false, 'customer', 8), (5, true, 'reseller', 16)",
		"COMMENT ON COLUMN accounts.is_internal IS 'true for our Partners'' and resellers'' accounts and for staff'",
		"COMMENT ON COLUMN accounts.account_type IS 'partner and test rows are no customers'",
	}
	e := specEngine(t, everyEngine(db)[2].spec(t))
	ws := runAir(t, e, `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"a","column":"seats"}]},"alias":"seats"}],"from":[{"table":"accounts","alias":"a"}]}`).Warnings
	for col, said := range map[string]string{
		"accounts.is_internal ":  `(its note also names "partner" and "reseller" records)`,
		"accounts.account_type ": `(its note also names "partner" records, which the filter below keeps)`,
	} {
		if w := warningWith(ws, col); !strings.Contains(w, said) {
			t.Errorf("warning %q: want %q", w, said)
		}
	}
}

// The threat: orders name their buyer (customer_id) and, for a third of
// them, who referred the buyer (referrer_id), both customers. The
// test-account warning took the first foreign key the engine listed,
// the referrer on SQLite, and its join would have filtered the referrer's
// flag and dropped the orders nobody referred. The key NULL in the fewest
// rows is the one each row belongs through, whatever the engine lists
// first.
func TestTestFlagFollowsTheKeyEveryRowHas(t *testing.T) {
	stmts := []string{
		"CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name TEXT, is_test INTEGER)",
		"INSERT INTO customers VALUES (1, 'Ann', 0), (2, 'QA', 1), (3, 'Bo', 0)",
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, referrer_id INTEGER, amount INTEGER," +
			" CONSTRAINT b_customer FOREIGN KEY (customer_id) REFERENCES customers (customer_id)," +
			" CONSTRAINT a_referrer FOREIGN KEY (referrer_id) REFERENCES customers (customer_id))",
		"INSERT INTO orders VALUES (1, 1, NULL, 10), (2, 2, NULL, 20), (3, 3, 1, 30), (4, 1, NULL, 40), (5, 3, NULL, 50), (6, 2, 3, 60)",
	}
	plan := `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"o","column":"amount"}]},"alias":"total"}],"from":[{"table":"orders","alias":"o"}]}`
	for _, eng := range everyEngine(stmts) {
		t.Run(eng.name, func(t *testing.T) {
			e := specEngine(t, eng.spec(t))
			w := warningWith(runAir(t, e, plan).Warnings, "belongs to one of customers")
			if !strings.Contains(w, "(orders.customer_id → customers)") {
				t.Errorf("warning %q, want the join through customer_id", w)
			}
		})
	}
}

// The threat: customers flagged is_test only since a flag was added (NULL
// on most rows), with staff accounts named by their e-mail domain in the
// e-mail column's note (read from the documentation table SQLite's
// owners keep). The warning said "join customers and filter on is_test":
// is_test = 0 keeps none of the NULL rows, and the staff accounts stayed
// in. It gives the filter as plan JSON, NULLs kept and the note's rule
// applied, which pasted gives the real customers' total.
func TestParentFlagFilterKeepsNullsAndOtherNotesRules(t *testing.T) {
	stmts := []string{
		"CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, email TEXT, is_test INTEGER)",
		"INSERT INTO customers VALUES (1, 'ann@mail.nl', NULL), (2, 'qa@mail.nl', 1), (3, 'bo@mail.nl', NULL), (4, 'kim@dashfood.com', NULL), (5, 'li@mail.nl', 0), (6, 'jo@mail.nl', NULL)",
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(customer_id), amount INTEGER)",
		"INSERT INTO orders VALUES (1, 1, 10), (2, 2, 20), (3, 3, 30), (4, 4, 40), (5, 5, 50), (6, 6, 60)",
		"CREATE TABLE data_dictionary (table_name TEXT, column_name TEXT, note TEXT)",
		"INSERT INTO data_dictionary VALUES ('customers', 'is_test', '1 = test account; NULL for accounts created before the flag existed'), " +
			"('customers', 'email', 'Accounts with an @dashfood.com email are internal staff accounts; exclude them like test accounts'), " +
			"('orders', 'amount', 'order value in euros, delivery included')",
	}
	sum := func(rest string) string {
		return `{"select":[{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"o","column":"amount"}]},"alias":"total"}],"from":[{"table":"orders","alias":"o"}` + rest + `}`
	}
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			w := warningWith(runAir(t, e, sum("]")).Warnings, "belongs to one of customers")
			_, fix, ok := strings.Cut(w, ", e.g. ")
			fix, _, _ = strings.Cut(fix, ` ("customers" as the alias`)
			if !ok || !strings.Contains(fix, "@dashfood.com") {
				t.Fatalf("warning %q, want a filter with the staff rule", w)
			}
			joined := sum(`,{"table":"customers","alias":"customers"}],"joins":[{"left":"o","right":"customers","on":[{"left_column":"customer_id","right_column":"customer_id"}]}],"where":` + fix)
			if got := fmt.Sprint(runAir(t, e, joined).Rows); got != "[[150]]" {
				t.Errorf("the pasted filter %s sums %s, want [[150]] (orders 1, 3, 5, 6)", fix, got)
			}
		})
	}
}

// The threat: a shop that marks its test accounts only in words, in a
// documentation table ("accounts with an @example.com email are test
// accounts; exclude them from revenue"), with no flag column: top
// customers by revenue listed the QA account second and nothing said so,
// though the rule stood in the schema's notes. The result names the rule
// and the filter, which pasted leaves the QA account out; a plan that
// reads the e-mail column decided already.
func TestRecordsANoteNamesWithoutAFlagAreSaid(t *testing.T) {
	stmts := []string{
		"CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name TEXT, email TEXT)",
		"INSERT INTO customers VALUES (1, 'Ann', 'ann@mail.nl'), (2, 'QA Bot', 'qa@example.com'), (3, 'Bo', 'bo@mail.nl')",
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(customer_id), amount INTEGER)",
		"INSERT INTO orders VALUES (1, 1, 10), (2, 2, 500), (3, 3, 30), (4, 1, 40)",
		"CREATE TABLE data_dictionary (table_name TEXT, column_name TEXT, note TEXT)",
		"INSERT INTO data_dictionary VALUES ('customers', 'email', 'Accounts with an @example.com email are test accounts; exclude them from revenue'), " +
			"('orders', 'amount', 'order value in euros, delivery included')",
	}
	top := func(where string) string {
		return `{"select":[{"expr":{"kind":"column","table":"c","column":"name"},"alias":"name"},{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"o","column":"amount"}]},"alias":"revenue"}],` +
			`"from":[{"table":"orders","alias":"o"},{"table":"customers","alias":"c"}],"joins":[{"left":"o","right":"c","on":[{"left_column":"customer_id","right_column":"customer_id"}]}]` + where +
			`,"group_by":[{"kind":"column","table":"c","column":"name"}],"order_by":[{"expr":{"kind":"column","column":"revenue"},"direction":"desc"}]}`
	}
	for _, en := range everyEngine(stmts) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			w := warningWith(runAir(t, e, top("")).Warnings, "the notes of customers name test or internal records")
			_, fix, ok := strings.Cut(w, "add ")
			fix, _, _ = strings.Cut(fix, " to the filters")
			if !ok || !strings.Contains(w, "@example.com") {
				t.Fatalf("warning %q, want the rule and its filter", w)
			}
			res := runAir(t, e, top(`,"where":`+fix))
			if got := fmt.Sprint(res.Rows); got != "[[Ann 50] [Bo 30]]" {
				t.Errorf("with %s: %s, want [[Ann 50] [Bo 30]]", fix, got)
			}
			if w := warningWith(res.Warnings, "the notes of customers"); w != "" {
				t.Errorf("a plan reading email: warned %q", w)
			}
		})
	}
}
