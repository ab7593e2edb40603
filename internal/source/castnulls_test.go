package source

import (
	"slices"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// A text column is profiled as dates (and a plan ordering or comparing it
// warned of) when its values are dates written for people; a value that
// merely holds a month's name or a slash is not one, or every column of
// names and ratings would be.
func TestDatesWrittenForPeople(t *testing.T) {
	for _, c := range []struct {
		s     string
		month bool // MonthNameDate
		like  bool // dateLike
	}{
		{"February27,2009", true, false},
		{"27 Feb 2025", true, false},
		{"Monday, March 3rd, 2025", true, false},
		{"Sept 5, 2024", true, false},
		{"5 of May 2024", true, false},
		{"May 2024", true, false},
		{"May Smith", false, false},
		{"March Hare 2024", false, false},
		{"April", false, false},
		{"Feb 30 31 2024", false, false},
		{"2024", false, false},
		{"05/01/2024", false, true},
		{"5.1.24", false, true},
		{"2024/05/01", false, true},
		{"2024/05-01", false, false},
		{"27-02-2025 08:15", false, true},
		{"1.5/4", false, false},
		{"3-1", false, false},
		{"12/5", false, false},
		{"2.1/5", false, false},
	} {
		if got := MonthNameDate(c.s); got != c.month {
			t.Errorf("MonthNameDate(%q) = %v, want %v", c.s, got, c.month)
		}
		if got := dateLike.MatchString(c.s); got != c.like {
			t.Errorf("dateLike(%q) = %v, want %v", c.s, got, c.like)
		}
	}
}

// A column whose every value is a date written day first or with the
// month's name, no ISO one among them, is counted as dates: cast to date,
// it is all NULL, which is when saying so matters most.
func TestColumnsOfPeoplesDatesAreCounted(t *testing.T) {
	for _, samples := range [][]any{
		{"05/01/2024", "17/02/2024", "28/03/2024"},
		{"February27,2009", "April10,2009"},
	} {
		c := &schema.Column{Name: "day", Type: planast.TypeText}
		if got := castTargets(c, &schema.ColumnProfile{SampleValues: samples}); !slices.Contains(got, planast.CastDate) {
			t.Errorf("samples %v: casts counted %v, want the cast to date", samples, got)
		}
	}
}

// A column of IP addresses or versions is no column of numbers: noted as
// "300 values are not numbers, read as NULL when cast", it cost a
// planner's context and suggested a cast nobody would write; numbers
// grouped by dots in threes still are numbers.
func TestAddressesAndVersionsAreNoNumbers(t *testing.T) {
	for _, c := range []struct {
		samples []any
		counted bool
	}{
		{[]any{"10.0.0.1", "192.168.1.20", "10.0.0.0"}, false},
		{[]any{"2.10.3", "1.0.0", "3.4.15"}, false},
		{[]any{"1.234.567", "12.345.678,90", "€1.234.500"}, true},
		{[]any{"$1,200.00", "85.5", "12.5%"}, true},
		{[]any{"0,125", "0,375", "0,875 €"}, true},
	} {
		c2 := &schema.Column{Name: "v", Type: planast.TypeText}
		got := castTargets(c2, &schema.ColumnProfile{SampleValues: c.samples})
		if counted := slices.Contains(got, planast.CastFloat); counted != c.counted {
			t.Errorf("samples %v: counted as numbers %v, want %v", c.samples, counted, c.counted)
		}
	}
}
