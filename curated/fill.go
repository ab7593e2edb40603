package curated

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/index/lex"
)

// FillFromQuestion fills q's parameters from what the question states,
// without a model: for a host that plans itself, the server hands over the
// exact run_verified_query call, with the values it can read off the
// question and the names of the required ones it cannot. A value is taken
// only when exactly one candidate passes the parameter's own check (Bind's
// rules), so an ambiguous question leaves the parameter to the host rather
// than guessing:
//
//   - choices: a choice the question names as a word (case-insensitive);
//   - date: a YYYY-MM-DD in the question;
//   - integer, number: a number in the question (lex.Numbers: "4.5",
//     "4,5", "1,200", "4.5km"; not the digits of a date or an id);
//   - string with a pattern: a word of the question that matches it;
//   - other strings: a stored value the question names (values, which the
//     engine reads through the retrieval index within the caller's scope),
//     or the parameter's example when the question says it;
//   - boolean: never (a yes/no is rarely literal in a question).
//
// Parameters with a default are left out unless filled (Bind applies the
// default). missing lists, in declaration order, the required parameters
// without a default that were not filled.
func (q *Query) FillFromQuestion(question string, values []string) (filled map[string]any, missing []string) {
	filled = map[string]any{}
	words := questionWords(question)
	for i := range q.Params {
		p := &q.Params[i]
		if v, ok := p.fill(question, words, values); ok {
			filled[p.Name] = v
			continue
		}
		if p.Required && p.Default == nil {
			missing = append(missing, p.Name)
		}
	}
	return filled, missing
}

var dateInText = regexp.MustCompile(`\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b`)

// fill returns the one value of the question that passes p's check.
func (p *Param) fill(question string, words, values []string) (any, bool) {
	var cands []any
	switch p.Type {
	case TypeBoolean:
		return nil, false
	case TypeDate:
		for _, m := range dateInText.FindAllString(question, -1) {
			cands = append(cands, m)
		}
	case TypeInteger, TypeNumber:
		for _, n := range lex.Numbers(question) {
			cands = append(cands, json.Number(n.Value))
		}
	default:
		switch {
		case p.Choices != nil:
			for _, c := range p.Choices {
				if containsPhrase(question, c) {
					cands = append(cands, c)
				}
			}
		case p.Pattern != "":
			for _, w := range words {
				cands = append(cands, w)
			}
		default:
			for _, v := range values {
				cands = append(cands, v)
			}
			if s, ok := p.Example.(string); ok && s != "" && containsPhrase(question, s) {
				cands = append(cands, s)
			}
		}
	}
	// One reading, by its text folded: 'paid', 'Paid' and 'paid ' are
	// one reading spelled three ways, two readings make the host decide.
	var spellings []any
	key := ""
	for _, c := range cands {
		v, err := p.check(c)
		if err != nil {
			continue
		}
		k := strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))
		switch {
		case key == "":
			key = k
		case k != key:
			return nil, false // two readings: the host decides
		}
		if !slices.ContainsFunc(spellings, func(x any) bool { return fmt.Sprint(x) == fmt.Sprint(v) }) {
			spellings = append(spellings, v)
		}
	}
	if len(spellings) == 1 {
		return spellings[0], true
	}
	// Several stored spellings: the one the question writes, as written
	// ("status paid" is 'paid', not 'Paid', which a verified query's
	// equality would return instead); none or several, and the host
	// decides.
	var exact []any
	for _, v := range spellings {
		if s := fmt.Sprint(v); s == strings.TrimSpace(s) && containsExact(question, s) {
			exact = append(exact, v)
		}
	}
	if len(exact) == 1 {
		return exact[0], true
	}
	return nil, false
}

// containsExact reports whether text contains phrase as whole words,
// spelled as phrase spells them (case included).
func containsExact(text, phrase string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], phrase)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(phrase)
		before := start == 0 || !isWordRune(rune(text[start-1]))
		after := end == len(text) || !isWordRune(rune(text[end]))
		if before && after {
			return true
		}
		i = start + 1
	}
}

// containsPhrase reports whether text contains phrase as whole words,
// case-insensitively.
func containsPhrase(text, phrase string) bool {
	ph := strings.ToLower(strings.TrimSpace(phrase))
	return ph != "" && containsExact(strings.ToLower(text), ph)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// questionWords splits a question into words of letters, digits and the
// joiners - _ . inside a word (so "2024-05" and "A.B" stay one word).
func questionWords(q string) []string {
	f := strings.FieldsFunc(q, func(r rune) bool {
		return !isWordRune(r) && r != '-' && r != '.' && r != '\''
	})
	out := f[:0]
	for _, w := range f {
		if w = strings.Trim(w, "-.'"); w != "" {
			out = append(out, w)
		}
	}
	return out
}
