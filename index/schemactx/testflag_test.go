package schemactx

import (
	"fmt"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// The rule that names a flag for test records: a yes/no column named for
// them, whose profile saw a record marked, or a category column whose
// few values name test records beside others. Names that only contain
// such a word ('contest', 'latest'), columns of other values, flags that
// mark nothing and columns not named for a kind of record are not named.
func TestTestFlag(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []any
		want   any
	}{
		{"is_test_account", []any{int64(0), int64(1)}, int64(1)},
		{"isDemo", []any{false, true}, true},
		{"internal_order", []any{"N", "Y"}, "Y"},
		{"QA_FLAG", []any{float64(0), float64(1)}, float64(1)},
		{"is_test", []any{int64(0)}, nil},                 // no record marked
		{"contest_entry", []any{int64(0), int64(1)}, nil}, // not the word
		{"latest", []any{int64(0), int64(1)}, nil},
		{"test_score", []any{int64(3), int64(7)}, nil}, // no flag
		{"internal_notes", []any{"seed", "vip"}, nil},
		// several spellings: each that marks a record
		{"is_test", []any{"", "0", "1", "N", "Y", "false", "no", "true", "yes"}, []any{"1", "Y", "true", "yes"}},
		{"is_test", []any{"N", "Y", "maybe"}, nil},
		// a category column whose values name test records beside others
		{"account_type", []any{"customer", "demo", "internal", "test"}, []any{"demo", "internal", "test"}},
		{"environment", []any{"prod", "Test "}, "Test "},
		{"account_type", []any{"customer", "partner"}, nil},        // no test value
		{"account_type", []any{"demo", "test"}, nil},               // nothing else
		{"visibility", []any{"public", "internal"}, nil},           // not a kind of record by its name
		{"segment", []any{"SMB", "Enterprise", "Mid-Market"}, nil}, // kinds, none a test
	} {
		col := schema.Column{Name: c.name, Profile: &schema.ColumnProfile{SampleValues: c.values, AllValues: true}}
		marked, _, ok := TestFlag(&col)
		if ok != (c.want != nil) || fmt.Sprint(marked) != fmt.Sprint(c.want) {
			t.Errorf("%s %v: marked %v ok %v, want %v", c.name, c.values, marked, ok, c.want)
		}
	}
}
