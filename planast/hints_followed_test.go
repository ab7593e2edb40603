package planast_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// events has what loaders leave: Unix seconds in an integer column, a
// DATETIME column, a date column.
var events = memCatalog{table("", "events", []string{"id integer", "created_at integer", "happened_at timestamp", "day date"})}

// pastedJSON is the first plan expression a hint spells as JSON to paste.
func pastedJSON(t *testing.T, hint string) string {
	t.Helper()
	i := strings.Index(hint, `{"kind":`)
	if i < 0 {
		t.Fatalf("hint %q gives no expression to paste", hint)
	}
	var raw json.RawMessage
	if err := json.NewDecoder(strings.NewReader(hint[i:])).Decode(&raw); err != nil {
		t.Fatalf("hint %q: %v", hint, err)
	}
	return string(raw)
}

// A refusal's hint is what the planner writes next: one that names a cast
// or a rewrite the validator refuses in turn (FROM_EPOCH_SECONDS of a
// timestamp "cast it to decimal", a Unix-time column compared with
// '2024-06-01' "cast the text to integer", DATE_PART of Unix seconds "cast
// it to date") sent a planner round twice before it gave up. Each hint
// here is pasted where the refusal points, and the plan must then
// validate.
func TestHintsLeadToAValidPlan(t *testing.T) {
	ev := frm(from("events", "e"))
	unit := func(u string) string { return `{"kind":"literal","value":"` + u + `"}` }
	date := `"2024-06-01"`
	for _, tc := range []struct {
		name, plan string
		fixed      func(paste string) string
		dead       string // the dead end the hint gave before
	}{
		{"FROM_EPOCH_SECONDS of a timestamp", plan(sel(item(fn("FROM_EPOCH_SECONDS", c("e", "happened_at")), "x")), ev),
			func(p string) string { return plan(sel(item(p, "x")), ev) }, `"type": "decimal"`},
		{"FROM_EPOCH_SECONDS of a date", plan(sel(item(fn("FROM_EPOCH_SECONDS", c("e", "day")), "x")), ev),
			func(p string) string { return plan(sel(item(p, "x")), ev) }, `"type": "decimal"`},
		{"Unix seconds >= a date written as text", plan(sel(item(fn("COUNT"), "n")), ev, where(bin(">=", c("e", "created_at"), lit(date)))),
			func(p string) string { return plan(sel(item(fn("COUNT"), "n")), ev, where(p)) }, `"type":"integer"`},
		{"a date written as text < Unix seconds", plan(sel(item(fn("COUNT"), "n")), ev, where(bin("<", lit(date), c("e", "created_at")))),
			func(p string) string { return plan(sel(item(fn("COUNT"), "n")), ev, where(p)) }, `"type":"integer"`},
		{"DATE_PART of Unix seconds", plan(sel(item(fn("DATE_PART", unit("year"), c("e", "created_at")), "y")), ev),
			func(p string) string { return plan(sel(item(fn("DATE_PART", unit("year"), p), "y")), ev) }, `"type": "date"`},
		{"DATE_TRUNC of Unix seconds", plan(sel(item(fn("DATE_TRUNC", unit("month"), c("e", "created_at")), "m")), ev),
			func(p string) string { return plan(sel(item(fn("DATE_TRUNC", unit("month"), p), "m")), ev) }, `"type": "date"`},
		{"PERIOD_LABEL of Unix seconds", plan(sel(item(fn("PERIOD_LABEL", unit("month"), c("e", "created_at")), "m")), ev),
			func(p string) string { return plan(sel(item(fn("PERIOD_LABEL", unit("month"), p), "m")), ev) }, `"type": "date"`},
		{"DATE_ADD with its amount first", plan(sel(item(fn("DATE_ADD", lit("2"), unit("day"), c("e", "happened_at")), "d")), ev),
			func(p string) string { return plan(sel(item(p, "d")), ev) }, `"type": "integer"`},
		{"DATE_PART with its unit last", plan(sel(item(fn("DATE_PART", c("e", "happened_at"), unit("year")), "y")), ev),
			func(p string) string { return plan(sel(item(p, "y")), ev) }, "cast"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := firstIssue(t, tc.plan, events, validate.Options{})
			if strings.Contains(is.Hint, tc.dead) || strings.Contains(is.Message, "cast it first") {
				t.Errorf("issue %+v still points at the refused %s", is, tc.dead)
			}
			fixed := tc.fixed(pastedJSON(t, is.Hint))
			if _, err := validate.Plan(decode(t, fixed), events, validate.Options{}); err != nil {
				t.Errorf("hint %q followed: %s is refused: %v", is.Hint, fixed, err)
			}
		})
	}
}

// SUM of a timestamp has no cast that makes it a number on every engine;
// its hint named one (decimal) that is refused next.
func TestTimestampAsNumberNamesNoRefusedCast(t *testing.T) {
	is := firstIssue(t, plan(sel(item(fn("SUM", c("e", "happened_at")), "s")), frm(from("events", "e"))), events, validate.Options{})
	if strings.Contains(is.Hint, `"kind": "cast"`) || strings.Contains(is.Message, "cast it first") || !strings.Contains(is.Hint, "ELAPSED_SECONDS") {
		t.Errorf("issue %+v: suggests a cast, or not the span of time", is)
	}
	// a cast every engine makes is still suggested, once: the message
	// and the hint both saying "cast it first" read as a stutter
	is = firstIssue(t, plan(sel(item(fn("UPPER", c("e", "id")), "u")), frm(from("events", "e"))), events, validate.Options{})
	if !strings.Contains(is.Hint, `"type": "text"`) || strings.Count(is.Message+"; "+is.Hint, "cast it first") != 1 {
		t.Errorf("UPPER of an integer: %q (hint %q) names no cast to text, or names it twice", is.Message, is.Hint)
	}
}

// A unit misspelt ("mnth") was told the unit must be "a string literal",
// which it was, and nothing about the unit meant; the suggestion, written
// in, validates.
func TestUnitTypoSuggestsTheUnit(t *testing.T) {
	ev := frm(from("events", "e"))
	for _, tc := range []struct{ fn, typo, want string }{
		{"PERIOD_LABEL", "mnth", "month"},
		{"DATE_PART", "yaer", "year"},
		{"DATE_TRUNC", "weeks", "week"},
		{"DATE_ADD", "Days", "day"},
	} {
		args := []string{`{"kind":"literal","value":"` + tc.typo + `"}`, c("e", "happened_at")}
		if tc.fn == "DATE_ADD" {
			args = []string{args[0], lit("1"), args[1]}
		}
		is := firstIssue(t, plan(sel(item(fn(tc.fn, args...), "x")), ev), events, validate.Options{})
		if is.Code != planast.CodeBadValue || !strings.Contains(is.Message, `did you mean "`+tc.want+`"?`) || strings.Contains(is.Message, "string literal") {
			t.Errorf("%s(%q): %+v, want a suggestion of %q", tc.fn, tc.typo, is, tc.want)
			continue
		}
		args[0] = `{"kind":"literal","value":"` + tc.want + `"}`
		if _, err := validate.Plan(decode(t, plan(sel(item(fn(tc.fn, args...), "x")), ev)), events, validate.Options{}); err != nil {
			t.Errorf("%s with the suggested %q: %v", tc.fn, tc.want, err)
		}
	}
}

// Unix times in milliseconds or microseconds are the common exports; a
// planner reaching for FROM_EPOCH_MILLISECONDS was shown the whole
// function list. The advice names the division, and written out it
// validates.
func TestEpochFunctionNamesPointToFromEpochSeconds(t *testing.T) {
	ev := frm(from("events", "e"))
	for _, tc := range []struct{ name, want, fixed string }{
		{"FROM_EPOCH_MILLISECONDS", "FROM_EPOCH_SECONDS(x / 1000)", bin("/", c("e", "created_at"), lit("1000"))},
		{"epoch_ms", "FROM_EPOCH_SECONDS(x / 1000)", bin("/", c("e", "created_at"), lit("1000"))},
		{"TO_TIMESTAMP_MICROS", "FROM_EPOCH_SECONDS(x / 1000000)", bin("/", c("e", "created_at"), lit("1000000"))},
		{"FROM_UNIXTIME", "FROM_EPOCH_SECONDS(x)", c("e", "created_at")},
		{"TO_TIMESTAMP", "FROM_EPOCH_SECONDS(x)", c("e", "created_at")},
		{"FROM_EPOCH_SECOND", "did you mean FROM_EPOCH_SECONDS?", c("e", "created_at")},
	} {
		is := firstIssue(t, plan(sel(item(fn(tc.name, c("e", "created_at")), "t")), ev), events, validate.Options{})
		if is.Code != planast.CodeFunction || !strings.Contains(is.Message, tc.want) {
			t.Errorf("%s: %+v, want it to name %s", tc.name, is, tc.want)
		}
		if _, err := validate.Plan(decode(t, plan(sel(item(fn("FROM_EPOCH_SECONDS", tc.fixed), "t")), ev)), events, validate.Options{}); err != nil {
			t.Errorf("%s: the advice written out is refused: %v", tc.name, err)
		}
	}
}

// "takes 1 arguments": every arity refusal is built by one function, its
// noun agreeing with the count.
func TestTakesArgs(t *testing.T) {
	for _, tc := range []struct {
		min, max, got int
		want          string
	}{
		{1, 1, 2, "F takes 1 argument, got 2"},
		{2, 2, 1, "F takes 2 arguments, got 1"},
		{0, 1, 2, "F takes 0 or 1 argument, got 2"},
		{1, 2, 3, "F takes 1 or 2 arguments, got 3"},
		{2, 4, 1, "F takes 2 to 4 arguments, got 1"},
		{1, -1, 0, "F takes at least 1 argument, got 0"},
		{2, -1, 1, "F takes at least 2 arguments, got 1"},
	} {
		if got := planast.TakesArgs("F", tc.min, tc.max, tc.got); got != tc.want {
			t.Errorf("TakesArgs(%d, %d, %d) = %q, want %q", tc.min, tc.max, tc.got, got, tc.want)
		}
	}
	is := firstIssue(t, plan(sel(item(fn("FROM_EPOCH_SECONDS", c("e", "created_at"), lit("2")), "t")), frm(from("events", "e"))), events, validate.Options{})
	if is.Message != "FROM_EPOCH_SECONDS takes 1 argument, got 2" {
		t.Errorf("arity refusal %q", is.Message)
	}
}
