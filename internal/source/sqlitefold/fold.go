package sqlitefold

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"modernc.org/sqlite"
)

// registrar is what both the package-level driver and a *sqlite.Driver
// offer.
type registrar func(name string, impl *sqlite.FunctionImpl) error

// LowerName and UpperName are the names the functions are registered
// under: SQLite's own upper and lower stay as they are, since a function
// an application registers is not innocuous to SQLite, and a view, index
// or check that calls one fails under trusted_schema = OFF.
const (
	LowerName = "unicode_lower"
	UpperName = "unicode_upper"
)

// Register adds the functions to the connections d opens.
func Register(d *sqlite.Driver) error { return register(d.RegisterFunction) }

// RegisterDefault adds them to the driver registered as "sqlite" (the
// connections sql.Open("sqlite", ...) opens after it); a second call
// fails as modernc refuses a name twice.
func RegisterDefault() error { return register(sqlite.RegisterFunction) }

func register(reg registrar) error {
	for name, f := range map[string]func(string) string{LowerName: Lower, UpperName: Upper} {
		impl := &sqlite.FunctionImpl{NArgs: 1, Deterministic: true,
			Scalar: func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
				return fold(args[0], f), nil
			}}
		if err := reg(name, impl); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// fold applies f to text, and to a blob read as text as SQLite's own
// upper and lower read it. NULL stays NULL; a number has no letters and
// stays the number it is (SQLite's own would return its text).
func fold(v driver.Value, f func(string) string) driver.Value {
	switch x := v.(type) {
	case string:
		return f(x)
	case []byte:
		return f(string(x))
	}
	return v
}

// Lower lower-cases every letter by Unicode's one-to-one mapping.
func Lower(s string) string { return mapRunes(s, unicode.ToLower) }

// Upper upper-cases every letter by Unicode's one-to-one mapping, and ß
// to ẞ.
func Upper(s string) string {
	return mapRunes(s, func(r rune) rune {
		if r == 'ß' {
			return 'ẞ'
		}
		return unicode.ToUpper(r)
	})
}

// mapRunes maps each rune of s by f and keeps bytes that are not UTF-8 as
// they are (strings.Map would turn them into U+FFFD, changing data a
// folded comparison should still see).
func mapRunes(s string, f func(rune) rune) string {
	// most values are already folded: find the first rune that changes
	// before allocating
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !(r == utf8.RuneError && n <= 1) && f(r) != r {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			b.WriteByte(s[i])
		} else {
			b.WriteRune(f(r))
		}
		i += n
	}
	return b.String()
}
