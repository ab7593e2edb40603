package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/bigcat"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// brokenEmbedder fails every call, so the retrieval index cannot be built
// and the datasource falls back to its whole visible schema.
type brokenEmbedder struct{}

func (brokenEmbedder) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("embedder down")
}
func (brokenEmbedder) Name() string { return "broken" }

// The schema context a host plans with stays within its share of the
// result budget on a catalog far larger than that, also when there is no
// retrieval index and the whole schema is retrieved; it says how many
// tables it left out and gives the describe_schema call for the
// best-ranked ones cut.
func TestHostContextFitsBudgetOnLargeCatalog(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cat.sqlite")
	if err := bigcat.Write(db, 150, 20); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		emb  index.Embedder
		cut  bool
	}{{"retrieval index", nil, false}, {"no index: the whole schema", brokenEmbedder{}, true}} {
		t.Run(c.name, func(t *testing.T) {
			e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "cat", Engine: "sqlite", Path: db}}, Embedder: c.emb,
				ResultTokens: 4000, Today: func() string { return "2026-01-15" }})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			res, err := e.Ask(context.Background(), AskRequest{Question: "total amount of sales orders by region"})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("ask: %v %+v", err, res)
			}
			hp := res.HostPlan
			t.Logf("%d tokens, %d of %d tables, %d cut: %s", hp.ContextTokens, len(hp.ContextTables), hp.VisibleTables, len(hp.CutTables), hp.Omitted)
			if hp.ContextTokens > 1000 || hp.ContextTokens != schemactx.ContextTokens(hp.SchemaContext) || len(hp.ContextTables) == 0 {
				t.Fatalf("context of %d tokens, %d tables, over its 1,000-token share of the 4,000-token budget", hp.ContextTokens, len(hp.ContextTables))
			}
			if hp.VisibleTables != 150 || hp.OmittedTables != 150-len(hp.ContextTables) || hp.Omitted == "" {
				t.Errorf("omitted %d of %d: %q", hp.OmittedTables, hp.VisibleTables, hp.Omitted)
			}
			if c.cut != (len(hp.CutTables) > 0) {
				t.Fatalf("cut tables %v", hp.CutTables)
			}
			if c.cut {
				tables, _ := hp.More.Arguments["tables"].([]string)
				if hp.More.Tool != "describe_schema" || !slices.Equal(tables, hp.CutTables) || slices.ContainsFunc(hp.CutTables, func(n string) bool { return slices.Contains(hp.ContextTables, n) }) {
					t.Errorf("more: %+v, cut %v", hp.More, hp.CutTables)
				}
			}
		})
	}
}

// A host planning "Who does Margaret Park report to?" must see the stored
// spelling of the name the question gives: Employee.LastName holds 8
// values, each on one row, so the context shows two of them as examples,
// and the matched "Park" has to be one of those, or the host writes a
// filter on a spelling it guessed.
func TestHostContextShowsTheMatchedValueOfASmallTable(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(chinookDir, "chinook.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "chinook", Engine: "sqlite", Path: abs}},
		Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "Who does Margaret park report to?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	ctx := res.HostPlan.SchemaContext
	for _, want := range []string{`"Park"`, `"Margaret"`} {
		if !strings.Contains(ctx, want) {
			t.Errorf("the context lacks the matched value %s:\n%s", want, ctx)
		}
	}
}

// The threat: retrieval keeps the columns of a table that the question
// points to, and a host reading the context takes them for the whole
// table: it plans around cards.name, a column it does not know is there,
// or tells the user the data has no such field. The result must say how
// many columns it left out, of which tables (as many as each shows, of
// how many), and how to see them; a context that shows every column
// (a whole small schema) says nothing of columns.
func TestHostContextSaysWhichColumnsItLeftOut(t *testing.T) {
	stmts := []string{"CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT, power INTEGER)", "INSERT INTO cards VALUES (1, 'Ancestor''s Chosen', 5)"}
	for i := range 300 {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE ledger%03d (id INTEGER PRIMARY KEY, amount%03d REAL, booked%03d TEXT, memo%03d TEXT, clerk%03d TEXT)", i, i, i, i, i))
	}
	big := airEngine(t, sourcetest.TempDB(t, stmts...), nil)
	res, err := big.Ask(context.Background(), AskRequest{Question: "total amount of ledger 9 booked by clerk"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	hp := res.HostPlan
	m := regexp.MustCompile(`(ledger\d+) shows (\d+) of (\d+)`).FindStringSubmatch(hp.Omitted)
	if hp.OmittedColumns == 0 || m == nil || !strings.Contains(hp.Omitted, "describe_schema with tables") {
		t.Fatalf("omitted %d columns: %q (context %q), want the cut columns named", hp.OmittedColumns, hp.Omitted, hp.SchemaContext)
	}
	line := ""
	for _, l := range strings.Split(hp.SchemaContext, "\n") {
		if strings.HasPrefix(l, m[1]+" ") {
			line = l
		}
	}
	if shown := strings.Count(line, ";") + 1; line == "" || fmt.Sprint(shown) != m[2] || m[3] != "5" {
		t.Errorf("the note says %s shows %s of %s; the context line %q shows %d of 5", m[1], m[2], m[3], line, shown)
	}

	small := airEngine(t, sourcetest.TempDB(t, stmts[:2]...), nil)
	res, err = small.Ask(context.Background(), AskRequest{Question: "how many cards have power 5?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if hp := res.HostPlan; hp.OmittedColumns != 0 || strings.Contains(hp.Omitted, "columns") {
		t.Errorf("a whole schema: omitted %d columns: %q, want none said", hp.OmittedColumns, hp.Omitted)
	}
}

// The threat: asked for customer satisfaction scores of a clinic chain
// whose data holds none, ask answered with the whole schema as context
// and nothing else, and a host that trusts what it is handed computes a
// "score" from whatever column looks closest. The result says that
// nothing matched and that the data may not hold the answer, as
// search_schema does; a question something matches says nothing of it.
func TestHostPlanSaysWhenNothingMatched(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, clinic TEXT, amount_cents INTEGER, issued_on TEXT, status TEXT, vet_id INTEGER)",
		"INSERT INTO invoices VALUES (1, 'Utrecht', 4500, '2025-01-03', 'paid', 1), (2, 'Arnhem', 1200, '2025-02-11', 'open', 2), (3, 'Zeist Central', 800, '2025-03-01', 'paid', 1)",
		"CREATE TABLE vets (id INTEGER PRIMARY KEY, surname TEXT, sex TEXT)", "INSERT INTO vets VALUES (1, 'Visser', 'F'), (2, 'Bakker', 'M')",
		// clinics enough that the profile's samples leave 'Zeist Central' out
		"INSERT INTO invoices (clinic, amount_cents, issued_on, status, vet_id) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) SELECT 'Clinic ' || i, 100, '2025-04-01', 'open', 2 FROM n")
	e := specEngine(t, DatasourceSpec{ID: "vet", Engine: "sqlite", Path: db, RowLimit: 1000, Description: "Veterinary practice billing"})
	for _, c := range []struct {
		q         string
		noMatch   bool
		unmatched string // the words nothing holds, when something matched
	}{
		{"What was the average satisfaction score per respondent?", true, ""},
		{"How much was invoiced per clinic?", false, ""},
		// most words match; the one the question turns on does not
		{"How much was invoiced per clinic, and why was it refunded?", false, "refunded"},
		// the datasource's own name and description, and the negation of
		// a stored value, are the data's words
		{"How many unpaid invoices does the veterinary practice have in March?", false, ""},
		// a period and a measure a plan computes from amounts
		{"What revenue did each clinic invoice in the first half of the year?", false, ""},
		{"How much money did each clinic actually invoice?", false, ""},
		// how the answer is written
		{"Which clinics invoiced, as one comma separated list sorted alphabetically, amounts in pounds?", false, ""},
		// what the question asks be done, and a question word in the plural
		{"Return each clinic and the numbers of its invoices; identify and calculate the total.", false, ""},
		// one word of a stored value ('Zeist Central'), and a word a
		// column's name stands for (female: sex, which stores 'F')
		{"How much did the Central clinic invoice?", false, ""},
		{"How much did female vets invoice?", false, ""},
		// the data itself, and people in general
		{"Which clinic is the most common in the invoices table, and which people were invoiced most highly?", false, ""},
	} {
		res, err := e.Ask(context.Background(), AskRequest{Question: c.q})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("ask %q: %v %+v", c.q, err, res)
		}
		said := strings.Contains(res.HostPlan.Next, "may not hold the answer")
		if res.HostPlan.NoMatch != c.noMatch || said != c.noMatch {
			t.Errorf("%q: no_match %v, next %q; want no_match %v said so", c.q, res.HostPlan.NoMatch, res.HostPlan.Next, c.noMatch)
		}
		named := strings.Contains(res.HostPlan.Next, " "+strconv.Quote(c.unmatched)+" ")
		if got := strings.Join(res.HostPlan.Unmatched, ","); got != c.unmatched || c.unmatched != "" && !named {
			t.Errorf("%q: unmatched %q, next %q; want %q named", c.q, got, res.HostPlan.Next, c.unmatched)
		}
	}
}

// The threat: an extract taken on 1 July 2025 and asked "which shipments
// are stuck now" in December 2026: the context said only "today
// 2026-12-06", and a host took every exception since mid-2025 as stuck for
// a year and a half. The result names the newest date the data holds
// (a due date after today is none of it).
func TestHostContextSaysHowRecentTheDataIs(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE events (id INTEGER PRIMARY KEY, shipment TEXT, at TIMESTAMP, status TEXT)",
		"INSERT INTO events VALUES (1, 'S1', '2025-06-30 17:00:00', 'exception'), (2, 'S2', '2025-07-01 09:12:00', 'delivered')",
		"CREATE TABLE invoices (id INTEGER PRIMARY KEY, due DATE)",
		"INSERT INTO invoices VALUES (1, '2025-05-01'), (2, '2027-03-01')",
		// a tariff valid to a date after the last event and before today:
		// set in advance, it is no record of when the data was taken
		"CREATE TABLE tariffs (id INTEGER PRIMARY KEY, valid_from DATE, valid_to DATE, endDate DATE)",
		"INSERT INTO tariffs VALUES (1, '2024-04-01', '2026-04-30', '2026-03-31')",
		// dates kept as text, as a date dimension often is: a host read
		// "February" as this year's, which the data does not hold
		"CREATE TABLE calendar (day_key INTEGER PRIMARY KEY, full_date TEXT)",
		"INSERT INTO calendar VALUES (1, '2025-06-01'), (2, '2025-07-01')")
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "ops", Engine: "sqlite", Path: db}},
		Today: func() string { return "2026-12-06" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "Which shipments are stuck in an exception now?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if got := res.HostPlan.Newest; got != "2025-07-01 09:12:00 in events.at" {
		t.Errorf("newest %q, want the latest event", got)
	}
	// without the timestamps, the text dates say it
	e2, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "cal", Engine: "sqlite", Path: sourcetest.TempDB(t,
		"CREATE TABLE calendar (day_key INTEGER PRIMARY KEY, full_date TEXT)", "INSERT INTO calendar VALUES (1, '2025-06-01'), (2, '2025-07-01')")}},
		Today: func() string { return "2026-12-06" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	res, err = e2.Ask(context.Background(), AskRequest{Question: "How many days in February?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if got := res.HostPlan.Newest; got != "2025-07-01 in calendar.full_date" {
		t.Errorf("newest %q, want the latest text date", got)
	}
}

// The threat: asked "which town had the most bounced payments?" of the
// billing datasource, the result said no table, column or value holds
// "town" and that the data may not hold the answer, though the operations
// datasource next to it keeps premises.town; a host told so either gives
// up or answers without towns. The word is named as held by the other
// datasource, with the way to combine, and is not called unmatched; the
// other datasource is looked at even when nothing has opened it yet.
func TestHostPlanNamesWordsAnotherDatasourceHolds(t *testing.T) {
	billing := sourcetest.TempDB(t, "CREATE TABLE payments (id INTEGER PRIMARY KEY, account_no INTEGER, amount REAL, status TEXT, paid_on TEXT)",
		"INSERT INTO payments VALUES (1, 17, 20.5, 'BOUNCED', '2025-03-02'), (2, 18, 31, 'CLEARED', '2025-03-09')")
	ops := sourcetest.TempDB(t, "CREATE TABLE premises (id INTEGER PRIMARY KEY, account_no INTEGER, town TEXT)",
		"INSERT INTO premises VALUES (1, 17, 'Marshby'), (2, 18, 'Eastwick')")
	// a third datasource matching the question's other words only: no
	// part of the answer is there, and its schema would be noise
	audit := sourcetest.TempDB(t, "CREATE TABLE bounced_payments_log (id INTEGER PRIMARY KEY, note TEXT)",
		"INSERT INTO bounced_payments_log VALUES (1, 'retry')")
	e, err := New(Options{Open: openAdapter, Today: func() string { return "2026-01-15" }, Datasources: []DatasourceSpec{
		{ID: "billing", Engine: "sqlite", Path: billing, Description: "Payments"},
		{ID: "ops", Engine: "sqlite", Path: ops, Description: "Operations"},
		{ID: "audit", Engine: "sqlite", Path: audit, Description: "Audit"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// ops is not open yet, as in a one-shot command naming billing: it is
	// opened to be asked
	ctx := context.Background()
	res, err := e.Ask(ctx, AskRequest{Question: "Which town had the most bounced payments, and were any refunded?", Datasource: "billing"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	hp := res.HostPlan
	if fmt.Sprint(hp.HeldElsewhere) != "[{town [ops]}]" || slices.Contains(hp.Unmatched, "town") {
		t.Errorf("held elsewhere %v, unmatched %v: want town held by ops, not unmatched", hp.HeldElsewhere, hp.Unmatched)
	}
	if !strings.HasPrefix(hp.Next, "Words of the question") || !strings.Contains(hp.Next, `"town" (ops)`) || !strings.Contains(hp.Next, "run_combined_plan") {
		t.Errorf("next %q does not name town in ops and how to combine", hp.Next)
	}
	// the other half of the answer comes with the result: ops's context
	// for the question, so the host plans both parts from one call
	if len(hp.Related) != 1 || hp.Related[0].Datasource != "ops" || !strings.Contains(hp.Related[0].SchemaContext, "premises") ||
		!strings.Contains(hp.Related[0].SchemaContext, "town") || hp.Related[0].Description != "Operations" {
		t.Errorf("related %+v: want ops's context with premises.town", hp.Related)
	}
	if !strings.Contains(hp.Next, "related holds the schema context of ops") {
		t.Errorf("next %q does not say where ops's schema is", hp.Next)
	}
	// a word no datasource holds is still said to be unmatched
	if !slices.Contains(hp.Unmatched, "refunded") {
		t.Errorf("unmatched %v: want refunded, which neither holds", hp.Unmatched)
	}
}

// The other datasources are opened to be asked only when the question
// has words the chosen one holds nothing of: otherwise every ask would
// wait for them to open, up to a second.
func TestHostPlanOpensOtherDatasourcesOnlyForUnmatchedWords(t *testing.T) {
	billing := sourcetest.TempDB(t, "CREATE TABLE payments (id INTEGER PRIMARY KEY, amount REAL, status TEXT)",
		"INSERT INTO payments VALUES (1, 20.5, 'BOUNCED'), (2, 31, 'CLEARED')")
	ops := sourcetest.TempDB(t, "CREATE TABLE premises (id INTEGER PRIMARY KEY, town TEXT)", "INSERT INTO premises VALUES (1, 'Marshby')")
	e, err := New(Options{Open: openAdapter, Today: func() string { return "2026-01-15" }, Datasources: []DatasourceSpec{
		{ID: "billing", Engine: "sqlite", Path: billing}, {ID: "ops", Engine: "sqlite", Path: ops}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Ask(context.Background(), AskRequest{Question: "What is the amount of bounced payments?", Datasource: "billing"})
	if err != nil || res.HostPlan == nil || len(res.HostPlan.Unmatched) > 0 {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if _, open := e.sources.Ready("ops"); open {
		t.Error("ops was opened for a question billing matches whole")
	}
}

// The threat: "Which driver drove the most kilometres?" over legs.km was
// told that "drove" and "kilometres" may not be stored, so a careful
// host refused a question the data answers. Units and the verbs of
// covering or holding a quantity are the data's words when a column
// holds the unit or the measure; so is "completed" where a status column
// names states, and "UTC" is how to read the answer.
func TestHostPlanReadsUnitsAndTheirVerbs(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE drivers (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO drivers VALUES (1, 'Ana'), (2, 'Bo')",
		"CREATE TABLE legs (id INTEGER PRIMARY KEY, driver_id INTEGER REFERENCES drivers(id), km REAL, status TEXT)", "INSERT INTO legs VALUES (1, 1, 12.5, 'done'), (2, 2, 40, 'cancelled')",
		"CREATE TABLE stock (warehouse TEXT, sku TEXT, qty INTEGER)", "INSERT INTO stock VALUES ('North', 'A1', 5), ('South', 'A1', 7)")
	e := specEngine(t, DatasourceSpec{ID: "fleet", Engine: "sqlite", Path: db, RowLimit: 1000})
	for _, q := range []string{"Which driver drove the most kilometres?", "How far has each driver travelled?", "How many units does each warehouse hold?",
		// a state the status column spells its own way ('done'), and the
		// time zone the answer is to be read in
		"How many legs were completed in March 2024 UTC?"} {
		res, err := e.Ask(context.Background(), AskRequest{Question: q})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("ask %q: %v %+v", q, err, res)
		}
		if len(res.HostPlan.Unmatched) > 0 {
			t.Errorf("%q: unmatched %v, want none (legs.km, stock.qty hold them)", q, res.HostPlan.Unmatched)
		}
	}
}

// The threat: contacts created into September beside orders that end
// in June: the result named the contacts' date as the newest the data
// holds, and a host asked about "last month" took September for now and
// found no orders. The newest date is that of the tables the question is
// about, when they hold one.
func TestHostContextNewestIsOfTheQuestionsTables(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, amount REAL, ordered_at TIMESTAMP)",
		"INSERT INTO orders VALUES (1, 20, '2025-05-30 10:00:00'), (2, 35, '2025-06-30 18:30:00')",
		"CREATE TABLE contacts (contact_id INTEGER PRIMARY KEY, email TEXT, created_at TIMESTAMP)",
		"INSERT INTO contacts VALUES (1, 'a@example.com', '2025-01-02 09:00:00'), (2, 'b@example.com', '2025-09-17 13:50:38')",
		"CREATE TABLE campaigns (campaign_id INTEGER PRIMARY KEY, channel TEXT, launched_at TIMESTAMP)",
		"INSERT INTO campaigns VALUES (1, 'email', '2025-08-01 08:00:00')",
		"CREATE TABLE newsletters (newsletter_id INTEGER PRIMARY KEY, subject TEXT, sent_at TIMESTAMP)",
		"INSERT INTO newsletters VALUES (1, 'Autumn', '2025-09-01 08:00:00')")
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{{ID: "shop", Engine: "sqlite", Path: db}},
		Today: func() string { return "2026-12-06" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for q, want := range map[string]string{
		"What was the total amount of orders last month?": "2025-06-30 18:30:00 in orders.ordered_at",
		"How many contacts were added last month?":        "2025-09-17 13:50:38 in contacts.created_at",
	} {
		res, err := e.Ask(context.Background(), AskRequest{Question: q})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("ask: %v %+v", err, res)
		}
		if got := res.HostPlan.Newest; got != want {
			t.Errorf("%q: newest %q, want %q", q, got, want)
		}
	}
}

// The newest date is read from the question's three best tables: a
// selection lists tables in schema order, and read in that order a table
// the question barely touches (contacts, first by name) took the place of
// the one it is about.
func TestEvidencedTablesAreRankedByScore(t *testing.T) {
	sel := &index.Selection{Tables: []index.TableSelection{
		{Name: "accounts", Score: 0.01},
		{Name: "contacts", Score: 0.005, Evidence: []string{"vector"}},
		{Name: "invoices", Score: 0.02, Evidence: []string{"mention"}},
		{Name: "plans", Score: 0.04, Evidence: []string{"text"}},
		{Name: "subscriptions", Score: 0.03, Evidence: []string{"text"}},
	}}
	if got := fmt.Sprint(evidenced(sel)); got != "[plans subscriptions invoices contacts]" {
		t.Errorf("evidenced %s, want best score first, accounts (no evidence) left out", got)
	}
}
