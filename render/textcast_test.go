package render_test

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// junkTexts are text values a text column holding numbers or dates meets:
// valid ones in several shapes and junk of every kind.
var junkTexts = []string{
	"12", " 12.5 ", "-3e2", "+4", ".5", "5.", "0012", "null", "abc", "12abc", "", " ", "1e400", "-1e400",
	"9007199254740993", "99999999999999999999999999999", "1.5e10", "Infinity", "NaN", "inf", "0x1A", "1,5", "1e", "--1",
	"2024-02-29", "2024-02-30", "2023-02-29", "2024-03-01 10:11:12", "2024-03-01T10:11:12.5", "2024-03-01 24:00:00",
	"2024-03-01 10:61", "2024-03-01 10:11", "0000-01-01", "2024-13-01", "20240301", "March 1 2024", "2024-3-1",
	"2024-03-01junk", "2024-03-01 junk", "9999-12-31",
	// Z and UTC offsets: the instant in UTC; other offset shapes are junk
	"2024-03-01T10:15:00.000Z", "2024-03-06T00:15:00+02:00", "2024-02-29 23:30-05:30", "2024-03-01Z", "2024-03-01 10:00+25:00",
	"2024-03-01 10:00:00+0200", "2024-03-01 10:00:00 +02:00",
	// fractions of a second, kept to the microsecond
	"2024-03-01 10:11:12.123456", "2024-03-01T10:11:12.25-05:00", "2024-03-01 10:11:12.000100Z",
}

var castCatalog = memCatalog{table("j", []string{"id integer", "s text"})}

func castRows() map[string][]string {
	var rows []string
	for i, s := range junkTexts {
		rows = append(rows, fmt.Sprintf("%d, %s", i+1, render.QuoteString(s)))
	}
	return map[string][]string{"j": append(rows, fmt.Sprintf("%d, NULL", len(junkTexts)+1))}
}

var (
	refNumber    = regexp.MustCompile(`^\s*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$`)
	refDate      = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T]|$)`)
	refTimestamp = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])([ T]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,9})?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$`)
	refOffset    = regexp.MustCompile(`(Z|[+-][0-9]{2}:[0-9]{2})$`)
)

// refCast is the text-cast rule written in Go: what every engine must
// return for a cast of s to t, normalised as normCell does.
func refCast(s *string, t planast.CastType) string {
	if s == nil {
		return "NULL"
	}
	switch t {
	case planast.CastInteger, planast.CastDecimal, planast.CastFloat:
		if !refNumber.MatchString(*s) {
			return "NULL"
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(*s), 64)
		lim := map[planast.CastType]float64{planast.CastInteger: 9223372036854775808, planast.CastDecimal: 1e28, planast.CastFloat: math.MaxFloat64}[t]
		if math.Abs(f) >= lim || math.IsInf(f, 0) {
			return "NULL"
		}
		if t == planast.CastInteger {
			f = math.Trunc(f)
		}
		return strconv.FormatFloat(f, 'g', 15, 64)
	}
	re := refDate
	if t == planast.CastTimestamp {
		re = refTimestamp
	}
	if !re.MatchString(*s) || (*s)[:4] == "0000" {
		return "NULL"
	}
	d, err := time.Parse("2006-01-02", (*s)[:10])
	if err != nil {
		return "NULL"
	}
	if t == planast.CastDate {
		return d.Format("2006-01-02")
	}
	if off := refOffset.FindString(*s); off != "" && len(*s) > 16 {
		core := strings.TrimSuffix(*s, off)
		local, err := time.Parse("2006-01-02 15:04:05", refCast(&core, planast.CastTimestamp))
		if err != nil {
			return "NULL"
		}
		zone := time.UTC
		if off != "Z" {
			h, _ := strconv.Atoi(off[1:3])
			m, _ := strconv.Atoi(off[4:6])
			secs := h*3600 + m*60
			if off[0] == '-' {
				secs = -secs
			}
			zone = time.FixedZone(off, secs)
		}
		return time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), local.Second(), local.Nanosecond(), zone).UTC().Format("2006-01-02 15:04:05.999999")
	}
	ts := (*s)[:10] + " 00:00:00"
	if len(*s) >= 16 {
		ts = (*s)[:10] + " " + (*s)[11:16] + ":00"
	}
	if len(*s) >= 19 {
		ts = (*s)[:10] + " " + (*s)[11:19]
	}
	if len(*s) > 20 && (*s)[19] == '.' {
		ts += (*s)[19:min(len(*s), 26)] // to the microsecond
	}
	if tt, err := time.Parse("2006-01-02 15:04:05", ts); err == nil {
		return tt.Format("2006-01-02 15:04:05.999999")
	}
	return ts
}

// normCell puts an engine's value in one shape: numbers to 15 significant
// digits, dates as text, timestamps as text with the fraction of a second
// each engine keeps (to the microsecond), its trailing zeros cut.
func normCell(v string, t planast.CastType) string {
	if v == "NULL" {
		return v
	}
	switch t {
	case planast.CastInteger, planast.CastDecimal, planast.CastFloat:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return "unparsable " + v
		}
		return strconv.FormatFloat(f, 'g', 15, 64)
	case planast.CastDate:
		return v[:min(10, len(v))]
	}
	if tt, err := time.Parse("2006-01-02 15:04:05 -0700 MST", v); err == nil {
		return tt.Format("2006-01-02 15:04:05.999999")
	}
	if tt, err := time.Parse("2006-01-02 15:04:05", strings.Replace(v, "T", " ", 1)); err == nil {
		return tt.Format("2006-01-02 15:04:05.999999")
	}
	return "unparsable " + v
}

// A cast of text that holds no valid number or date is NULL on SQLite,
// DuckDB and PostgreSQL alike, never 0 (SQLite), an error (PostgreSQL) or
// a date read from another shape (DuckDB); a valid one is its value.
func TestEnginesTextCasts(t *testing.T) {
	dbs := engines(t, castCatalog, castRows())
	types := []planast.CastType{planast.CastInteger, planast.CastDecimal, planast.CastFloat, planast.CastDate, planast.CastTimestamp}
	var items []string
	for _, ct := range types {
		items = append(items, `{"kind":"cast","expr":`+column("s")+`,"type":"`+string(ct)+`"}`)
	}
	plan := strings.Replace(wRows(items...), `"table":"w","alias":"w"`, `"table":"j","alias":"j"`, 1)
	castOnEngines(t, dbs, plan, func(e engineDB, got [][]string) {
		for _, row := range got {
			id, _ := strconv.Atoi(row[0])
			var in *string
			if id <= len(junkTexts) {
				in = &junkTexts[id-1]
			}
			for i, ct := range types {
				want, have := refCast(in, ct), normCell(row[i+1], ct)
				if want != have {
					t.Errorf("%s: CAST(%q AS %s) = %s (%s), want %s", e.d.Name(), deref(in), ct, row[i+1], have, want)
				}
			}
		}
	})
}

// castOnEngines validates plan against castCatalog, runs it on every
// engine and hands each engine's rows to check.
func castOnEngines(t *testing.T, dbs []engineDB, plan string, check func(e engineDB, got [][]string)) {
	t.Helper()
	onEngines(t, dbs, castCatalog, plan, check)
}

// onEngines validates plan against cat, runs it on every engine and hands
// each engine's rows to check.
func onEngines(t *testing.T, dbs []engineDB, cat memCatalog, plan string, check func(e engineDB, got [][]string)) {
	t.Helper()
	q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.Plan(q, cat, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range dbs {
		s, err := render.SQL(v.Plan, e.d, render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := queryAll(e.db, s)
		if err != nil {
			t.Errorf("%s: %v\n%s", e.d.Name(), err, s)
			continue
		}
		check(e, got)
	}
}

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

// A string literal cast to a number or date that holds none is refused
// before any SQL: the engines would disagree (error, NULL, a date).
func TestMalformedCastLiteralRefused(t *testing.T) {
	for _, c := range []struct {
		lit, typ string
		ok       bool
	}{
		{"2024-02-30", "date", false}, {"2024-13-01", "date", false}, {"20240301", "date", false}, {"March 1 2024", "date", false},
		{"2024-03-01", "date", true}, {"2024-03-01 10:00:00", "date", true}, {"2024-03-01 junk", "date", false},
		{"2024-03-01 25:00", "timestamp", false}, {"2024-03-01 10:00", "timestamp", true},
		{"abc", "float", false}, {"null", "decimal", false}, {"12abc", "integer", false}, {"12.5", "float", true}, {" -3e2 ", "decimal", true},
	} {
		plan := `{"select":[{"expr":{"kind":"cast","expr":{"kind":"literal","value":"` + c.lit + `"},"type":"` + c.typ + `"},"alias":"x"}]}`
		q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		_, err = validate.Plan(q, castCatalog, validate.Options{})
		if (err == nil) != c.ok {
			t.Errorf("CAST(%q AS %s): err %v, want ok=%v", c.lit, c.typ, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "INVALID_VALUE") {
			t.Errorf("CAST(%q AS %s): %v, want an INVALID_VALUE issue", c.lit, c.typ, err)
		}
	}
}

// A cast of a string literal means what the cast of a column holding the
// same text means: the user who writes CAST('1e3' AS integer) gets 1000 on
// every engine (SQLite's plain cast read 1), and text beyond the integer
// range is NULL everywhere (SQLite's plain cast gave 9223372036854775807,
// PostgreSQL and DuckDB failed the query).
func TestEnginesTextCastsOfLiterals(t *testing.T) {
	dbs := engines(t, castCatalog, castRows())
	texts := append([]string{"1e3", "9223372036854775808", "-9223372036854775809", "9223372036854775807", "-1e3", "1.9e1"}, junkTexts...)
	for _, ct := range []planast.CastType{planast.CastInteger, planast.CastDecimal, planast.CastFloat, planast.CastDate, planast.CastTimestamp} {
		var items []string
		var kept []string
		for _, s := range texts {
			item := `{"kind":"cast","expr":{"kind":"literal","value":` + strconv.Quote(s) + `},"type":"` + string(ct) + `"}`
			q, err := planast.Decode([]byte(`{"select":[{"expr":`+item+`,"alias":"x"}]}`), planast.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := validate.Plan(q, castCatalog, validate.Options{}); err != nil {
				continue // a literal that holds no value is refused (TestMalformedCastLiteralRefused)
			}
			items, kept = append(items, `{"expr":`+item+`,"alias":"x`+strconv.Itoa(len(items))+`"}`), append(kept, s)
		}
		castOnEngines(t, dbs, `{"select":[`+strings.Join(items, ",")+`]}`, func(e engineDB, got [][]string) {
			for i, in := range kept {
				if want, have := refCast(&in, ct), normCell(got[0][i], ct); want != have {
					t.Errorf("%s: CAST(%q AS %s) = %s (%s), want %s as for a column", e.d.Name(), in, ct, got[0][i], have, want)
				}
			}
		})
	}
}

// The threat: a user who upper-cases or lower-cases names, or matches them
// with case_insensitive, reads a different value on another engine than
// render/doc.go ("UPPER, LOWER and letters beyond ASCII") promises. ASCII
// letters fold the same on every engine; beyond ASCII each engine keeps its
// own rule, pinned here: SQLite folds none (Zürich is ZüRICH), DuckDB
// folds Unicode letters (ß upper-cases to ẞ), PostgreSQL folds by its
// database's LC_CTYPE (none under C, the test cluster's).
func TestCaseFoldingBeyondASCII(t *testing.T) {
	// A user searching case-insensitively for "ångström" must find
	// "Zoë Ångström" on whichever engine holds it, and UPPER/LOWER must
	// give the same text everywhere: every engine folds every letter by
	// Unicode's one-to-one mapping (ß upper-cases to ẞ), PostgreSQL under
	// LC_CTYPE C too (the adapter's fold collation).
	cat := memCatalog{table("c", []string{"id integer", "s text"})}
	texts := []string{"Zürich straße", "ÉCOLE abc", "ǆ Ab", "Zoë Ångström", "ΣΟΦΊΑ Дом"}
	var rows []string
	for i, s := range texts {
		rows = append(rows, strconv.Itoa(i+1)+", "+render.QuoteString(s))
	}
	want := map[string][]string{
		"upper": {"ZÜRICH STRAẞE", "ÉCOLE ABC", "Ǆ AB", "ZOË ÅNGSTRÖM", "ΣΟΦΊΑ ДОМ"},
		"lower": {"zürich straße", "école abc", "ǆ ab", "zoë ångström", "σοφία дом"},
	}
	plan := `{"select":[{"expr":` + column("id") + `,"alias":"id"},{"expr":` + call("UPPER", column("s")) + `,"alias":"u"},{"expr":` + call("LOWER", column("s")) + `,"alias":"l"}],` +
		`"from":[{"table":"c","alias":"c"}],"order_by":[{"expr":` + column("id") + `}]}`
	eng := engines(t, cat, map[string][]string{"c": rows})
	onEngines(t, eng, cat, plan, func(e engineDB, got [][]string) {
		for i, row := range got {
			for j, fn := range []string{"upper", "lower"} {
				if w := want[fn][i]; row[j+1] != w {
					t.Errorf("%s: %s(%q) = %q, want %q", e.d.Name(), strings.ToUpper(fn), texts[i], row[j+1], w)
				}
			}
		}
	})
	// the search itself, both ways round
	for _, pat := range []string{"%ångström%", "%ÅNGSTRÖM%", "%straSSe%"} {
		like := `{"select":[{"expr":` + column("id") + `,"alias":"id"}],"from":[{"table":"c","alias":"c"}],` +
			`"where":{"kind":"like","expr":` + column("s") + `,"pattern":{"kind":"literal","value":` + strconv.Quote(pat) + `},"case_insensitive":true},"order_by":[{"expr":` + column("id") + `}]}`
		wantIDs := "4"
		if pat == "%straSSe%" {
			wantIDs = "" // ß is not ss: no engine expands it
		}
		onEngines(t, eng, cat, like, func(e engineDB, got [][]string) {
			var ids []string
			for _, r := range got {
				ids = append(ids, r[0])
			}
			if g := strings.Join(ids, ","); g != wantIDs {
				t.Errorf("%s: case_insensitive like %q found ids [%s], want [%s]", e.d.Name(), pat, g, wantIDs)
			}
		})
	}
}

// asciiOnly keeps the ASCII characters of s.
func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 {
			return r
		}
		return -1
	}, s)
}
