package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// spellingsDB holds orders whose placed_at writes ISO timestamps two
// ways, '2024-01-01 15:18:49' and '2024-01-03T01:34:09Z', as two loaders
// wrote them; shipped_at writes them one way; password_reset_at, a
// secret by its name, two ways.
var spellingsDB = []string{
	"CREATE TABLE orders (id INTEGER PRIMARY KEY, placed_at TEXT, shipped_at TEXT, password_reset_at TEXT)",
	"INSERT INTO orders VALUES (1, '2024-01-01 15:18:49', '2024-01-02 09:00:00', '2024-02-01 10:00:00')," +
		" (2, '2024-01-03T01:34:09Z', '2024-01-04 10:00:00', '2024-02-01T11:00:00')," +
		" (3, '2024-12-31T09:56:45Z', '2024-12-31 11:00:00', '2024-02-02 10:00:00')," +
		" (4, '2024-12-31 10:53:32', '2025-01-02 08:00:00', '2024-02-03 10:00:00')," +
		" (5, '2024-06-15 08:00:00', '2024-06-16 09:30:00', '2024-02-04 10:00:00')",
}

// The threat: the profile's range of a text column of timestamps written
// with 'T' and with a space is taken over the text, where 'T' sorts after
// ' ', so describe_schema and the planner's context say the latest order
// is '2024-12-31T09:56:45Z' when it is '2024-12-31 10:53:32', and nothing
// says the column writes two ways. The profile must count each spelling
// with its least value and give the true range, on every engine; a
// column of one spelling has no count; a secret column keeps its counts
// and loses its values.
func TestTimestampsWrittenTwoWaysAreProfiled(t *testing.T) {
	for _, en := range everyEngine(spellingsDB) {
		t.Run(en.name, func(t *testing.T) {
			snap := airSnapshot(t, specEngine(t, en.spec(t)))
			tb, _ := snap.Lookup("", "orders")
			for _, c := range []struct {
				col       string
				spellings string // "" for none
				min, max  string
			}{
				{"placed_at", "{T:2 TExample:2024-01-03T01:34:09Z Space:3 SpaceExample:2024-01-01 15:18:49}", "2024-01-01 15:18:49", "2024-12-31 10:53:32"},
				{"shipped_at", "", "2024-01-02 09:00:00", "2025-01-02 08:00:00"},
				{"password_reset_at", "{T:1 TExample:<nil> Space:4 SpaceExample:<nil>}", "<nil>", "<nil>"},
			} {
				col, _ := tb.Column(c.col)
				p := col.Profile
				if p == nil {
					t.Fatalf("%s: no profile", c.col)
				}
				got := ""
				if p.Spellings != nil {
					got = fmt.Sprintf("%+v", *p.Spellings)
				}
				if got != c.spellings {
					t.Errorf("%s: spellings %s, want %s", c.col, got, c.spellings)
				}
				if lo, hi := fmt.Sprint(p.Min), fmt.Sprint(p.Max); lo != c.min || hi != c.max {
					t.Errorf("%s: range [%s, %s], want [%s, %s]", c.col, lo, hi, c.min, c.max)
				}
			}
			// the planner's context shows that range
			ctx := schemactx.SchemaContext(&schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: []schema.Table{*tb}})
			if want := `placed_at text range ["2024-01-01 15:18:49","2024-12-31 10:53:32"]`; !strings.Contains(ctx, want) {
				t.Errorf("schema context %q: want %s", ctx, want)
			}
			// and that a text comparison of it misses rows, before any
			// plan is written
			if want := `written two ways`; !strings.Contains(ctx, want) || !strings.Contains(ctx, "CAST(x AS timestamp)") {
				t.Errorf("schema context %q: want the two spellings and the cast that compares them noted", ctx)
			}
		})
	}
}

// The threat: a plan (or SQL lifted into one) compares placed_at, which
// writes timestamps with 'T' and with a space, as text: "orders up to
// the end of 3 January" counts 1 where 2 is right ('2024-01-03T01:34:09Z'
// sorts after '2024-01-03 23:59:59'), MAX gives '2024-12-31T09:56:45Z'
// where '2024-12-31 10:53:32' is the latest, and the latest order listed
// first is the wrong one, all with no word. Each must be warned of, and
// the plan JSON the warning gives, pasted in place of the text
// expression, must validate and give the right answer, on every engine.
// A column of one spelling, a date compared with a date alone, and the
// column already read as timestamp must bring no such warning.
func TestTextOfTimestampsWrittenTwoWaysIsWarned(t *testing.T) {
	col := func(c string) string { return `{"kind":"column","table":"o","column":"` + c + `"}` }
	str := func(v string) string { return `{"kind":"literal","value":"` + v + `"}` }
	bin := func(op, l, r string) string {
		return `{"kind":"binary","op":"` + op + `","left":` + l + `,"right":` + r + `}`
	}
	count := `{"from":[{"table":"orders","alias":"o"}],"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"where":@}`
	extreme := `{"from":[{"table":"orders","alias":"o"}],"select":[{"expr":@,"alias":"latest"}]}`
	latest := `{"from":[{"table":"orders","alias":"o"}],"select":[{"expr":` + col("id") + `,"alias":"id"}],"order_by":[{"expr":@,"direction":"desc"}],"limit":1}`
	const two = "writes its timestamps two ways"
	cases := []struct {
		name, plan, text string // plan with @ where text goes
		rows             string // what the text gives
		said, fixAfter   string // the warning holds said, and its fix follows fixAfter ("" for no warning)
		fixed            string // what the fix gives
	}{
		{"up to a time", count, bin("<=", col("placed_at"), str("2024-01-03 23:59:59")), "[[1]]",
			`o.placed_at is compared as text with "2024-01-03 23:59:59", and "placed_at" writes its timestamps two ways (2 with 'T' before the time, such as "2024-01-03T01:34:09Z"; 3 with a space, such as "2024-01-01 15:18:49"), and text orders 'T' after ' '`,
			"with a timestamp literal: ", "[[2]]"},
		{"literal first", count, bin(">=", str("2024-01-03T23:59:59"), col("placed_at")), "[[2]]",
			"o.placed_at is compared as text with", "with a timestamp literal: ", "[[2]]"},
		// a literal in UTC with Z: a timestamp literal has no zone, so
		// the fix writes it without
		{"after a time in UTC", count, bin(">", col("placed_at"), str("2024-12-31T10:00:00Z")), "[[0]]",
			"o.placed_at is compared as text with", "with a timestamp literal: ", "[[1]]"},
		{"between", count, `{"kind":"between","expr":` + col("placed_at") + `,"low":` + str("2024-01-01 00:00:00") + `,"high":` + str("2024-01-03 23:59:59") + `}`, "[[1]]",
			"o.placed_at is compared as text with", "with a timestamp literal: ", "[[2]]"},
		{"equal", count, bin("=", col("placed_at"), str("2024-01-03 01:34:09")), "[[0]]",
			"never equals it", "with a timestamp literal: ", "[[1]]"},
		{"a day's like", count, `{"kind":"like","expr":` + col("placed_at") + `,"pattern":` + str("2024-01-03 %") + `}`, "[[0]]",
			"o.placed_at is compared as text with", "with a timestamp literal: ", "[[1]]"},
		{"max", extreme, `{"kind":"func","name":"MAX","args":[` + col("placed_at") + `]}`, "[[2024-12-31T09:56:45Z]]",
			"MAX(o.placed_at) compares text, and \"placed_at\" " + two, "of the column read as timestamp instead: ", "[[2024-12-31 10:53:32]]"},
		{"min", extreme, `{"kind":"func","name":"MIN","args":[` + col("placed_at") + `]}`, "[[2024-01-01 15:18:49]]",
			"MIN(o.placed_at) compares text", "of the column read as timestamp instead: ", "[[2024-01-01 15:18:49]]"},
		{"order", latest, col("placed_at"), "[[3]]",
			"order_by on o.placed_at orders its text, and \"placed_at\" " + two, "; order by ", "[[4]]"},
		// no noise
		{"one spelling", count, bin("<=", col("shipped_at"), str("2024-01-04 23:59:59")), "[[2]]", "", "", ""},
		{"one spelling's max", extreme, `{"kind":"func","name":"MAX","args":[` + col("shipped_at") + `]}`, "[[2025-01-02 08:00:00]]", "", "", ""},
		{"a date alone", count, bin("<", col("placed_at"), str("2024-01-04")), "[[2]]", "", "", ""},
		{"read as timestamp", count, bin("<=", `{"kind":"cast","type":"timestamp","expr":`+col("placed_at")+`}`, `{"kind":"literal","type":"timestamp","value":"2024-01-03 23:59:59"}`), "[[2]]", "", "", ""},
		{"max read as timestamp", extreme, `{"kind":"func","name":"MAX","args":[{"kind":"cast","type":"timestamp","expr":` + col("placed_at") + `}]}`, "[[2024-12-31 10:53:32]]", "", "", ""},
	}
	for _, en := range everyEngine(spellingsDB) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			for _, c := range cases {
				plan := strings.Replace(c.plan, "@", c.text, 1)
				res := runAir(t, e, plan)
				if got := fmt.Sprint(res.Rows); got != c.rows {
					t.Errorf("%s: rows %s, want %s", c.name, got, c.rows)
				}
				if c.said == "" {
					if w := warningWith(res.Warnings, two); w != "" {
						t.Errorf("%s: warned %q, want no word of two spellings", c.name, w)
					}
					continue
				}
				w := warningWith(res.Warnings, c.said)
				_, fix, ok := strings.Cut(w, c.fixAfter)
				if !ok {
					t.Errorf("%s: warnings %q, want one holding %q with a fix after %q", c.name, res.Warnings, c.said, c.fixAfter)
					continue
				}
				fix = strings.TrimSuffix(fix, " instead")
				fixed := runAir(t, e, strings.Replace(c.plan, "@", fix, 1))
				if got := fmt.Sprint(fixed.Rows); got != c.fixed {
					t.Errorf("%s: the warning's fix %s gives %s, want %s", c.name, fix, got, c.fixed)
				}
				if w := warningWith(fixed.Warnings, two); w != "" {
					t.Errorf("%s: the fixed plan is warned %q", c.name, w)
				}
			}
		})
	}
}

// The threat: the range of a text column of timestamps written with 'T'
// and with a space is ordered as read with a space, and an end stored
// with 'T' was shown read so: describe_schema, schema show and ask's
// context said the first order was at "2024-01-03 01:34:09Z", a value
// stored in neither spelling, which a person checking it with
// col = '…' finds in no row. Each end must be a value as stored, of
// either spelling, with its zone (Z, +02:00) and fractional seconds, and
// still the true earliest and latest, on every engine.
func TestRangeOfTimestampsWrittenTwoWaysIsOfStoredValues(t *testing.T) {
	db := []string{
		"CREATE TABLE events (id INTEGER PRIMARY KEY, zulu TEXT, offset_frac TEXT, space_ends TEXT)",
		"INSERT INTO events VALUES" +
			" (1, '2024-01-03T01:34:09Z', '2024-01-02T08:00:00.250+02:00', '2024-01-01 00:00:00')," +
			" (2, '2024-01-03 02:00:00', '2024-01-02 09:00:00', '2024-01-02T10:00:00Z')," +
			" (3, '2024-06-01 12:00:00', '2024-06-01T12:00:00.5+02:00', '2024-06-01T12:00:00Z')," +
			" (4, '2024-12-31T23:30:00Z', '2024-12-31 23:59:59.5', '2024-12-31 23:59:59')",
	}
	cases := []struct{ col, min, max string }{
		// both ends written with 'T' and 'Z'
		{"zulu", "2024-01-03T01:34:09Z", "2024-12-31T23:30:00Z"},
		// the earliest with 'T', an offset and a fraction; the latest
		// with a space and a fraction
		{"offset_frac", "2024-01-02T08:00:00.250+02:00", "2024-12-31 23:59:59.5"},
		// both ends written with a space, the values with 'T' between
		{"space_ends", "2024-01-01 00:00:00", "2024-12-31 23:59:59"},
	}
	for _, en := range everyEngine(db) {
		t.Run(en.name, func(t *testing.T) {
			e := specEngine(t, en.spec(t))
			snap := airSnapshot(t, e)
			tb, _ := snap.Lookup("", "events")
			ctx := schemactx.SchemaContext(&schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: []schema.Table{*tb}})
			for _, c := range cases {
				col, _ := tb.Column(c.col)
				p := col.Profile
				if p == nil || p.Spellings == nil {
					t.Fatalf("%s: profile %+v, want the two spellings counted", c.col, p)
				}
				if lo, hi := fmt.Sprint(p.Min), fmt.Sprint(p.Max); lo != c.min || hi != c.max {
					t.Errorf("%s: range [%s, %s], want [%s, %s]", c.col, lo, hi, c.min, c.max)
				}
				if want := fmt.Sprintf(`%s text range [%q,%q]`, c.col, c.min, c.max); !strings.Contains(ctx, want) {
					t.Errorf("schema context %q: want %s", ctx, want)
				}
				// what the range shows, a filter on the column finds
				for _, end := range []any{p.Min, p.Max} {
					plan := fmt.Sprintf(`{"from":[{"table":"events","alias":"e"}],"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"e","column":%q},"right":{"kind":"literal","value":%q}}}`,
						c.col, fmt.Sprint(end))
					if got := fmt.Sprint(runAir(t, e, plan).Rows); got != "[[1]]" {
						t.Errorf("%s = %q counts %s rows, want [[1]]: the range shows a value no row holds", c.col, end, got)
					}
				}
			}
		})
	}
}
