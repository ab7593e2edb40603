package index

import (
	"context"
	"reflect"
	"testing"
)

// A question answered again (an ask served from the plan cache) reuses its
// value search, but must get what a first search gives, and who may see a
// column is decided on every call: a caller denied Customer.Country must
// not get "USA" because another caller asked the same question before.
func TestValueSearchRememberedPerQuestion(t *testing.T) {
	ix, _ := chinook(t)
	ctx := context.Background()
	q := "How many customers are in the USA?"
	all := func(string, string, string) bool { return true }
	noCountry := func(_, table, column string) bool { return !(table == "Customer" && column == "Country") }
	has := func(vs []Value, table, column, value string) bool {
		for _, v := range vs {
			if v.Table == table && v.Column == column && v.Value == value {
				return true
			}
		}
		return false
	}
	first, err := ix.Values(ctx, q, all)
	if err != nil {
		t.Fatal(err)
	}
	if !has(first, "Customer", "Country", "USA") {
		t.Fatalf("first search lacks Customer.Country USA: %v", first)
	}
	denied, err := ix.Values(ctx, q, noCountry)
	if err != nil {
		t.Fatal(err)
	}
	if has(denied, "Customer", "Country", "USA") {
		t.Errorf("a caller denied Customer.Country got its value from the remembered search: %v", denied)
	}
	again, err := ix.Values(ctx, q, all)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("the remembered search differs:\n%v\n%v", first, again)
	}
	jazz, err := ix.Values(ctx, "Which tracks are in the Jazz genre?", all)
	if err != nil {
		t.Fatal(err)
	}
	if !has(jazz, "Genre", "Name", "Jazz") || has(jazz, "Customer", "Country", "USA") {
		t.Errorf("another question got the remembered search of the first: %v", jazz)
	}
	fresh, _ := chinook(t)
	other, err := fresh.Values(ctx, q, all)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, other) {
		t.Errorf("a fresh index differs:\n%v\n%v", first, other)
	}
}

// The verified-query phrases keep exact value matches only, and find them
// without the fuzzy search: what ExactValues finds must be what Values
// finds as exact, and Values must still find a misspelled value.
func TestExactValuesAreValuesExactMatches(t *testing.T) {
	ix, _ := chinook(t)
	ctx := context.Background()
	for _, q := range []string{
		"What was revenue by country in 2024?", "Which tracks are in the Jazz genre?", "List the customers of a country",
		"customers in the usa", "tracks by AC/DC", "How many heavy metal tracks are there?", "albums by Metalica",
	} {
		// exact first: its search must not stand in for the fuzzy one
		got, err := ix.ExactValues(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		all, err := ix.Values(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []Value{}
		for _, v := range all {
			if v.Match == "exact" {
				want = append(want, v)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: ExactValues %v, want %v", q, got, want)
		}
	}
	fuzzy, err := ix.Values(ctx, "albums by Metalica", nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range fuzzy {
		found = found || (v.Table == "Artist" && v.Value == "Metallica" && v.Match == "fuzzy")
	}
	if !found {
		t.Errorf("Values lost the fuzzy match of Metallica: %v", fuzzy)
	}
}
