package scope

import (
	"strings"
	"unicode/utf8"
)

// glob reports whether name matches pattern, case-insensitively (Unicode
// simple case folding, as strings.EqualFold): * matches any run of
// characters, none included; ? matches exactly one character; every other
// character, dots and brackets included, matches itself. No regular
// expression is ever built from configuration.
//
// The match is linear in len(pattern)*len(name) at worst (one backtrack
// point: the last star), so hostile patterns cannot blow up.
func glob(pattern, name string) bool {
	p, n := 0, 0
	starP, starN := -1, 0
	for n < len(name) {
		if p < len(pattern) {
			pc, pw := utf8.DecodeRuneInString(pattern[p:])
			nc, nw := utf8.DecodeRuneInString(name[n:])
			switch {
			case pc == '*':
				starP, starN = p, n
				p += pw
				continue
			case pc == '?' || pattern[p:p+pw] == name[n:n+nw] ||
				pc != utf8.RuneError && nc != utf8.RuneError && strings.EqualFold(string(pc), string(nc)):
				p += pw
				n += nw
				continue
			}
		}
		if starP < 0 {
			return false
		}
		// backtrack: let the last star swallow one more character
		_, nw := utf8.DecodeRuneInString(name[starN:])
		starN += nw
		p, n = starP+1, starN
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// pattern is one parsed allow or deny entry: 1 part (a datasource), 3
// parts (datasource.schema.table) or 4 (… .column). "*" is one part that
// matches every datasource, hence everything.
type pattern struct {
	raw   string
	parts []string
}

func parsePattern(s string) pattern { return pattern{raw: s, parts: strings.Split(s, ".")} }

// column reports whether the pattern names columns (4 parts).
func (p pattern) column() bool { return len(p.parts) == 4 }

// coversDatasource: the pattern's datasource part matches ds.
func (p pattern) coversDatasource(ds string) bool { return glob(p.parts[0], ds) }

// wholeDatasource: a 1-part pattern, or ds.*.* — every table of ds.
func (p pattern) wholeDatasource(ds string) bool {
	switch len(p.parts) {
	case 1:
		return glob(p.parts[0], ds)
	case 3:
		return glob(p.parts[0], ds) && p.parts[1] == "*" && p.parts[2] == "*"
	}
	return false
}

// table reports whether a 1- or 3-part pattern covers the whole table
// (false for column patterns).
func (p pattern) table(ds, schema, table string) bool {
	switch len(p.parts) {
	case 1:
		return glob(p.parts[0], ds)
	case 3:
		return glob(p.parts[0], ds) && glob(p.parts[1], schema) && glob(p.parts[2], table)
	}
	return false
}

// tableOf reports whether a column pattern names some column of the table.
func (p pattern) tableOf(ds, schema, table string) bool {
	return p.column() && glob(p.parts[0], ds) && glob(p.parts[1], schema) && glob(p.parts[2], table)
}

// col reports whether the pattern covers the column: a table pattern
// covering its table, or a column pattern matching it.
func (p pattern) col(ds, schema, table, column string) bool {
	if p.column() {
		return p.tableOf(ds, schema, table) && glob(p.parts[3], column)
	}
	return p.table(ds, schema, table)
}
