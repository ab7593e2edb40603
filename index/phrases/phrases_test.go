package phrases

import (
	"context"
	"slices"
	"testing"
)

func TestPhraseIndex(t *testing.T) {
	ix, err := BuildPhrases([]Phrase{
		{Key: "rev", Text: "What was revenue by country in 2024?"},
		{Key: "rev", Text: "Revenue per billing country for one year"},
		{Key: "genre", Text: "Which tracks are in the Jazz genre?", Values: []string{"Jazz"}},
		{Key: "cust", Text: "Which customers are in Brazil?", Values: []string{"Brazil"}},
		{Key: "km", Text: "Which trips were longer than 4 km?"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	score := func(q string, values ...string) map[string]float64 {
		res, err := ix.Match(ctx, q, nil, values)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		for _, r := range res {
			out[r.Key] = r.Score
		}
		return out
	}
	tests := []struct {
		q      string
		values []string
		key    string
		min    float64 // key's score is at least min …
		max    float64 // … and at most max
	}{
		{"What was revenue by country in 2023?", nil, "rev", 1, 1},               // digits are parameter values
		{"revenues by countries", nil, "rev", 1, 1},                              // stems
		{"Which tracks are in the Rock genre?", []string{"Rock"}, "genre", 1, 1}, // a stored value fills the slot
		{"Which tracks are in the Rock genre?", nil, "genre", 0.3, 0.6},          // not known as a value: it counts
		{"Which customers are in Canada?", []string{"Canada"}, "cust", 1, 1},
		{"Which customers are in each country?", nil, "cust", 0, 0.59}, // under the default threshold (0.6)
		{"revenue per country", []string{"Rock"}, "rev", 0.5, 1},       // a filler only fills a slot the phrase has
		// a number however written is a parameter value, its glued unit a word
		{"Which trips were longer than 4.5 km?", nil, "km", 1, 1},
		{"Which trips were longer than 0.5 km?", nil, "km", 1, 1},
		{"Which trips were longer than 4,5 km?", nil, "km", 1, 1},
		{"Which trips were longer than 4.5km?", nil, "km", 1, 1},
		{"Which trips were longer than 1,200 km?", nil, "km", 1, 1},
		{"Which trips were longer than 4.5 miles?", nil, "km", 0, 0.59}, // another unit counts against it
	}
	for _, tt := range tests {
		got := score(tt.q, tt.values...)[tt.key]
		if got < tt.min || got > tt.max {
			t.Errorf("%q %v: %s scores %.3f, want in [%.2f, %.2f]", tt.q, tt.values, tt.key, got, tt.min, tt.max)
		}
	}
	// keys restricts; best first, ties by key; same answer every time.
	res, _ := ix.Match(ctx, "customers by country", map[string]bool{"cust": true}, nil)
	if len(res) != 1 || res[0].Key != "cust" {
		t.Errorf("keys filter: %+v", res)
	}
	a, _ := ix.Match(ctx, "country tracks customers revenue", nil, nil)
	for i := 0; i < 20; i++ {
		b, _ := ix.Match(ctx, "country tracks customers revenue", nil, nil)
		if !slices.Equal(a, b) {
			t.Fatalf("not deterministic: %v vs %v", a, b)
		}
	}
	for i := 1; i < len(a); i++ {
		if a[i-1].Score < a[i].Score || (a[i-1].Score == a[i].Score && a[i-1].Key > a[i].Key) {
			t.Errorf("order: %+v", a)
		}
	}
	// No terms, no phrases, a cancelled context.
	if res, err := ix.Match(ctx, "the of in 2024", nil, nil); err != nil || len(res) != 0 {
		t.Errorf("stop words and digits only: %v %v", res, err)
	}
	empty, _ := BuildPhrases(nil)
	if res, err := empty.Match(ctx, "revenue", nil, nil); err != nil || len(res) != 0 {
		t.Errorf("empty index: %v %v", res, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ix.Match(cctx, "revenue", nil, nil); err == nil {
		t.Error("cancelled context: no error")
	}
}
