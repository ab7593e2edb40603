package schemactx

import (
	"fmt"
	"strings"
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
		// staff accounts are a business's own records beside its customers
		{"account_type", []any{"demo", "patient", "staff", "test"}, []any{"demo", "staff", "test"}},
		{"user_kind", []any{"Employee", "customer"}, "Employee"},
		{"staff_pick", []any{int64(0), int64(1)}, nil},             // a flag of a real record
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

// A planner counted a clinic's sessions by UTC hours though a column
// held each clinic's zone: the context marks a column of IANA zone names
// (decided by its values: mostly names with a '/' the tz database knows)
// and says instants read in UTC. A column named timezone of offsets or
// abbreviations, and a column of countries the tz database also names
// ('Japan', 'Poland'), are no zone column.
func TestZoneColumnIsNoted(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []any
		want   bool
	}{
		{"timezone", []any{"Europe/Amsterdam", "Europe/London", "Mars/Olympus"}, true},
		{"tz", []any{"America/New_York"}, true},
		{"timezone", []any{"+01:00", "-05:00"}, false},
		{"timezone", []any{"CET", "EST"}, false},
		{"country", []any{"Japan", "Poland"}, false},
		{"path", []any{"a/b", "c/d", "Europe/London"}, false},
	} {
		col := schema.Column{Name: c.name, Type: "text", Profile: &schema.ColumnProfile{SampleValues: c.values, AllValues: true}}
		if got := ZoneColumn(&col); got != c.want {
			t.Errorf("%s %v: ZoneColumn %v, want %v", c.name, c.values, got, c.want)
		}
		for _, d := range []string{schema.DialectPostgres, schema.DialectSQLite} {
			ctx := SchemaContext(&schema.Snapshot{Dialect: d, Tables: []schema.Table{{Name: "sites", Columns: []schema.Column{col}}}})
			if strings.Contains(ctx, "IANA time zones: instants read in UTC") != c.want {
				t.Errorf("%s %v on %s: context\n%s", c.name, c.values, d, ctx)
			}
		}
	}
}

// The rules a test flag's note adds to the flag: an email domain, or a
// column's text ending in, starting with or holding a value, on the
// column the sentence names (one alone), read as LIKE patterns in any
// case with the wildcards of the value escaped; a sentence that adds
// test records in words no rule reads is unread; a sentence that adds
// nothing, or names no kind of record, is neither.
func TestTestNoteRules(t *testing.T) {
	text := func(names ...string) schema.Table {
		tb := schema.Table{Name: "customers"}
		for _, n := range names {
			tb.Columns = append(tb.Columns, schema.Column{Name: n, Type: "text"})
		}
		return tb
	}
	customers := text("full_name", "email", "username")
	split := text("first_name", "last_name", "email")
	for _, c := range []struct {
		table       schema.Table
		note, rules string
		unread      int
	}{
		{customers, "Flag set by QA. Note that the flag was only introduced in 2026: accounts whose email ends in @example.com are also test accounts even when is_test is false.", `[{email %@example.com ends in "@example.com"}]`, 0},
		{customers, "Accounts with an @Example.com email are test accounts too.", `[{email %@example.com ends in "@Example.com"}]`, 0},
		{customers, "Emails ending with '.invalid' are QA accounts as well", `[{email %.invalid ends in ".invalid"}]`, 0},
		{customers, "Customers whose names start with 'Test' are QA accounts as well.", `[{full_name test% starts with "Test"}]`, 0},
		{customers, `Usernames containing "_qa_" are test accounts too.`, `[{username %\_qa\_% holds "_qa_"}]`, 0},
		// names: first or last, no rule says which
		{split, "Names starting with 'test' are test accounts too.", "[]", 1},
		{customers, "Accounts opened before 2020 are also test accounts; partner accounts are internal too.", "[]", 2},
		{customers, "Flag set by QA for demo accounts. Also read by the billing export.", "[]", 0},
		{customers, "", "[]", 0},
	} {
		col := schema.Column{Name: "is_test", Comment: c.note}
		rules, unread := TestNoteRules(&c.table, &col)
		if fmt.Sprint(rules) != c.rules || len(unread) != c.unread {
			t.Errorf("%q: rules %v unread %q, want %s and %d unread", c.note, rules, unread, c.rules, c.unread)
		}
	}
	for note, want := range map[string]string{
		"true for our Partners' and resellers' accounts and for staff": "[partner reseller]",
		"never counted in a report the finance team or investors see":  "[]",
	} {
		if got := fmt.Sprint(NoteKinds(&schema.Column{Comment: note})); got != want {
			t.Errorf("%q: kinds %s, want %s", note, got, want)
		}
	}
}
