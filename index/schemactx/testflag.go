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
//
// A category column does the same with its values: an account_type or
// environment whose complete values are a few, some of them test words
// or internal kinds ('test', 'internal', 'demo', 'staff' beside
// 'customer'); marked is then those values (one, or a list), unmarked
// the others.
func TestFlag(c *schema.Column) (marked, unmarked any, ok bool) {
	// the values first: most columns are no flag, and splitting a name
	// into words costs more than looking at two values (this runs for
	// every column a plan's tables reach, on every call)
	marked, unmarked, ok = yesNo(c.Profile)
	if ok && named(c.Name, testWords) {
		return marked, unmarked, true
	}
	return testCategory(c)
}

// internalKinds are the values a category column of records
// (account_type, user_kind) uses for a business's own people beside test
// words: a staff or employee account is an internal record of a table of
// customers, as a test or demo one is, and a figure of customers that
// counts them is off by them. They mark records as values of a kind
// only: a yes/no flag named for them (staff_pick, employee_discount)
// marks something of a real record, not the record as internal.
var internalKinds = []string{"staff", "employee", "employees"}

// categoryWords are the words a column's name uses for a kind of record.
var categoryWords = []string{"type", "kind", "category", "class", "env", "environment", "mode", "source", "origin", "segment", "tier"}

// maxCategoryValues bounds the values of a category column testCategory
// reads: a handful of kinds, not a column of names.
const maxCategoryValues = 12

// testCategory is TestFlag of a category column: its profile knows all
// its values, a few, at least one of them a test word or an internal
// kind (internalKinds) and one not, and
// its name says it holds a kind of record.
func testCategory(c *schema.Column) (marked, unmarked any, ok bool) {
	p := c.Profile
	if p == nil || !p.AllValues || len(p.SampleValues) < 2 || len(p.SampleValues) > maxCategoryValues {
		return nil, nil, false
	}
	var test, other []any
	for _, v := range p.SampleValues {
		s, isText := v.(string)
		if !isText {
			return nil, nil, false
		}
		if w := strings.ToLower(strings.TrimSpace(s)); slices.Contains(testWords, w) || slices.Contains(internalKinds, w) {
			test = append(test, v)
		} else {
			other = append(other, v)
		}
	}
	if len(test) == 0 || len(other) == 0 || !named(c.Name, categoryWords) {
		return nil, nil, false
	}
	one := func(vs []any) any {
		if len(vs) == 1 {
			return vs[0]
		}
		return vs
	}
	return one(test), one(other), true
}

// yesNo reads a column's profile as a yes/no flag's: the value that marks
// a row (1, true, 'Y') and the other one, when the profile saw it; ok is
// false when the profile lists other values or saw no row marked. A
// column typed by several systems writes its flag several ways ('Y',
// 'yes', '1', 'true' beside 'N', 'no', '0', blank): marked and unmarked are
// then the lists ([]any) of each kind's spellings, so that a filter
// leaves out every spelling of a marked row, not one of them.
func yesNo(p *schema.ColumnProfile) (marked, unmarked any, ok bool) {
	if p == nil || !p.AllValues || len(p.SampleValues) > maxFlagSpellings {
		return nil, nil, false
	}
	var yes, no []any
	for _, v := range p.SampleValues {
		switch y, known := flagValue(v); {
		case !known:
			return nil, nil, false
		case y:
			yes = append(yes, v)
		default:
			no = append(no, v)
		}
	}
	one := func(vs []any) any {
		switch len(vs) {
		case 0:
			return nil
		case 1:
			return vs[0]
		}
		return vs
	}
	return one(yes), one(no), len(yes) > 0
}

// maxFlagSpellings bounds the values a yes/no flag may write: the
// spellings flagValue knows, each in a few letter cases.
const maxFlagSpellings = 16

// named reports whether a word of name is one of words.
func named(name string, words []string) bool {
	return slices.ContainsFunc(lex.SplitWords(name), func(w string) bool { return slices.Contains(words, w) })
}

// deletedWords are the words a column's name uses for rows deleted in
// place and kept in the table (soft deletes): deleted_at, is_deleted,
// voided_on, removed.
var deletedWords = []string{"deleted", "removed", "voided", "void", "trashed"}

// DeletedMark reports whether c marks rows deleted in place and its
// profile saw a row marked: a date or timestamp set when the row was
// deleted (deleted_at; marked is nil: the rows holding a value are the
// deleted ones), or a yes/no flag (is_deleted; marked is the value that
// marks them, unmarked the other, when seen). A list, a count or a sum of
// the table takes those rows unless a filter leaves them out, and nothing
// but the column's name says so.
func DeletedMark(c *schema.Column) (marked, unmarked any, ok bool) {
	p := c.Profile
	if marked, ok := deletedStatus(c); ok {
		return marked, nil, true
	}
	// this runs for every column of every table a plan reads: a look at
	// the name's letters first (most columns are none), then the values,
	// then its words
	if p == nil || !mayNameDeletion(c.Name) {
		return nil, nil, false
	}
	if marked, unmarked, ok = yesNo(p); !ok && !holdsTimes(c) {
		return nil, nil, false
	}
	if !named(c.Name, deletedWords) {
		return nil, nil, false
	}
	// "removed" names an event of the thing as often as a deletion of
	// the row (a meter removed from its premises: removed_on beside
	// installed_on): a date alone is that event; a flag, or a time of
	// day, is the deletion
	if !ok && !named(c.Name, deletionOnlyWords) && !holdsTimeOfDay(c) {
		return nil, nil, false
	}
	return marked, unmarked, true
}

// deletionOnlyWords are the words of deletedWords that name nothing but a
// deletion.
var deletionOnlyWords = []string{"deleted", "voided", "void", "trashed"}

// deletedStatus is the value (or values, in several spellings) of a text
// column of few values, all known, that marks rows deleted in place: an
// invoice's status 'void' beside 'paid' and 'issued', a record's state
// 'deleted'. A sum of every invoice counted the voided ones, which were
// issued again corrected, twice, and only the values said so. ok is false
// when no value is such a word, or every value is.
func deletedStatus(c *schema.Column) (marked any, ok bool) {
	p := c.Profile
	if c.Type != planast.TypeText || p == nil || !p.AllValues || len(p.SampleValues) > maxFlagSpellings {
		return nil, false
	}
	var m []any
	for _, v := range p.SampleValues {
		if s, isText := v.(string); isText && slices.Contains(deletionOnlyWords, strings.ToLower(strings.TrimSpace(s))) {
			m = append(m, v)
		}
	}
	switch {
	case len(m) == 0 || len(m) == len(p.SampleValues):
		return nil, false
	case len(m) == 1:
		return m[0], true
	}
	return m, true
}

// holdsTimeOfDay reports whether c holds timestamps, not dates alone: a
// timestamp column, or a text column whose samples have a time after the
// date.
func holdsTimeOfDay(c *schema.Column) bool {
	if c.Type == planast.TypeTimestamp {
		return true
	}
	if c.Type != planast.TypeText {
		return false
	}
	return slices.ContainsFunc(c.Profile.SampleValues, func(v any) bool {
		s, ok := v.(string)
		return ok && len(strings.TrimSpace(s)) > len("2006-01-02") && planast.TextHolds(s, planast.CastTimestamp)
	})
}

// mayNameDeletion reports whether name holds the letters of a word of
// deletedWords, any case: a test that allocates nothing, before the
// words are split.
func mayNameDeletion(name string) bool {
	for i := 0; i+4 <= len(name); i++ {
		for _, w := range [...]string{"dele", "remo", "void", "tras"} {
			if strings.EqualFold(name[i:i+4], w) {
				return true
			}
		}
	}
	return false
}

// holdsTimes reports whether c is a date or timestamp column, or a text
// column whose samples are dates or timestamps (SQLite's deleted_at
// TEXT), and some row holds one.
func holdsTimes(c *schema.Column) bool {
	if c.Type.IsTemporal() {
		return c.Profile.Min != nil
	}
	if c.Type != planast.TypeText {
		return false
	}
	for _, v := range c.Profile.SampleValues {
		if s, ok := v.(string); ok && planast.TextHolds(s, planast.CastTimestamp) {
			return true
		}
	}
	return false
}

// DeletedNote is what a schema says of such a column (DeletedMark's
// marked), for a planner: DeletedMarks, and what figures do with them.
func DeletedNote(c *schema.Column, marked any) string {
	return DeletedMarks(c, marked) + "; business figures usually leave them out"
}

// DeletedMarks says, after the column's name, which rows it marks
// deleted in place and how many: "marks the rows deleted in place, which
// stay in the table: 3% of rows hold a time in it" ("set on the rows
// deleted in place, 3% of them" read as a share of the deleted rows).
func DeletedMarks(c *schema.Column, marked any) string {
	if marked == nil {
		return fmt.Sprintf("marks the rows deleted in place, which stay in the table: %s of rows hold a time in it", NullShare(1-c.Profile.NullFraction))
	}
	v, _ := planast.JSON(marked)
	if _, status := deletedStatus(c); status {
		return fmt.Sprintf("holds %s for the rows voided or deleted in place, which stay in the table", v)
	}
	return fmt.Sprintf("marks with %s the rows deleted in place, which stay in the table", v)
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
	return TestFlagMarks(marked) + ": " + TestRecordsChoice
}

// TestRecordsChoice is what TestFlagNote says to do: internal records
// (a company's own sites, staff accounts) can be real business, so
// whether a figure counts them is the question's, not the server's.
const TestRecordsChoice = "whether a figure counts them is the question's choice (business figures often leave them out)"

// TestFlagMarks is what TestFlagNote says of the records marked.
func TestFlagMarks(marked any) string {
	v, _ := planast.JSON(marked)
	return "marks test or internal records with " + string(v)
}
