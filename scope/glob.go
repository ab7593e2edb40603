package scope

import (
	"strings"
	"unicode/utf8"

	gglob "github.com/gobwas/glob"
	"golang.org/x/text/cases"
)

// glob reports whether name matches pattern, case-insensitively (Unicode
// case folding, golang.org/x/text/cases): * matches any run of characters,
// none included; ? matches exactly one character; every other character,
// dots and brackets included, matches itself. No regular expression is
// ever built from configuration. The matching is github.com/gobwas/glob's
// (no separators), on the pattern with every other character quoted.
//
// A pattern or name that is not valid UTF-8 has no case to fold and no
// characters to count: it matches only byte for byte, or through a
// pattern that is "*" alone.
func glob(pattern, name string) bool { return compileGlob(pattern).match(name) }

// globPattern is one compiled pattern part.
type globPattern struct {
	raw string
	g   *gglob.Pattern // nil when raw is not valid UTF-8
}

var folder = cases.Fold()

func compileGlob(pattern string) globPattern {
	gp := globPattern{raw: pattern}
	if !utf8.ValidString(pattern) {
		return gp
	}
	var b strings.Builder
	for _, r := range folder.String(pattern) {
		if r == '*' || r == '?' {
			b.WriteRune(r)
		} else {
			b.WriteString(gglob.QuoteMeta(string(r)))
		}
	}
	gp.g, _ = gglob.Compile(b.String()) // every special character is quoted: it compiles
	return gp
}

func (gp globPattern) match(name string) bool {
	if gp.g == nil || !utf8.ValidString(name) {
		return gp.raw == "*" || gp.raw == name
	}
	return gp.g.Match(folder.String(name))
}

// pattern is one parsed allow or deny entry: 1 part (a datasource), 3
// parts (datasource.schema.table) or 4 (… .column). "*" is one part that
// matches every datasource, hence everything.
type pattern struct {
	raw   string
	parts []string
	globs []globPattern // parts, compiled
}

func parsePattern(s string) pattern {
	p := pattern{raw: s, parts: strings.Split(s, ".")}
	for _, part := range p.parts {
		p.globs = append(p.globs, compileGlob(part))
	}
	return p
}

// column reports whether the pattern names columns (4 parts).
func (p pattern) column() bool { return len(p.parts) == 4 }

// coversDatasource: the pattern's datasource part matches ds.
func (p pattern) coversDatasource(ds string) bool { return p.globs[0].match(ds) }

// wholeDatasource: a 1-part pattern, or ds.*.* — every table of ds.
func (p pattern) wholeDatasource(ds string) bool {
	switch len(p.parts) {
	case 1:
		return p.globs[0].match(ds)
	case 3:
		return p.globs[0].match(ds) && p.parts[1] == "*" && p.parts[2] == "*"
	}
	return false
}

// table reports whether a 1- or 3-part pattern covers the whole table
// (false for column patterns).
func (p pattern) table(ds, schema, table string) bool {
	switch len(p.parts) {
	case 1:
		return p.globs[0].match(ds)
	case 3:
		return p.globs[0].match(ds) && p.globs[1].match(schema) && p.globs[2].match(table)
	}
	return false
}

// tableOf reports whether a column pattern names some column of the table.
func (p pattern) tableOf(ds, schema, table string) bool {
	return p.column() && p.globs[0].match(ds) && p.globs[1].match(schema) && p.globs[2].match(table)
}

// col reports whether the pattern covers the column: a table pattern
// covering its table, or a column pattern matching it.
func (p pattern) col(ds, schema, table, column string) bool {
	if p.column() {
		return p.tableOf(ds, schema, table) && p.globs[3].match(column)
	}
	return p.table(ds, schema, table)
}
