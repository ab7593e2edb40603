package lex

import (
	"strings"

	"github.com/nl2sql/nl2sql/internal/numtext"
	"unicode"
	"unicode/utf8"
)

// Number is one number a text states: Value is its reading in JSON
// number form ("4.5" of "4,5"; "1200" of "1,200"; "-3" of "-3"), Text as
// the text writes it (sign and separators, without a unit), and Unit the
// letters glued to it, lower-cased ("km" of "4.5km"; "" when none).
type Number struct {
	Value, Text, Unit string
}

// Numbers lists the numbers text states, in order. A number is digits
// with at most one decimal mark and thousands groups:
//
//   - "4.5", "0.5": a point is a decimal point; several points separate
//     groups of three digits ("1.234.567") or make no number ("1.2.3", a
//     version; "10.0.0.1", an address);
//   - "1,200", "12,345,678": a comma before groups of exactly three digits
//     groups thousands, as English writes them;
//   - "4,5", "4,50": a single comma before one or two digits is a decimal
//     comma (no thousands group has fewer than three digits); "1.200,50"
//     and "1,200.50" read the last mark as the decimal one;
//   - "4.5km", "10x": letters glued after it are its unit.
//
// Anything else is not a number the text states, but part of a date, a
// time, a code or an id: digits glued to a letter before them ("BR1234",
// "Q1"), to letters followed by more digits ("2024Q1", "1e5"), to "-",
// "/" or ":" and digits on either side ("2024-05-01", "01/03/2021",
// "10:30"), or with marks that fit no reading ("1,2,3", "4,5000").
// A "-" directly before the digits after a blank (or at the start) is a
// sign. Trailing punctuation ends a number ("more than 4.").
func Numbers(text string) []Number {
	var out []Number
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if !isDigit(r) {
			i += w
			continue
		}
		start := i
		end := i
		for end < len(text) && (isDigit(rune(text[end])) || (text[end] == '.' || text[end] == ',') && end+1 < len(text) && isDigit(rune(text[end+1]))) {
			end++
		}
		i = end
		if n, ok := readNumber(text, start, end); ok {
			out = append(out, n)
		}
	}
	return out
}

// readNumber reads text[start:end] (digits and inner marks) as a number
// when its surroundings and marks allow.
func readNumber(text string, start, end int) (Number, bool) {
	sign := ""
	if start > 0 {
		prev, pw := utf8.DecodeLastRuneInString(text[:start])
		switch {
		case prev == '-' && (start-pw == 0 || blankBefore(text, start-pw)):
			sign = "-"
		case unicode.IsLetter(prev) || isDigit(prev) || prev == '_' || prev == '-' || prev == '/' || prev == ':' || prev == '.' || prev == ',':
			return Number{}, false
		}
	}
	unit := ""
	if end < len(text) {
		next, nw := utf8.DecodeRuneInString(text[end:])
		switch {
		case (next == '-' || next == '/' || next == ':') && end+nw < len(text) && isDigit(rune(text[end+nw])):
			return Number{}, false
		case unicode.IsLetter(next):
			j := end
			for j < len(text) {
				r, w := utf8.DecodeRuneInString(text[j:])
				if !unicode.IsLetter(r) {
					break
				}
				j += w
			}
			if j < len(text) {
				if r, _ := utf8.DecodeRuneInString(text[j:]); isDigit(r) || r == '_' {
					return Number{}, false
				}
			}
			unit = strings.ToLower(text[end:j])
		}
	}
	v, ok := numtext.Value(text[start:end])
	if !ok {
		return Number{}, false
	}
	if sign != "" && strings.Trim(v, "0.") == "" {
		sign = "" // "-0" is 0
	}
	return Number{Value: sign + v, Text: sign + text[start:end], Unit: unit}, true
}

// NumberUnit reports whether word (a word of a question, or a term the
// full-text analysis made of one) is a number as Numbers reads it, and
// returns the unit glued to it: ("km", true) of "4.5km", ("", true) of
// "4,5" or "1,200", false of "br1234", "2024q1" or "v1.2.3".
func NumberUnit(word string) (string, bool) {
	ns := Numbers(word)
	if len(ns) != 1 {
		return "", false
	}
	if rest, ok := strings.CutPrefix(word, ns[0].Text); !ok || !strings.EqualFold(rest, ns[0].Unit) {
		return "", false
	}
	return ns[0].Unit, true
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// blankBefore reports whether text[:i] ends in a blank or an opening
// bracket (a sign may follow it).
func blankBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || r == '(' || r == '['
}
