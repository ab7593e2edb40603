package source

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// ViewReads sets the Reads of snap's view named (schemaName, name) from
// its definition's SQL: every other relation of snap whose name the text
// holds as a whole word, any case, however it is quoted ("Order Details",
// [Order Details], `x`). A name that only appears elsewhere (a column or
// a comment called as a table) adds a relation the view may not read:
// for access, reading too much into a view hides it, reading too little
// would let it show what a role may not read.
func ViewReads(snap *schema.Snapshot, schemaName, name, sql string) {
	var view *schema.Table
	for i := range snap.Tables {
		if t := &snap.Tables[i]; t.Schema == schemaName && t.Name == name {
			view = t
		}
	}
	if view == nil {
		return
	}
	text := strings.ToLower(sql)
	view.Reads = nil
	for _, t := range snap.Tables {
		if t.Schema == schemaName && t.Name == name {
			continue
		}
		if holdsWord(text, strings.ToLower(t.Name)) {
			view.Reads = append(view.Reads, schema.Relation{Schema: t.Schema, Name: t.Name})
		}
	}
}

// holdsWord reports whether text holds w with no letter, digit or
// underscore either side.
func holdsWord(text, w string) bool {
	if w == "" {
		return false
	}
	for from := 0; ; {
		i := strings.Index(text[from:], w)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(w):])
		if !identRune(before) && !identRune(after) {
			return true
		}
		from = i + 1
	}
}

func identRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
