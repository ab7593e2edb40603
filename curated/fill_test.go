package curated

import (
	"encoding/json"
	"fmt"
	"testing"
)

// The threat: a host is handed a run_verified_query call whose parameter
// was guessed (the wrong year, a value the question never said), and runs
// it. A value is filled only when the question states exactly one that
// passes the parameter's own check; otherwise it is named as missing.
func TestFillFromQuestion(t *testing.T) {
	params := []Param{
		{Name: "year", Type: TypeString, Required: true, Pattern: "^[0-9]{4}$"},
		{Name: "market", Type: TypeString, Choices: []string{"USA", "Canada", "United Kingdom"}},
		{Name: "genre", Type: TypeString, Required: true, MaxLength: ptr(20), Example: "Jazz"},
		{Name: "top", Type: TypeInteger, Min: ptr(1.0), Max: ptr(100.0), Default: 10},
		{Name: "since", Type: TypeDate},
		{Name: "active", Type: TypeBoolean, Required: true},
	}
	q := &Query{ID: "q", Params: params}
	for i := range q.Params {
		if err := q.Params[i].define(); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		question string
		values   []string
		filled   string
		missing  string
	}{
		{"Top 5 Rock albums in the United Kingdom in 2023 since 2023-02-01", []string{"Rock"},
			`{"genre":"Rock","market":"United Kingdom","since":"2023-02-01","top":5,"year":"2023"}`, "[active]"},
		{"Jazz sales in canada", nil, `{"genre":"Jazz","market":"Canada"}`, "[year active]"},
		{"Compare 2023 with 2024", nil, `{}`, "[year genre active]"},                              // two years: the host decides
		{"Rock or Blues in 2024", []string{"Rock", "Blues"}, `{"year":"2024"}`, "[genre active]"}, // two values
		{"Top 500 tracks", nil, `{}`, "[year genre active]"},                                      // out of range
		{"USAF budget", nil, `{}`, "[year genre active]"},                                         // a choice inside a word
		// one value stored in several spellings: the one the question
		// writes ('Paid' would return other rows than 'paid'), and none
		// when the question writes none of them as stored
		{"orders paid", []string{"Paid", "paid", "paid "}, `{"genre":"paid"}`, "[year active]"},
		{"orders PAID", []string{"Paid", "paid", "paid "}, `{}`, "[year genre active]"},
		{"orders Paid", []string{"paid ", "Paid"}, `{"genre":"Paid"}`, "[year active]"},
		{"Jazz", []string{"Jazz"}, `{"genre":"Jazz"}`, "[year active]"},
	}
	for _, c := range cases {
		filled, missing := q.FillFromQuestion(c.question, c.values)
		b, _ := json.Marshal(filled)
		if string(b) != c.filled || fmt.Sprint(missing) != c.missing {
			t.Errorf("%q: filled %s missing %v, want %s %s", c.question, b, missing, c.filled, c.missing)
		}
		if _, err := q.Bind(filled); err == nil && len(missing) > 0 {
			t.Errorf("%q: Bind accepts a call with missing parameters", c.question)
		}
	}
}

// The threat: a question states a distance as "4.5 km", "4,5 km" or
// "4.5km" and the host is handed a call with km missing, or worse with
// km 4 (the digits before the mark) or 5; or a date or a thousands group
// is read as a number it is not. A number however written fills a number
// parameter; an integer parameter takes only a whole one.
func TestFillNumberFromQuestion(t *testing.T) {
	q := &Query{ID: "q", Params: []Param{{Name: "km", Type: TypeNumber, Required: true}}}
	n := &Query{ID: "n", Params: []Param{{Name: "n", Type: TypeInteger, Required: true}}}
	for _, x := range []*Query{q, n} {
		if err := x.Params[0].define(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		q              *Query
		question, want string
	}{
		{q, "Which trips were longer than 4.5 km?", `{"km":4.5}`},
		{q, "Which trips were longer than 0.5 km?", `{"km":0.5}`},
		{q, "Which trips were longer than 4,5 km?", `{"km":4.5}`},
		{q, "Which trips were longer than 4.5km?", `{"km":4.5}`},
		{q, "Which trips were longer than 10 km?", `{"km":10}`},
		{q, "Which trips were longer than 1,200 km?", `{"km":1200}`},
		{q, "Trips longer than -2.5 km", `{"km":-2.5}`},
		{q, "Trips since 2024-06-01 longer than 4.5 km", `{"km":4.5}`}, // the date is no number
		{q, "Trips of rider BR12 longer than 3 km", `{"km":3}`},        // nor is the id
		{q, "Trips longer than 4.5 km or 6 km", `{}`},                  // two readings: the host decides
		{q, "Trips longer than 1,2,3 km", `{}`},                        // no reading
		{n, "The 5 longest trips", `{"n":5}`},
		{n, "Riders with more than 1,200 trips", `{"n":1200}`},
		{n, "Riders with more than 4.5 trips", `{}`}, // not an integer
		{n, "Trips on 2024-06-01", `{}`},             // a date, no count
	} {
		filled, _ := c.q.FillFromQuestion(c.question, nil)
		b, _ := json.Marshal(filled)
		if string(b) != c.want {
			t.Errorf("%q: filled %s, want %s", c.question, b, c.want)
		}
	}
}

// The threat: without the retrieval index, the word-overlap matcher
// misses a verified query when the question glues a unit to its number
// ("4.5km") or writes a decimal ("4,5"): the number is a value, the unit
// a word like any other.
func TestTokenMatcherReadsNumbers(t *testing.T) {
	q := &Query{ID: "q", Questions: []string{"Which trips were longer than 4 km?"}}
	for _, question := range []string{"Which trips were longer than 4.5km?", "Which trips were longer than 4,5 km?", "Which trips were longer than 10km?"} {
		if s := (TokenMatcher{}).Scores(question, []*Query{q})[0]; s != 1 {
			t.Errorf("%q scores %.3f, want 1", question, s)
		}
	}
}
