package engine

import (
	"context"
	"testing"
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
