package schemactx

import (
	"regexp"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// NoteRule is a rule the note of a test flag adds to the flag, read from
// its words: the rows whose Column (of the flag's table) matches Pattern,
// a LIKE pattern ('\' escapes) compared in any letter case, are test
// records too. Says is the rule in words (`ends in "@example.com"`).
type NoteRule struct {
	Column, Pattern, Says string
}

// TestNoteRules reads the note (comment) of c, a flag of test records of
// table t (TestFlag), for the records it marks beyond the flag: a flag
// added in 2026 left older QA accounts unflagged, and its note said
// "accounts whose email ends in @example.com are also test accounts even
// when is_test is false"; a filter on the flag alone kept them. rules are
// those a filter can apply (an email domain; a column's values ending,
// starting with or holding a text); unread are the note's sentences that
// add records in words no rule reads, quoted to the host. A sentence
// counts when it names a kind of record that is no customer (a test word,
// an internal or other kind: nonCustomerKinds) and says a rule is added
// to the flag ("also", "too", "even when", "regardless", "not flagged").
//
// The notes of t's other columns and of t itself add the rules they state
// (a filter can apply them), not their sentences in words: the email
// column's note "accounts with an @dashfood.com email are internal staff
// accounts; exclude them like test accounts" names records the flag's
// filter keeps.
func TestNoteRules(t *schema.Table, c *schema.Column) (rules []NoteRule, unread []string) {
	read := func(note string, own bool) {
		for _, s := range noteSentences.Split(note, -1) {
			s = strings.TrimSpace(s)
			words := lex.Words(s)
			if !slices.ContainsFunc(words, func(w string) bool { return nonCustomerWord(w) }) {
				continue
			}
			if r, ok := sentenceRule(t, s); ok {
				if !slices.Contains(rules, r) {
					rules = append(rules, r)
				}
				continue
			}
			if own && addedMarks.MatchString(s) {
				unread = append(unread, s)
			}
		}
	}
	read(c.Comment, true)
	for i := range t.Columns {
		if o := &t.Columns[i]; o.Name != c.Name && o.Comment != "" {
			read(o.Comment, false)
		}
	}
	if t.Comment != "" {
		read(t.Comment, false)
	}
	return rules, unread
}

// noteSentences splits a note into sentences and clauses: at a full
// stop, semicolon or colon followed by a space or the end (not the dot of
// "example.com"), and at a line break.
var noteSentences = regexp.MustCompile(`[.;:!?]+(\s+|$)|\n`)

// addedMarks are the words by which a sentence adds records to what a
// flag marks.
var addedMarks = regexp.MustCompile(`(?i)\b(also|too|as well|even (when|if|though)|regardless|in addition|besides|either|not flagged|unflagged|not marked|without the flag)\b`)

// ruleShapes are the words that say a rule on a column's text, each with
// the LIKE pattern of its value and how it is said: the column's name
// comes before them, the value after ("emails ending in @example.com",
// "names starting with 'test'"); a value of contains must be quoted, the
// word being common in other senses ("accounts including partners").
var ruleShapes = []struct {
	re     *regexp.Regexp
	like   func(v string) string
	says   string
	quoted bool
}{
	{regexp.MustCompile(`(?i)\b(ends?|ending|ended)\s+(in|with)\s+|\bsuffixed\s+(with|by)\s+`), func(v string) string { return "%" + v }, "ends in", false},
	{regexp.MustCompile(`(?i)\b(starts?|starting|started|begins?|beginning)\s+with\s+|\bprefixed\s+(with|by)\s+`), func(v string) string { return v + "%" }, "starts with", false},
	{regexp.MustCompile(`(?i)\b(contains?|containing)\s+`), func(v string) string { return "%" + v + "%" }, "holds", true},
}

// emailDomain is an email domain written with its "@" ("@example.com").
var emailDomain = regexp.MustCompile(`@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`)

// sentenceRule reads sentence s as a rule on a column of t: a rule shape
// after the column's name, or an email domain on t's one email column.
func sentenceRule(t *schema.Table, s string) (NoteRule, bool) {
	for _, sh := range ruleShapes {
		loc := sh.re.FindStringIndex(s)
		if loc == nil {
			continue
		}
		v, quoted := leadingValue(s[loc[1]:])
		if v == "" || sh.quoted && !quoted {
			continue
		}
		col, ok := namedColumn(t, s[:loc[0]])
		if !ok && strings.HasPrefix(v, "@") {
			col, ok = emailColumn(t)
		}
		if !ok {
			return NoteRule{}, false
		}
		return NoteRule{Column: col, Pattern: sh.like(likeEscape(v)), Says: sh.says + " " + quoteData(v)}, true
	}
	if d := emailDomain.FindString(s); d != "" {
		if col, ok := emailColumn(t); ok {
			return NoteRule{Column: col, Pattern: "%" + likeEscape(d), Says: "ends in " + quoteData(d)}, true
		}
	}
	return NoteRule{}, false
}

// leadingValue is the value at the start of s: a quoted text, or the run
// of characters up to a space, without the punctuation that ends a
// sentence.
func leadingValue(s string) (v string, quoted bool) {
	s = strings.TrimSpace(s)
	for _, q := range [][2]string{{"'", "'"}, {`"`, `"`}, {"‘", "’"}, {"“", "”"}, {"`", "`"}} {
		if rest, ok := strings.CutPrefix(s, q[0]); ok {
			if v, _, ok := strings.Cut(rest, q[1]); ok {
				return v, true
			}
		}
	}
	v, _, _ = strings.Cut(s, " ")
	return strings.TrimRight(v, ".,;:!?)"), false
}

// maxNameGap bounds the words read back from a rule's verb to the name of
// its column ("whose email address ends in": two).
const maxNameGap = 4

// namedColumn is the text column of t named by one of the last words of
// s: the nearest word that names one column alone (its name, or a word of
// it: "names" for full_name), ok false when none does or a word names
// several (first_name and last_name).
func namedColumn(t *schema.Table, s string) (string, bool) {
	words := lex.Words(s)
	for i := len(words) - 1; i >= 0 && i >= len(words)-maxNameGap; i-- {
		w := lex.Singular(words[i])
		var cols []string
		for _, c := range t.Columns {
			if c.Type != planast.TypeText {
				continue
			}
			if name := strings.ToLower(c.Name); name == w || lex.Singular(name) == w {
				cols = []string{c.Name}
				break
			}
			if slices.ContainsFunc(lex.SplitWords(c.Name), func(n string) bool { return lex.Singular(n) == w }) {
				cols = append(cols, c.Name)
			}
		}
		switch len(cols) {
		case 0:
			continue
		case 1:
			return cols[0], true
		}
		return "", false
	}
	return "", false
}

// emailColumn is t's one text column named for an email address.
func emailColumn(t *schema.Table) (string, bool) {
	var cols []string
	for _, c := range t.Columns {
		if c.Type == planast.TypeText && slices.ContainsFunc(lex.SplitWords(c.Name), func(w string) bool { return w == "email" || w == "mail" }) {
			cols = append(cols, c.Name)
		}
	}
	if len(cols) != 1 {
		return "", false
	}
	return cols[0], true
}

// likeEscape escapes LIKE's wildcards and escape character in v, a text
// to match as written.
func likeEscape(v string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(v))
}

// quoteData quotes v as data for a text a model reads.
func quoteData(v string) string {
	b, _ := planast.JSON(v)
	return string(b)
}

// nonCustomerKinds are the kinds of record beside test and internal ones
// (testWords, internalKinds) that a note names as no customers: a flag of
// internal accounts whose note said it also marks the partners' and
// resellers' accounts was said to mark test or internal records alone.
var nonCustomerKinds = []string{"partner", "reseller", "distributor", "affiliate", "vendor", "supplier", "wholesaler", "contractor", "agency", "broker", "integrator"}

// nonCustomerWord reports whether folded word w names a kind of record
// that is no customer.
func nonCustomerWord(w string) bool {
	w = lex.Singular(w)
	return slices.Contains(testWords, w) || slices.Contains(internalKinds, w) || slices.Contains(nonCustomerKinds, w)
}

// NoteKinds are the kinds of record of nonCustomerKinds that the note of
// c names, in the note's order, as it writes them: said beside "test or
// internal records" so that a host reads which records the flag is about.
func NoteKinds(c *schema.Column) []string {
	var out []string
	for _, w := range lex.Words(c.Comment) {
		if slices.Contains(nonCustomerKinds, lex.Singular(w)) && !slices.Contains(out, lex.Singular(w)) {
			out = append(out, lex.Singular(w))
		}
	}
	return out
}
