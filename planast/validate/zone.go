package validate

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	// the zone names a literal may give are the tz database's whether or
	// not the machine has one installed (a container often has none)
	_ "time/tzdata"

	. "github.com/nl2sql/nl2sql/planast"
)

// zoneSwapped refuses AT_TIME_ZONE(zone, instant), the argument order of
// PostgreSQL's and DuckDB's timezone(zone, x): the text first and a date
// or timestamp second. Left to the type checks, the zone name would be
// refused as text that holds no timestamp, which says nothing of the
// order. It reports whether it refused.
func (v *validator) zoneSwapped(f *Func, ts []Type, path string) bool {
	if len(ts) != 2 || ts[0] != TypeText || !ts[1].IsTemporal() {
		return false
	}
	hint := "write AT_TIME_ZONE(instant, zone)"
	if b, err := JSON(&Func{Name: f.Name, Args: []Expr{f.Args[1], f.Args[0]}}); err == nil {
		hint = "write " + string(b)
	}
	v.addHint(CodeBadValue, join(path, "args"), hint, "AT_TIME_ZONE takes the instant first, then the zone; these arguments look swapped")
	return true
}

// zoneLiteral refuses a string literal zone (the second argument of
// AT_TIME_ZONE, at path) that names no time zone of the tz database,
// which PostgreSQL and DuckDB would fail the whole query on. A zone read
// from a column is known only as the query runs: one the engine does not
// know gives NULL there (render's KnownZone).
func (v *validator) zoneLiteral(e Expr, path string) {
	lit, ok := e.(*Literal)
	if !ok || lit.Type != TString {
		return
	}
	if ZoneName(lit.Text) {
		return
	}
	hint := `write its IANA name as the tz database spells it, e.g. "Europe/London", "America/New_York" or "UTC"`
	switch near := nearZone(lit.Text); {
	case near != "":
		hint = fmt.Sprintf("did you mean %q? zone names are spelled exactly as the tz database has them", near)
	case utcOffset.MatchString(strings.TrimSpace(lit.Text)):
		hint = `a fixed offset has no IANA name of its own but Etc/GMT-3 for UTC+3 and Etc/GMT+5 for UTC-5 (the sign inverted, as the tz database writes them); a place's zone, e.g. "Europe/London", follows its summer time`
	}
	v.addHint(CodeBadValue, path, hint, "%q names no time zone", Truncate(lit.Text, 60))
}

// ZoneName reports whether s names a time zone of the tz database exactly
// as spelled: "Europe/London" and "UTC", not "europe/london", "BST" or
// "UTC+3". "Local" (the server's own zone) and "" (UTC to Go, an error to
// the engines) are no names.
func ZoneName(s string) bool {
	if s == "" || s == "Local" || strings.TrimSpace(s) != s {
		return false
	}
	_, err := time.LoadLocation(s)
	return err == nil
}

// utcOffset is a zone written as an offset from UTC (+02:00, UTC+3,
// GMT-5), which PostgreSQL reads with the sign inverted (POSIX) and
// DuckDB not at all.
var utcOffset = regexp.MustCompile(`^(?i:UTC|GMT)?\s*[+-]\s*\d{1,2}(:?\d{2})?$`)

// nearZone is a zone name s means, spelled otherwise: letter case
// ("europe/london", "america/new_york") or spaces for underscores
// ("America/New York"); "" when none.
func nearZone(s string) string {
	t := strings.ReplaceAll(strings.TrimSpace(s), " ", "_")
	cands := []string{t, strings.ToUpper(t)}
	var b strings.Builder
	up := true
	for _, r := range strings.ToLower(t) {
		if up {
			b.WriteString(strings.ToUpper(string(r)))
		} else {
			b.WriteRune(r)
		}
		up = r == '/' || r == '_' || r == '-'
	}
	cands = append(cands, b.String())
	for _, c := range cands {
		if c != s && ZoneName(c) {
			return c
		}
	}
	return ""
}
