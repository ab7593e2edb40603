package scope

import (
	"errors"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// ErrNotReadable is returned by Screen. Its message names nothing: not the
// hidden table, not even that one exists.
var ErrNotReadable = errors.New("nothing you may read answers this question")

// Screen runs before any model call. It refuses (ErrNotReadable) a
// question that names a table of snap the caller may not read when no
// table or column the caller may read carries that name too: planning it
// would only invite the model to guess. Names are matched as whole words,
// case-insensitively, CamelCase and snake_case split and plurals reduced
// ("invoices" names Invoice, "invoice lines" names InvoiceLine). A nil
// error does not mean the question is answerable, only that it does not
// visibly reach for hidden data.
func (s *Scope) Screen(ds string, snap *schema.Snapshot, question string) error {
	if s.Unrestricted() || snap == nil {
		return nil
	}
	if !s.Reaches(ds) {
		return ErrNotReadable
	}
	q := words(question)
	var visible [][]string
	var hidden [][]string
	for _, t := range snap.Tables {
		w := words(t.Name)
		if !s.AllowTable(ds, t.Schema, t.Name) {
			hidden = append(hidden, w)
			continue
		}
		visible = append(visible, w)
		for _, c := range t.Columns {
			if s.AllowColumn(ds, t.Schema, t.Name, c.Name) {
				visible = append(visible, words(c.Name))
			}
		}
	}
	for _, h := range hidden {
		if len(h) == 0 || !contains(q, h) {
			continue
		}
		covered := false
		for _, v := range visible {
			if contains(v, h) {
				covered = true
				break
			}
		}
		if !covered {
			return ErrNotReadable
		}
	}
	return nil
}

// words splits s into lower-case singular words: on non-letters and
// digits, and at lower→upper case changes (InvoiceLine → invoice line).
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, singular(strings.ToLower(string(cur))))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// singular strips a plural ending: -ies → -y, -sses/-xes/-ches/-shes → drop
// -es, other -s (not -ss) → drop it.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// contains reports whether seq occurs in hay as consecutive words.
func contains(hay, seq []string) bool {
	for i := 0; i+len(seq) <= len(hay); i++ {
		ok := true
		for j := range seq {
			if hay[i+j] != seq[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
