package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

func warningWith(ws []string, sub string) string {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return w
		}
	}
	return ""
}

// A host whose LIKE '%ac/dc%' returns no rows reads "no such artist"
// unless the result says the match was case-sensitive and names
// case_insensitive; the same plan pasted into a plain sqlite3 returns the
// artist, so the SQLite result also says which pragma ran, as a note on
// the SQL rather than a warning (and not for a pattern without a letter,
// which case cannot change: noise teaches a host to skip warnings). A pattern that matches, or
// one asked case-insensitively, gets no case warning.
func TestEmptyCaseSensitiveMatchNamesCaseInsensitive(t *testing.T) {
	e := chinookEngine(t, "")
	plan := func(where string) []byte {
		return []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"},"alias":"name"}],"from":[{"table":"Artist","alias":"a"}],"where":` + where + `}`)
	}
	like := func(p, ci string) string {
		return `{"kind":"like","expr":{"kind":"column","table":"a","column":"Name"},"pattern":{"kind":"literal","value":"` + p + `"}` + ci + `}`
	}
	for _, c := range []struct {
		name, where string
		rows        int
		caseWarn    bool
		pragma      bool
	}{
		{"like, wrong case", like("%ac/dc%", ""), 0, true, true},
		{"like, right case", like("%AC/DC%", ""), 1, false, true},
		{"like, case-insensitive", like("%ac/dc%", `,"case_insensitive":true`), 1, false, false},
		// no letter in the pattern: case cannot change what it matches
		{"like, no letters", like("%/%", ""), 3, false, false},
		{"equality, wrong case", `{"kind":"binary","op":"=","left":{"kind":"column","table":"a","column":"Name"},"right":{"kind":"literal","value":"ac/dc"}}`, 0, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.RunPlan(context.Background(), "chinook", plan(c.where))
			if err != nil {
				t.Fatal(err)
			}
			if res.RowCount != c.rows {
				t.Fatalf("rows %d, want %d", res.RowCount, c.rows)
			}
			w := warningWith(res.Warnings, "compares case-sensitively")
			if c.caseWarn != (w != "" && strings.Contains(w, `"Name"`) && strings.Contains(w, "case_insensitive")) {
				t.Errorf("warnings %q: want a case warning naming Name and case_insensitive: %v", res.Warnings, c.caseWarn)
			}
			if c.pragma != (warningWith(res.SQLNotes, "PRAGMA case_sensitive_like = ON") != "") {
				t.Errorf("SQL notes %q: want the pragma said: %v", res.SQLNotes, c.pragma)
			}
			// how the SQL runs elsewhere is no warning about the result
			if w := warningWith(res.Warnings, "PRAGMA"); w != "" {
				t.Errorf("a note on the SQL among the warnings: %q", w)
			}
		})
	}
}

// NOT IN and != are never true on NULL: a host filtering out one company
// loses every customer without a company, silently, unless the result
// names the column and its NULL share and the IS NULL way to keep them. A
// plan that tests the column for NULL itself is not told again (a host
// told what it wrote learns to skip warnings).
func TestNegatedFilterOnNullableColumnWarns(t *testing.T) {
	e := chinookEngine(t, "")
	for _, c := range []struct {
		name, where string
		warn        bool
	}{
		{"not in", `{"kind":"in","negated":true,"expr":{"kind":"column","table":"c","column":"Company"},"list":[{"kind":"literal","value":"Apple Inc."}]}`, true},
		{"unequal", `{"kind":"binary","op":"!=","left":{"kind":"column","table":"c","column":"Company"},"right":{"kind":"literal","value":"Apple Inc."}}`, true},
		{"not null column", `{"kind":"binary","op":"!=","left":{"kind":"column","table":"c","column":"Country"},"right":{"kind":"literal","value":"USA"}}`, false},
		// the spelling warnings advise LOWER(TRIM(x)), which is NULL where x is
		{"unequal after folding", `{"kind":"binary","op":"!=","left":{"kind":"func","name":"LOWER","args":[{"kind":"func","name":"TRIM","args":[{"kind":"column","table":"c","column":"Company"}]}]},"right":{"kind":"literal","value":"apple inc."}}`, true},
		{"not in after folding", `{"kind":"in","negated":true,"expr":{"kind":"func","name":"UPPER","args":[{"kind":"column","table":"c","column":"Company"}]},"list":[{"kind":"literal","value":"APPLE INC."}]}`, true},
		{"a NULL made a value", `{"kind":"binary","op":"!=","left":{"kind":"func","name":"COALESCE","args":[{"kind":"column","table":"c","column":"Company"},{"kind":"literal","value":""}]},"right":{"kind":"literal","value":"Apple Inc."}}`, false},
		// the plan tests the NULLs itself: it has said what they do
		{"NULLs excluded as well", `{"kind":"binary","op":"and","left":{"kind":"is_null","negated":true,"expr":{"kind":"column","table":"c","column":"Company"}},"right":{"kind":"binary","op":"!=","left":{"kind":"column","table":"c","column":"Company"},"right":{"kind":"literal","value":"Apple Inc."}}}`, false},
		{"NULLs kept", `{"kind":"binary","op":"or","left":{"kind":"is_null","expr":{"kind":"column","table":"c","column":"Company"}},"right":{"kind":"in","negated":true,"expr":{"kind":"column","table":"c","column":"Company"},"list":[{"kind":"literal","value":"Apple Inc."}]}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.RunPlan(context.Background(), "chinook", []byte(`{"select":[{"expr":{"kind":"column","table":"c","column":"CustomerId"},"alias":"id"}],"from":[{"table":"Customer","alias":"c"}],"where":`+c.where+`}`))
			if err != nil {
				t.Fatal(err)
			}
			w := warningWith(res.Warnings, "is NULL (")
			if c.warn != (w != "" && strings.Contains(w, `"Company"`) && strings.Contains(w, "%") && strings.Contains(w, "is_null")) {
				t.Errorf("warnings %q: want a NULL warning naming Company, its share and is_null: %v", res.Warnings, c.warn)
			}
		})
	}
}

// A standard deviation on SQLite runs through the aggregates the adapter
// registers: the result is the exact spread, and the host is told that the
// shown SQL needs them (a plain sqlite3 fails on it).
func TestStddevRunsOnSQLiteAndSaysSo(t *testing.T) {
	e := chinookEngine(t, "")
	res, err := e.RunPlan(context.Background(), "chinook", []byte(`{"select":[{"expr":{"kind":"func","name":"STDDEV","args":[{"kind":"column","table":"i","column":"Total"}]},"alias":"sd"},{"expr":{"kind":"func","name":"VAR_POP","args":[{"kind":"column","table":"i","column":"InvoiceId"}]},"alias":"vp"}],"from":[{"table":"Invoice","alias":"i"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.RowCount != 1 {
		t.Fatalf("rows %d", res.RowCount)
	}
	if !strings.Contains(res.SQL, "STDDEV_SAMP(") || warningWith(res.SQLNotes, "plain sqlite3 shell lacks it") == "" {
		t.Errorf("SQL %s, notes %q: want STDDEV_SAMP and the note that sqlite3 lacks it", res.SQL, res.SQLNotes)
	}
	// Chinook's 412 invoice ids are 1..412: the population variance is (412²−1)/12
	if got := fmt.Sprint(res.Rows[0][1]); got != fmt.Sprint((412.0*412-1)/12) {
		t.Errorf("VAR_POP(InvoiceId) = %s, want %v", got, (412.0*412-1)/12)
	}
}

// A user searching Chinook (SQLite) case-insensitively for a name written
// with letters beyond A-Z in other case finds it through the whole
// pipeline, and is told the shown SQL needs the server's functions.
func TestCaseInsensitiveSearchFoldsEveryLetterOnSQLite(t *testing.T) {
	e := chinookEngine(t, "")
	res, err := e.RunPlan(context.Background(), "chinook", []byte(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"},"alias":"name"}],"from":[{"table":"Artist","alias":"a"}],"where":{"kind":"like","expr":{"kind":"column","table":"a","column":"Name"},"pattern":{"kind":"literal","value":"%ANTÔNIO CARLOS%"},"case_insensitive":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.RowCount != 1 || fmt.Sprint(res.Rows[0][0]) != "Antônio Carlos Jobim" {
		t.Errorf("case-insensitive search for %q found %v, want Antônio Carlos Jobim", "%ANTÔNIO CARLOS%", res.Rows)
	}
	if warningWith(res.SQLNotes, "unicode_lower") == "" || warningWith(res.Warnings, "unicode_lower") != "" {
		t.Errorf("warnings %q, notes %q: want the note (not a warning) that the SQL calls the server's unicode_lower", res.Warnings, res.SQLNotes)
	}
}

// The threat: category LIKE 'plumb%' over a column that stores
// 'plumbing' and 'Plumbing' counts 5 tickets of 6, a figure that looks
// right, where the filters' case warning speaks only when nothing
// matched. The result names the stored spellings the pattern misses for
// their case alone and case_insensitive; a pattern that misses nothing
// that way, or one asked case-insensitively, is not said of.
func TestCaseSensitiveLikeMissingStoredSpellingsIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE tickets (id INTEGER PRIMARY KEY, category TEXT)",
		"INSERT INTO tickets VALUES (1, 'plumbing'), (2, 'Plumbing'), (3, 'plumbing'), (4, 'Electrical'), (5, 'plumbing leak'), (6, 'electrical')")
	e := specEngine(t, DatasourceSpec{ID: "m", Engine: "sqlite", Path: db, RowLimit: 1000})
	for _, c := range []struct {
		pattern, more string
		rows          int
		want          string
	}{
		{"plumb%", "", 3, `"category" LIKE "plumb%" compares case-sensitively (on every engine), and the column also stores "Plumbing", which the pattern matches only once letter case is ignored: their rows are left out; set "case_insensitive": true`},
		{"plumb%", `, "negated": true`, 3, `"category" NOT LIKE "plumb%" compares case-sensitively (on every engine), and the column also stores "Plumbing", which the pattern matches only once letter case is ignored: their rows are kept`},
		{"%leak", "", 1, ""},
		{"plumb%", `, "case_insensitive": true`, 4, ""},
	} {
		plan := `{"select": [{"expr": {"kind": "column", "table": "t", "column": "id"}, "alias": "id"}], "from": [{"table": "tickets", "alias": "t"}], "where": {"kind": "like", "expr": {"kind": "column", "table": "t", "column": "category"}, "pattern": {"kind": "literal", "value": "` + c.pattern + `"}` + c.more + `}}`
		res, err := e.RunPlan(context.Background(), "m", []byte(plan))
		if err != nil {
			t.Fatal(err)
		}
		if res.RowCount != c.rows {
			t.Errorf("%s%s: %d rows, want %d", c.pattern, c.more, res.RowCount, c.rows)
		}
		w := warningWith(res.Warnings, "only once letter case is ignored")
		if c.want == "" && w != "" || !strings.HasPrefix(w, c.want) {
			t.Errorf("%s%s: warnings %q\nwant one starting %q", c.pattern, c.more, res.Warnings, c.want)
		}
	}
}

// The threat: POSITION written in SQL's order, POSITION('/', invoice_date),
// looks for the date inside "/" (the plan language takes the text first,
// as strpos does) and is 0 on every row: "no date has a slash", of 8,848
// dates a third of which had one, with no word. The result says which
// order POSITION read; a POSITION with the column first is not said of.
func TestPositionWithALiteralToSearchIsNamed(t *testing.T) {
	db := sourcetest.TempDB(t, "CREATE TABLE inv (id INTEGER PRIMARY KEY, d TEXT)",
		"INSERT INTO inv VALUES (1, '2024-01-05'), (2, '27/02/2024')")
	e := specEngine(t, DatasourceSpec{ID: "m", Engine: "sqlite", Path: db, RowLimit: 1000})
	pos := func(a, b string) string {
		return `{"select": [{"expr": {"kind": "func", "name": "SUM", "args": [{"kind": "case", "whens": [{"when": {"kind": "binary", "op": ">", "left": {"kind": "func", "name": "POSITION", "args": [` + a + `, ` + b + `]}, "right": {"kind": "literal", "value": 0}}, "then": {"kind": "literal", "value": 1}}], "else": {"kind": "literal", "value": 0}}]}, "alias": "n"}], "from": [{"table": "inv", "alias": "i"}]}`
	}
	col, slash := `{"kind": "column", "table": "i", "column": "d"}`, `{"kind": "literal", "value": "/"}`
	for _, c := range []struct {
		plan, rows string
		warned     bool
	}{
		{pos(slash, col), "[[0]]", true},
		{pos(col, slash), "[[1]]", false},
	} {
		res, err := e.RunPlan(context.Background(), "m", []byte(c.plan))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Rows); got != c.rows {
			t.Errorf("rows %s, want %s", got, c.rows)
		}
		w := warningWith(res.Warnings, "POSITION(text, sub) finds its second argument inside its first")
		if (w != "") != c.warned || c.warned && !strings.Contains(w, `to find "/" inside the other argument, swap them`) {
			t.Errorf("warnings %q: want the order said: %v", res.Warnings, c.warned)
		}
	}
}
