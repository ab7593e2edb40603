package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestChinookLiterals(t *testing.T) {
	ix, _ := chinook(t)
	tests := []struct {
		question string
		want     Value
	}{
		{"How many heavy metal tracks are there?", Value{Schema: "main", Table: "Genre", Column: "Name", Value: "Heavy Metal", Match: "exact"}},
		{"customers in the usa", Value{Schema: "main", Table: "Customer", Column: "Country", Value: "USA", Match: "exact"}},
		{"invoices billed to customers from germany", Value{Schema: "main", Table: "Customer", Column: "Country", Value: "Germany", Match: "exact"}},
		{"tracks by AC/DC", Value{Schema: "main", Table: "Artist", Column: "Name", Value: "AC/DC", Match: "exact"}},
		{"albums by ACDC", Value{Schema: "main", Table: "Artist", Column: "Name", Value: "AC/DC", Match: "exact"}},
	}
	for _, tt := range tests {
		sel, err := ix.Retrieve(context.Background(), tt.question, retrieveOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, v := range sel.Values {
			if v == tt.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: values %+v lack %+v", tt.question, sel.Values, tt.want)
		}
	}
}

// countingValues records the columns asked and serves made-up values.
type countingValues struct{ asked []string }

func (c *countingValues) DistinctValues(_ context.Context, _, table, column string, limit int) ([]string, error) {
	c.asked = append(c.asked, fmt.Sprintf("%s.%s:%d", table, column, limit))
	out := make([]string, limit)
	for i := range out {
		out[i] = fmt.Sprintf("%s %d", column, i)
	}
	return out, nil
}

// TestMaxTotalValues: columns are fetched fewest distinct values first
// until the total budget is spent.
func TestMaxTotalValues(t *testing.T) {
	snap, _ := chinookSnapshot(t)
	cv := &countingValues{}
	ix, err := Build(context.Background(), snap, nil, Options{Values: cv, MaxDistinctValues: 1000, MaxTotalValues: 1500})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if len(cv.asked) < 2 {
		t.Fatalf("asked %v", cv.asked)
	}
	// The first column asked has the fewest distinct values of those the
	// profile does not list whole; the last gets the remainder.
	if last := cv.asked[len(cv.asked)-1]; !strings.HasSuffix(last, ":500") {
		t.Errorf("asked %v; want the last ask limited to the remaining 500", cv.asked)
	}
}
