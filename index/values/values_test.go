package values

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index/lex"
)

func TestMatchWords(t *testing.T) {
	tests := []struct {
		value, question, want string
	}{
		{"Heavy Metal", "How many heavy metal tracks?", "exact"},
		{"USA", "customers in the usa", "exact"},
		{"dog", "students who own dogs", "stem"},
		{"Caribbean", "countries in the Carribean", "fuzzy"},
		{"Asia", "the largest Asian country", "prefix"},
		{"Metal", "heavy metals", "stem"},
		{"Metal", "the medal count", "fuzzy"}, // one edit on five letters
		{"Jazz", "jazzy tunes", "prefix"},     // four letters, one more
		{"Jazz", "jazziest tunes", ""},        // four more letters: too far
		{"Rock", "rocks", "stem"},             //
		{"Pop", "popular songs", ""},          // three letters: no prefix match
		{"The", "the best", "exact"},          // trivial values match only exactly
		{"The", "them", ""},                   //
		{"No", "no", "exact"},
		{"New York City", "flights from new york", ""},
		// the same letters with or without separators
		{"AC/DC", "albums by ACDC", "exact"},
		{"PG-13", "films rated pg13", "exact"},
		{"ACDC", "albums by ac dc", "exact"},
		{"McDonald", "orders of Mc Donald", "exact"},
		{"AC/DC", "ac power", ""}, // one word of the value is not the value
		{"A-B", "ab testing", ""}, // under four letters joined: chance
		{"Ab", "a b c", ""},       //
		{"PG-13", "pg 13 and up", "exact"},
	}
	for _, tt := range tests {
		q := lex.Words(tt.question)
		qs := make([]string, len(q))
		for i, w := range q {
			qs[i] = lex.Singular(w)
		}
		if _, got := matchWords(lex.Words(tt.value), q, qs); got != tt.want {
			t.Errorf("matchWords(%q in %q) = %q, want %q", tt.value, tt.question, got, tt.want)
		}
	}
}

// TestFromQuery pages through a source whose row cap (3) is below
// the page, and skips non-text values.
func TestFromQuery(t *testing.T) {
	all := []any{"a", "b", int64(3), "d", "e", "f", "g"}
	var sqls []string
	q := func(_ context.Context, sql string, maxRows int) ([][]any, bool, error) {
		sqls = append(sqls, sql)
		var limit, off int
		fmt.Sscanf(sql[strings.Index(sql, "LIMIT"):], "LIMIT %d OFFSET %d", &limit, &off)
		var rows [][]any
		for i := off; i < len(all) && i < off+limit; i++ {
			rows = append(rows, []any{all[i]})
		}
		if len(rows) > 3 {
			return rows[:3], true, nil
		}
		return rows, false, nil
	}
	got, err := FromQuery(q).DistinctValues(context.Background(), "main", `we"ird`, "col", 100)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "d", "e", "f", "g"}; !reflect.DeepEqual(got, want) {
		t.Errorf("values = %v, want %v", got, want)
	}
	if !strings.HasPrefix(sqls[0], `SELECT DISTINCT "col" FROM "main"."we""ird" WHERE "col" IS NOT NULL ORDER BY 1 LIMIT 100 OFFSET 0`) {
		t.Errorf("sql = %s", sqls[0])
	}
	if len(sqls) != 3 {
		t.Errorf("%d queries, want 3 (pages of the cap, then a short one)", len(sqls))
	}
	// The limit holds.
	got, _ = FromQuery(q).DistinctValues(context.Background(), "", "t", "c", 2)
	if len(got) != 2 {
		t.Errorf("limit 2 gave %v", got)
	}
}
