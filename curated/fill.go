package curated

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"
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
//   - integer, number: a number in the question;
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

var (
	dateInText   = regexp.MustCompile(`\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b`)
	numberInText = regexp.MustCompile(`-?\b[0-9]+(?:\.[0-9]+)?\b`)
)

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
		for _, m := range numberInText.FindAllString(question, -1) {
			cands = append(cands, json.Number(m))
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
	var found any
	seen := map[string]bool{}
	for _, c := range cands {
		v, err := p.check(c)
		if err != nil {
			continue
		}
		key := strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(seen) > 1 {
			return nil, false // two readings: the host decides
		}
		found = v
	}
	return found, len(seen) == 1
}

// containsPhrase reports whether text contains phrase as whole words,
// case-insensitively.
func containsPhrase(text, phrase string) bool {
	t, ph := strings.ToLower(text), strings.ToLower(strings.TrimSpace(phrase))
	if ph == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(t[i:], ph)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(ph)
		before := start == 0 || !isWordRune(rune(t[start-1]))
		after := end == len(t) || !isWordRune(rune(t[end]))
		if before && after {
			return true
		}
		i = start + 1
	}
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
