package cellfmt

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Quote is s as a JSON string, the way stored text is quoted as data in
// every model-facing rendering (the answer summary, schema samples): the
// quote, the backslash and every character Text escapes are escaped, and
// nothing else. encoding/json's default would also write <, > and & as
// \u003c, \u003e and \u0026, so "Alternative & Punk" would read
// "Alternative \u0026 Punk": no longer the value the database holds; and it
// would leave DEL, C1 controls and bidi overrides raw, which a terminal or
// a reader obeys instead of showing.
//
//	cellfmt.Quote(`Rock & "Roll"`) // `"Rock & \"Roll\""`
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2) // the usual value needs no escape: one allocation
	b.WriteByte('"')
	escape(&b, s, true)
	b.WriteByte('"')
	return b.String()
}

// Text is s for a table cell a person reads: the stored characters, except
// that what a terminal or a reader would act on instead of showing is
// written as a visible escape, the way JSON writes it: C0 and C1 control
// characters and DEL (an ESC sequence would clear the screen or recolour
// it; a line break would split the row), format characters (bidi overrides
// such as U+202E reverse the text around them; zero-width characters hide
// one value inside another) and the line and paragraph separators. The
// backslash is doubled so an escape is never confused with stored text.
//
//	cellfmt.Text("a\x1b[2Jb\tc") // `a\u001b[2Jb\tc`
func Text(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	escape(&b, s, false)
	return b.String()
}

// Visible is Text for a message of the server's own that quotes values
// already (a warning writes each value it names quoted, "a\\b" for a
// stored a\b): what a terminal would act on is escaped as Text escapes
// it, and the backslash, which here starts the quote's own escapes, is
// left as it is, so the text reads as the structured warning does
// instead of with every escape doubled.
//
//	cellfmt.Visible(`value "a\\b"` + "\x1b") // `value "a\\b"\u001b`
func Visible(s string) string {
	if !needsEscapeBut(s, false) {
		return s
	}
	var b strings.Builder
	escapeBut(&b, s, false, false)
	return b.String()
}

func needsEscape(s string) bool { return needsEscapeBut(s, true) }

func needsEscapeBut(s string, backslash bool) bool {
	for _, r := range s {
		if r == '\\' && backslash || r == utf8.RuneError || Hidden(r) {
			return true
		}
	}
	return false
}

// Hidden reports whether r is acted on or invisible rather than shown:
// a C0 or C1 control character, DEL, a format character (bidi controls
// such as U+202E, zero-width characters) or the line and paragraph
// separators. Text escapes each; a name a person reads (a plan's alias)
// may hold none.
func Hidden(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}

const hexDigits = "0123456789abcdef"

// escape writes s to b with the backslash, hidden characters and (when
// quote is set) the double quote escaped as JSON escapes them; an invalid
// UTF-8 byte is written as \ufffd, as encoding/json does.
func escape(b *strings.Builder, s string, quote bool) { escapeBut(b, s, quote, true) }

// escapeBut is escape that leaves the backslash as it is unless
// backslash is set.
func escapeBut(b *strings.Builder, s string, quote, backslash bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\\' && backslash:
			b.WriteString(`\\`)
		case r == '"' && quote:
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case Hidden(r):
			if r > 0xffff { // JSON escapes beyond the BMP as a surrogate pair
				r1, r2 := utf16.EncodeRune(r)
				writeU(b, r1)
				writeU(b, r2)
			} else {
				writeU(b, r)
			}
		default:
			b.WriteRune(r)
		}
	}
}

func writeU(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}

// InvalidUTF8 is the offset of the first byte of b that does not start a
// valid UTF-8 sequence, or -1 when b is valid: where a message or a plan
// that decoding would read with U+FFFD in its place goes wrong, said once
// for every reader that refuses it.
func InvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}
