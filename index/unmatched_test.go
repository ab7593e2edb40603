package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"
)

// A role denied a column or a table must learn nothing of it from a
// search: were a question naming the denied column (its name, a word of
// its comment, a sample value) "matched", a caller could probe which
// names exist behind the deny by comparing with a made-up word. The
// table document's list of its columns' names holds the denied name too,
// so it must not count for a table with a denied column; the same
// question matches for a role that may read the column.
func TestDeniedNamesNeverMatch(t *testing.T) {
	snap := smallSnapshot()
	snap.Tables[0].Columns[2].Comment = "nation of residence"
	snap.Tables[3].Comment = "catalogue of goods"
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	deny := func(_, table, column string) bool {
		return table != "product" && !(table == "customer" && column == "country")
	}
	for _, c := range []struct{ question, word string }{
		{"show the country", "country"},         // a denied column's name
		{"show their residence", "residence"},   // its comment
		{"only France please", "France"},        // its sample
		{"show the category", "category"},       // a denied table's column
		{"show the catalogue", "catalogue"},     // the denied table's comment
		{"what about jazz", "jazz"},             // its column's sample
		{"customers with a country", "country"}, // beside a word the role reads
	} {
		for _, role := range []struct {
			name    string
			allow   Allow
			matched bool
		}{{"denied", deny, false}, {"allowed", nil, true}} {
			un, err := ix.Unmatched(context.Background(), c.question, role.allow)
			if err != nil {
				t.Fatal(err)
			}
			if held := !slices.Contains(un, c.word); held != role.matched {
				t.Errorf("%s role, %q: %q held = %v, want %v (unmatched %v)", role.name, c.question, c.word, held, role.matched, un)
			}
			if c.question == "customers with a country" {
				continue // "customers" matches for both
			}
			sel, err := ix.Retrieve(context.Background(), c.question, retrieveOnly, role.allow)
			if err != nil {
				t.Fatal(err)
			}
			if sel.Relevant() != role.matched {
				t.Errorf("%s role, %q: relevant = %v, want %v (tables %+v)", role.name, c.question, sel.Relevant(), role.matched, sel.Tables)
			}
		}
	}
}

// A question says "signed up", a schema "signup_ts": the verb and its
// particle are one name word there, and the caveat that "signed" may not
// be stored told a host to hedge on a question the data answers. A word
// no name or value holds is still listed.
func TestPhrasalVerbMatchesItsNoun(t *testing.T) {
	snap := smallSnapshot()
	snap.Tables[0].Columns[2].Name = "signup_ts"
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	un, err := ix.Unmatched(context.Background(), "how much did customers who signed up in 2024 bring in, by loyalty", nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(un, "signed") || slices.Contains(un, "bring") || !slices.Contains(un, "loyalty") {
		t.Errorf("unmatched %v, want loyalty but not signed or bring", un)
	}
}

// "How many kilograms shipped" over a weight column and a unit column
// holding 'kg': no name or value spells "kilograms", and the caveat that
// it may not be stored told a host to hedge. A unit of mass implies the
// weight it measures.
func TestUnitOfMassImpliesWeight(t *testing.T) {
	snap := smallSnapshot()
	snap.Tables[0].Columns[2].Name = "weight"
	ix, err := Build(context.Background(), snap, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	un, err := ix.Unmatched(context.Background(), "how many kilograms did each customer order, by loyalty", nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(un, "kilograms") || !slices.Contains(un, "loyalty") {
		t.Errorf("unmatched %v, want loyalty but not kilograms", un)
	}
}

// sqliteIndex builds the index of a SQLite file made of stmts, with
// comments (table.column → text) as a semantic layer's notes give them.
func sqliteIndex(t *testing.T, comments map[string]string, stmts ...string) *Index {
	t.Helper()
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, "db", sourcetest.TempDB(t, stmts...), source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Profile(ctx, snap); err != nil {
		t.Fatal(err)
	}
	for i := range snap.Tables {
		for j := range snap.Tables[i].Columns {
			snap.Tables[i].Columns[j].Comment = comments[snap.Tables[i].Name+"."+snap.Tables[i].Columns[j].Name]
		}
	}
	ix, err := Build(ctx, snap, nil, Options{Values: sourceValues(src)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// The threat: a host told that an ordinary word of the question "may not
// be stored" refuses a question the data answers: a verb of taking or
// doing ("take", "made"), the comparative of a measure ("longer",
// "cheapest": a comparison on a distance or a fare), a time of day ("10
// pm", "midnight": an hour of a timestamp), a word the data says
// in other terms ("real" of a note on QA test accounts, "customer" of a
// members table, "opened" of signup_at). The words that name a fact no
// name, value, note or synonym holds are still listed ("lanes",
// "weather", "loyalty").
func TestUnmatchedWordClasses(t *testing.T) {
	bikes := sqliteIndex(t, nil,
		"CREATE TABLE riders (rider_id INTEGER PRIMARY KEY, full_name TEXT, joined_at TEXT)",
		"INSERT INTO riders VALUES (1, 'Zoë Ångström', '2024-01-03'), (2, 'Ann Lee', '2024-02-01')",
		"CREATE TABLE stations (station_id INTEGER PRIMARY KEY, name TEXT, city TEXT)",
		"INSERT INTO stations VALUES (1, 'Bellevue', 'Zurich'), (2, 'Oerlikon', 'Zurich')",
		"CREATE TABLE trips (trip_id INTEGER PRIMARY KEY, rider_id INTEGER REFERENCES riders(rider_id), start_station INTEGER REFERENCES stations(station_id), started_at TEXT, distance_km REAL, fare REAL)",
		"INSERT INTO trips VALUES (1, 1, 1, '2024-06-01 08:00', 3.2, 4.0), (2, 2, 2, '2024-06-02 09:00', 5.5, 6.2)")
	club := sqliteIndex(t, map[string]string{"members.account_type": "'qa_test' marks QA test accounts"},
		"CREATE TABLE members (member_id INTEGER PRIMARY KEY, full_name TEXT, account_type TEXT, signup_at TEXT, status TEXT)",
		"INSERT INTO members VALUES (1, 'Ann', 'personal', '2025-01-03', 'open'), (2, 'Bob', 'business', '2025-02-03', 'closed'), (3, 'QA bot', 'qa_test', '2025-03-01', 'open')")
	for _, c := range []struct {
		class, question string
		ix              *Index
		want            string // the words listed
	}{
		{"verb", "Which trips did Zoë Ångström take?", bikes, ""},
		{"verb", "Which trips has each rider made?", bikes, ""},
		{"verb", "Which stations did the trips go to?", bikes, ""},
		{"verb", "What happened to the trips of Ann Lee?", bikes, ""},
		{"verb", "Which trips included station Bellevue?", bikes, ""},
		{"quantifier", "List every trip of Ann Lee.", bikes, ""},
		{"comparative", "Which trips were longer than 4 km?", bikes, ""},
		{"comparative", "Which is the shortest trip?", bikes, ""},
		{"comparative", "Which riders made the cheapest trips?", bikes, ""},
		{"comparative", "Which fares were bigger than 5?", bikes, ""},
		{"comparative", "Which trips were pricier than the busiest station's?", bikes, ""},
		{"time of day", "How many trips started between 10 pm and midnight local time?", bikes, ""},
		{"time of day", "How many trips started in the morning or the evening?", bikes, ""},
		{"arithmetic", "What is each trip's fare plus its distance, minus one?", bikes, ""},
		{"negation", "Which riders never took a trip?", bikes, ""},
		{"negation", "Which stations have no trips, and which riders are without one?", bikes, ""},
		{"negation", "Which riders took none of the trips from Bellevue?", bikes, ""},
		{"other terms", "How many real customer accounts were opened in 2025 and are still open today?", club, ""},
		{"other terms", "Which genuine members signed up in 2025?", club, ""},
		{"other terms", "How many clients joined in 2025?", club, ""},
		{"other terms", "How many fake accounts were created?", club, ""},
		{"other terms", "How many users registered, and how many accounts are closed?", club, ""},
		{"fact", "How many kilometres of bike lanes are there?", bikes, "bike,lanes"},
		{"fact", "What is the weather today?", bikes, "weather"},
		{"fact", "Which riders hold a loyalty card?", bikes, "loyalty,card"},
		{"fact", "Which trips were hotter than 30 degrees?", bikes, "hotter,degrees"}, // a temperature the data lacks
		{"fact", "How many real customer accounts have a loyalty tier?", club, "loyalty,tier"},
		{"fact", "Which customers took the most trips?", bikes, "customers"}, // no synonym of it here
	} {
		un, err := c.ix.Unmatched(context.Background(), c.question, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(un, ","); got != c.want {
			t.Errorf("%s: %q: unmatched %q, want %q", c.class, c.question, got, c.want)
		}
	}
}

// The threat: "What is the average basket size per order?" on a shop's
// orders table was answered "nothing the datasource holds matched the
// question": "order" is also a word a plan computes (an ordering), so it
// was never weighed, the two words left ("basket", "size") were unheld,
// and a host was told the data may not hold the answer. A word naming a
// table or column, in the singular or the plural and whatever other list
// holds it (an SQL key word, a computed word, a question word), is
// weighed and held, and its table ranked. A role denied the table learns
// nothing of it: the word is then weighed as on a schema without it.
func TestNamedWordsAreHeld(t *testing.T) {
	tables := []string{"orders", "group", "users", "select", "table", "values", "keys", "limit", "offsets",
		"cases", "end", "counts", "dates", "times", "distinct", "total"}
	var stmts []string
	for _, tb := range tables {
		stmts = append(stmts, `CREATE TABLE "`+tb+`" (id INTEGER PRIMARY KEY, label TEXT)`)
	}
	ix := sqliteIndex(t, nil, stmts...)
	for _, c := range []struct{ table, word string }{
		{"orders", "order"}, {"orders", "orders"}, {"group", "groups"}, {"group", "group"}, {"users", "user"},
		{"select", "select"}, {"table", "table"}, {"values", "value"}, {"keys", "key"}, {"limit", "limits"},
		{"offsets", "offset"}, {"cases", "case"}, {"end", "end"}, {"counts", "count"}, {"dates", "date"},
		{"times", "time"}, {"distinct", "distinct"}, {"total", "total"},
	} {
		q := "What is the average basket size per " + c.word + "?"
		weighed := ix.Weighed(q, nil)
		un, err := ix.Unmatched(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(weighed, c.word) || slices.Contains(un, c.word) || len(un) == len(weighed) {
			t.Errorf("%q: weighed %v, unmatched %v; want %q weighed and held (table %s)", q, weighed, un, c.word, c.table)
		}
		sel, err := ix.Retrieve(context.Background(), q, retrieveOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(sel.Tables, func(ts TableSelection) bool { return ts.Name == c.table }) {
			t.Errorf("%q: tables %+v, want %s among them", q, sel.Tables, c.table)
		}
	}
	deny := func(_, table, _ string) bool { return table != "orders" }
	if w := ix.Weighed("What is the average basket size per order?", deny); slices.Contains(w, "order") {
		t.Errorf("a role denied orders: weighed %v, want \"order\" left out as on a schema without it", w)
	}
}

// The threat: "How many distinct customers…" listed "distinct" as a word
// the data may not hold, and a host hedged on a question the data
// answers. The words of how rows are counted or taken together are the
// computation's, not the data's.
func TestComputationWordsNotUnmatched(t *testing.T) {
	ix := sqliteIndex(t, nil, "CREATE TABLE customers (id INTEGER PRIMARY KEY, country TEXT)", "INSERT INTO customers VALUES (1, 'FR'), (2, 'DE')")
	for _, q := range []string{
		"How many distinct customers are there?",
		"How many unique countries do customers come from?",
		"How many different countries, overall and in total?",
		"What is the combined and cumulative average of customers per country, taken altogether?",
		"List the separate, individual and various countries of the entire customers and their respective aggregate.",
	} {
		un, err := ix.Unmatched(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(un) > 0 {
			t.Errorf("%q: unmatched %v, want none", q, un)
		}
	}
}
