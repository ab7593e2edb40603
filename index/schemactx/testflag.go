package schemactx

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// testWords are the words a flag column's name uses for records that are
// not real business: test accounts, demo data, internal orders.
var testWords = []string{"test", "testing", "demo", "dummy", "internal", "sandbox", "fake", "qa"}

// TestFlag reports whether c is a yes/no flag named for test or
// internal records (is_test_account, isDemo, internal_order) and its
// profile saw some record marked: business figures usually leave such
// records out, and nothing else in a schema says so. marked is the value
// that marks them as the column stores it (1, true, 'Y'); unmarked the
// other one, when the profile saw it.
func TestFlag(c *schema.Column) (marked, unmarked any, ok bool) {
	// the values first: most columns are no flag, and splitting a name
	// into words costs more than looking at two values (this runs for
	// every column a plan's tables reach, on every call)
	if c.Profile == nil || !c.Profile.AllValues || len(c.Profile.SampleValues) > 3 {
		return nil, nil, false
	}
	for _, v := range c.Profile.SampleValues {
		switch yes, known := flagValue(v); {
		case !known:
			return nil, nil, false
		case yes:
			marked = v
		default:
			unmarked = v
		}
	}
	if marked == nil || !slices.ContainsFunc(lex.SplitWords(c.Name), func(w string) bool { return slices.Contains(testWords, w) }) {
		return nil, nil, false
	}
	return marked, unmarked, true
}

// flagValue reads v as a yes/no flag: yes, and whether it is one at all.
func flagValue(v any) (yes, known bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case int64, float64, int:
		n := fmt.Sprint(x) // an int64 as profiled, a float64 as stored JSON reads back
		return n == "1", n == "0" || n == "1"
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "1", "y", "yes", "t", "true":
			return true, true
		case "0", "n", "no", "f", "false", "":
			return false, true
		}
	}
	return false, false
}

// TestFlagNote is what a schema says of such a column, for a planner.
func TestFlagNote(marked any) string {
	v, _ := planast.JSON(marked)
	return fmt.Sprintf("marks test or internal records with %s: business figures usually leave them out", v)
}
