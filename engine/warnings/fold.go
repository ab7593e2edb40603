package warnings

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// typographic maps the characters people type for one another (a curly
// apostrophe for a straight one, a dash for a hyphen, a no-break space
// for a space) to one of each.
var typographic = runes.Map(func(r rune) rune {
	switch r {
	case '\u2019', '\u2018', '\u02bc', '\u201b', '\u0060', '\u00b4', '\u2032':
		return '\''
	case '\u201c', '\u201d', '\u201e', '\u201f', '\u2033':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212':
		return '-'
	}
	if unicode.IsSpace(r) {
		return ' '
	}
	return r
})

// folded is a value as a person reading it would compare it: letter case,
// surrounding spaces, accents (Siobhan for Siobhán), the form of
// apostrophes, quotes and dashes (O’Brien for O'Brien) and Unicode
// composition (é as one character or as e and a combining accent) set
// aside. Equality on every engine sees each of these as a different
// value, so a filter typed from a question matches nothing.
func folded(s string) string {
	if out, ok := foldedASCII(s); ok {
		return out
	}
	return foldedUnicode(s)
}

// foldedExpr is x (the plan JSON of a text expression) in TRIM when
// values differ in surrounding spaces and in LOWER when they differ in
// letter case: the expression that makes such values equal.
func foldedExpr(x string, spaces, letters bool) string {
	if spaces {
		x = fmt.Sprintf(`{"kind": "func", "name": "TRIM", "args": [%s]}`, x)
	}
	if letters {
		x = fmt.Sprintf(`{"kind": "func", "name": "LOWER", "args": [%s]}`, x)
	}
	return x
}

// spelling is the key under which two stored values are one value
// written two ways: folded, and for a value without digits also with its
// spaces, underscores, hyphens and dots dropped ('checked_out', 'Checked
// Out' and 'checkedout' are one status; 'e-mail' is 'email'). Digits keep
// their separators: '1.5' is not '15', nor 'A-12' 'A12' surely.
func spelling(s string) string {
	f := folded(s)
	if hasDigit(f) {
		return f
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '_', '-', '.':
			return -1
		}
		return r
	}, f)
}

// foldedASCII is folded for a value of ASCII bytes alone (most stored
// values), without the Unicode transforms, which allocate and cost more
// than the rest of a warning's checks together: on ASCII, composition and
// decomposition change nothing and there is no accent to drop, so only
// typographic's ASCII cases are left (a backquote read as an apostrophe,
// white space read as a space). ok is false when s holds a non-ASCII byte.
func foldedASCII(s string) (out string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return "", false
		}
	}
	out = strings.Map(func(r rune) rune {
		switch r {
		case '`':
			return '\''
		case '\t', '\n', '\v', '\f', '\r':
			return ' '
		}
		return r
	}, s)
	return strings.ToLower(strings.TrimSpace(out)), true
}

// foldedUnicode is folded by its definition, for any value.
func foldedUnicode(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), typographic, norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(strings.TrimSpace(out))
}

// howItDiffers says in what stored differs from typed, two values equal
// once folded: letter case or spaces, Unicode composition, accents, the
// form of apostrophes, quotes or dashes, or the last two together.
func howItDiffers(typed, stored string) string {
	if loose(typed) == loose(stored) {
		return "only in letter case or surrounding spaces"
	}
	if loose(norm.NFC.String(typed)) == loose(norm.NFC.String(stored)) {
		return "only in how its accented letters are encoded (Unicode composition: the same text, other bytes)"
	}
	marks := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	form := transform.Chain(typographic, norm.NFC)
	with := func(t transform.Transformer, s string) string {
		out, _, _ := transform.String(t, s)
		return loose(out)
	}
	accents := with(form, typed) != with(form, stored) // equal but for accents once the forms agree
	forms := with(marks, typed) != with(marks, stored) // equal but for the forms once accents are gone
	switch {
	case accents && forms:
		return "only in accents and the form of its apostrophes, quotes, dashes or spaces"
	case accents:
		return "only in accents"
	}
	return "only in the form of its apostrophes, quotes, dashes or spaces"
}

// spellingLoose is spelling with the word separators between a letter and
// a digit dropped too ('M-001' is 'm001'; '1.5' stays apart from '15'): the
// key of a column that writes values several ways (messy).
func spellingLoose(s string) string {
	f := []rune(spelling(s))
	out := make([]rune, 0, len(f))
	for i, r := range f {
		if strings.ContainsRune(" _-.", r) && i > 0 && i < len(f)-1 &&
			(unicode.IsLetter(f[i-1]) && unicode.IsDigit(f[i+1]) || unicode.IsDigit(f[i-1]) && unicode.IsLetter(f[i+1])) {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}
