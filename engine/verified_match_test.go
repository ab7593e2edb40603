package engine

import (
	"context"
	"testing"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/internal/config"
)

// The verified queries of examples/chinook/curated.yaml are matched
// through the retrieval index: paraphrases and other parameter values
// (stored values the index finds in the question) match their query at the
// file's threshold; none of the twelve demo questions matches any.
func TestVerifiedMatchThroughIndex(t *testing.T) {
	cfg, err := config.Load("../examples/chinook/nl2sql.yaml")
	if err != nil {
		t.Fatal(err)
	}
	set, refused, err := curated.Open(context.Background(), cfg)
	if err != nil || len(refused) > 0 {
		t.Fatalf("curated: %v %v", err, refused)
	}
	e := chinookEngine(t, "")
	e.opts.Curated = set
	ctx := context.Background()
	ds, err := e.datasource(ctx, "chinook")
	if err != nil {
		t.Fatal(err)
	}
	match := func(q string) string {
		m := e.verifiedMatcher(ctx, ds, q)
		if _, ok := m.(curated.TokenMatcher); ok {
			t.Fatalf("matcher %T, want the phrase index", m)
		}
		got, _, ok := set.Match(m, q, set.Runnable(e.caller(ctx), "chinook"))
		if !ok {
			return ""
		}
		return got.ID
	}
	for q, want := range map[string]string{
		"What was revenue by country in 2023?":  "revenue_by_country",
		"revenue per country in 2022":           "revenue_by_country",
		"Sales per country last year":           "revenue_by_country",
		"Which tracks are in the Rock genre?":   "tracks_of_genre", // Rock: a stored genre fills the slot of Jazz
		"tracks of the Blues genre":             "tracks_of_genre",
		"Which customers are in Canada?":        "customers_in_country",
		"Which customers are in the catalogue?": "", // a word that names no stored value counts against
		"Which tracks are in the Zydeco genre?": "", // nor does a genre that is not stored
		"":                                      "", // no terms, no match
	} {
		if got := match(q); got != want {
			t.Errorf("%q matched %q, want %q", q, got, want)
		}
	}
	for _, q := range questions(t) {
		if got := match(q); got != "" {
			t.Errorf("demo question %q matched verified query %s", q, got)
		}
	}
}
