package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// search_schema "weather" on Chinook answered "the tables below match the
// other words" (there were none) with seven tables, found through a
// customer named Heather, while ask said nothing matched: a host took
// the tables for leads. A search whose every word the data lacks matches
// nothing, as ask says; the stored value itself still matches.
func TestSearchOfWordsTheDataLacksMatchesNothing(t *testing.T) {
	e := chinookEngine(t, "")
	for _, c := range []struct {
		text     string
		relevant bool
	}{
		{"weather", false},
		{"weather forecast tomorrow", false},
		{"Heather", true},
		{"customers and the weather", true},
	} {
		sel, err := e.Search(context.Background(), "chinook", c.text)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Relevant() != c.relevant || !c.relevant && len(sel.Tables) > 0 {
			t.Errorf("%q: relevant %v with %d tables, want relevant %v", c.text, sel.Relevant(), len(sel.Tables), c.relevant)
		}
	}
}

// The threat: ask "What is the average basket size per order?" on a shop
// answered "Nothing the datasource holds matched the question … the data
// may not hold the answer" though "order" names its orders table (an
// ordering is also a word a plan computes, and was never weighed): a
// host told so refuses a question the data answers. A question naming a
// table, in the singular or by an SQL key word, gets its tables; one whose
// every weighed word the data lacks still matches nothing.
func TestQuestionNamingATableMatches(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT)",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total_cents INTEGER)",
		"CREATE TABLE order_items (order_id INTEGER REFERENCES orders(id), product_id INTEGER, qty INTEGER)",
		`CREATE TABLE "group" (id INTEGER PRIMARY KEY, label TEXT)`,
		"INSERT INTO customers VALUES (1, 'a@example.com')", "INSERT INTO orders VALUES (1, 1, 500)", "INSERT INTO order_items VALUES (1, 1, 2)")
	e := specEngine(t, DatasourceSpec{ID: "shop", Engine: "sqlite", Path: db, RowLimit: 1000})
	for _, c := range []struct {
		q, table string // table: "" when nothing matches
	}{
		{"What is the average basket size per order?", "orders"},
		{"What is the average basket size per group?", "group"},
		{"What is the average basket size?", ""},
	} {
		res, err := e.Ask(context.Background(), AskRequest{Question: c.q})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("ask %q: %v %+v", c.q, err, res)
		}
		said := strings.Contains(res.HostPlan.Next, "Nothing the datasource holds matched the question")
		if res.HostPlan.NoMatch != (c.table == "") || said != (c.table == "") {
			t.Errorf("%q: no_match %v, next %q; want no_match %v", c.q, res.HostPlan.NoMatch, res.HostPlan.Next, c.table == "")
		}
		sel, err := e.Search(context.Background(), "shop", c.q)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.ContainsFunc(sel.Tables, func(ts index.TableSelection) bool { return ts.Name == c.table }); got != (c.table != "") || c.table == "" && len(sel.Tables) > 0 {
			t.Errorf("search %q: tables %+v, want %q", c.q, sel.Tables, c.table)
		}
	}
}

// The threat: "Quantos membros ativos há em Lisboa?" of a members table
// whose names and values are English matches nothing, and the result said
// only that the data may not hold the answer: a host refused a question
// the data answers. A question nothing matched is told that another
// language matches nothing either, and to search in the schema's words.
func TestNoMatchSaysAnotherLanguageMatchesNothing(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE members (id INTEGER PRIMARY KEY, city TEXT, status TEXT)",
		"INSERT INTO members VALUES (1, 'Lisbon', 'active'), (2, 'Porto', 'lapsed')")
	e := specEngine(t, DatasourceSpec{ID: "gym", Engine: "sqlite", Path: db, RowLimit: 1000})
	res, err := e.Ask(context.Background(), AskRequest{Question: "Quantos sócios ativos há em Lisboa?"})
	if err != nil || res.HostPlan == nil {
		t.Fatalf("ask: %v %+v", err, res)
	}
	if !res.HostPlan.NoMatch || !strings.Contains(res.HostPlan.Next, "If the question is in another language than the schema's names and values, search_schema (or ask) again in the schema's words") {
		t.Errorf("no_match %v, next %q: want the other language said", res.HostPlan.NoMatch, res.HostPlan.Next)
	}
}

// The threat: "Welche Mitglieder in Lisbon sind active?" matched the
// stored 'Lisbon' and 'active' only, and the result told the host that
// "Welche", "Mitglieder" and "sind" name facts the data may not store:
// a question most of whose words nothing holds is told, too, that another
// language than the schema's matches nothing, and to ask in its words.
// An English question lacking one fact is not.
func TestMostlyUnmatchedQuestionSaysAnotherLanguage(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE members (id INTEGER PRIMARY KEY, city TEXT, status TEXT)",
		"INSERT INTO members VALUES (1, 'Lisbon', 'active'), (2, 'Porto', 'lapsed')")
	e := specEngine(t, DatasourceSpec{ID: "gym", Engine: "sqlite", Path: db, RowLimit: 1000})
	for q, want := range map[string]bool{
		"Wie viele Mitglieder in Lisbon sind active?":       true,
		"How many active members in Lisbon own a kayak?":    false,
		"Quantos membros active em Lisbon pagaram a quota?": true,
	} {
		res, err := e.Ask(context.Background(), AskRequest{Question: q})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("ask %q: %v %+v", q, err, res)
		}
		hp := res.HostPlan
		if hp.NoMatch || len(hp.Unmatched) == 0 {
			t.Fatalf("%q: no_match %v, unmatched %v: the case needs a partial match", q, hp.NoMatch, hp.Unmatched)
		}
		if got := strings.Contains(hp.Next, "If the question is in another language than the schema's names and values"); got != want {
			t.Errorf("%q (unmatched %v): other language said %v, want %v; next %q", q, hp.Unmatched, got, want, hp.Next)
		}
	}
}

// The threat: search_schema "yoga" over a timetable whose classes are
// 'Morning Yoga' and 'Hot Yoga' listed the classes table but no value: a
// stored value is found when the text spells it whole, and a host looking
// for the class by one word was left to guess its spelling. A search
// lists the values holding a word of its text.
func TestSearchListsValuesHoldingAWord(t *testing.T) {
	// a trainer's specialty spelled 'Yoga' whole is found by retrieval
	// and must not hide the classes holding the word
	db := sourcetest.TempDB(t, "CREATE TABLE classes (id INTEGER PRIMARY KEY, name TEXT, studio TEXT)",
		"INSERT INTO classes VALUES (1, 'Morning Yoga', 'North'), (2, 'Hot Yoga', 'South'), (3, 'Spin Cycle', 'North')",
		"CREATE TABLE trainers (id INTEGER PRIMARY KEY, specialty TEXT)",
		"INSERT INTO trainers VALUES (1, 'Yoga'), (2, 'Spin'), (3, 'Boxing')")
	e := specEngine(t, DatasourceSpec{ID: "gym", Engine: "sqlite", Path: db, RowLimit: 1000})
	sel, err := e.Search(context.Background(), "gym", "yoga")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range sel.Values {
		if v.Table == "classes" && v.Column == "name" && v.Match == "word" {
			got = append(got, v.Value)
		}
	}
	if !slices.Equal(got, []string{"Hot Yoga", "Morning Yoga"}) {
		t.Errorf("values %+v: want the two yoga classes, of match word", sel.Values)
	}
	n := 0
	for _, v := range sel.Values {
		if v.Table == "trainers" && v.Value == "Yoga" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("values %+v: want the specialty 'Yoga' listed once", sel.Values)
	}
	// a caller who reads classes through a row filter is shown none: the
	// index holds the values of every row
	pol := policyFromYAML(t, `datasources:
  - {id: gym, engine: sqlite, path: `+db+`}
roles:
  north:
    allow: ["gym"]
    row_filters:
      - {table: gym.main.classes, where: "studio = 'North'"}
users:
  - {name: nora, roles: [north]}
local_user: nora
`)
	e2, err := New(Options{Open: openAdapter, Policy: pol, Datasources: []DatasourceSpec{{ID: "gym", Engine: "sqlite", Path: db}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	nora, _ := pol.ForUser("nora")
	sel, err = e2.Search(WithCaller(context.Background(), nora), "gym", "yoga")
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(sel.Values, func(v index.Value) bool { return v.Table == "classes" }) {
		t.Errorf("row-filtered caller shown values %+v", sel.Values)
	}
}
