package index

import (
	"context"
	"slices"
	"testing"
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
