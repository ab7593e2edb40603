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
