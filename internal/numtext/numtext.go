// Package numtext reads a number as people write it, with thousands
// groups and a decimal point or comma: the one rule for a number a
// question states (index/lex.Numbers) and for a stored text that is one
// (internal/source.NumberText).
//
// Example:
//
//	numtext.Value("1.234.567") // "1234567", true
//	numtext.Value("4,5")       // "4.5", true
//	numtext.Value("10.0.0.1")  // "", false: an address, not a number
package numtext

import "strings"

// Value reads s, digits with '.' and ',' marks, as people write a number,
// in JSON number form, or false: one mark before one or two digits, or
// the last of two kinds, is the decimal one ("4,5", "1.200,50"); other
// marks separate groups of three digits ("1,200", "1.234.567"); marks
// that fit no reading make no number ("1.2.3", a version; "10.0.0.1", an
// address; "1,2,3", a list).
func Value(s string) (string, bool) {
	dot, comma := strings.Count(s, "."), strings.Count(s, ",")
	var whole, frac string
	switch {
	case dot == 0 && comma == 0:
		whole = s
	case comma == 0 && dot == 1:
		whole, frac, _ = strings.Cut(s, ".")
	case dot == 0 && comma == 1 && len(s)-strings.IndexByte(s, ',')-1 < 3:
		whole, frac, _ = strings.Cut(s, ",")
	case dot == 0, comma == 0:
		whole = s // thousands groups ("1,200", "1.234.567"), checked below
	case dot == 1 && strings.LastIndexByte(s, '.') > strings.LastIndexByte(s, ','):
		whole, frac, _ = strings.Cut(s, ".") // 1,200.50
	case comma == 1 && strings.LastIndexByte(s, ',') > strings.LastIndexByte(s, '.'):
		whole, frac, _ = strings.Cut(s, ",") // 1.200,50
	default:
		return "", false
	}
	if g := strings.IndexAny(whole, ".,"); g >= 0 {
		groups := strings.Split(whole, whole[g:g+1])
		if len(groups[0]) > 3 || groups[0] == "0" {
			return "", false
		}
		for _, gr := range groups[1:] {
			if len(gr) != 3 {
				return "", false
			}
		}
		whole = strings.Join(groups, "")
	}
	if t := strings.TrimLeft(whole, "0"); t != "" {
		whole = t
	} else {
		whole = "0"
	}
	if frac != "" {
		return whole + "." + frac, true
	}
	return whole, true
}
