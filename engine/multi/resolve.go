package multi

import (
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/nl2sql/nl2sql/index/lex"
)

// ResolveAnswer is the resolver's answer (step "resolve").
type ResolveAnswer struct {
	Reasoning   string   `json:"reasoning"`
	Answerable  bool     `json:"answerable"`
	Datasources []string `json:"datasources"`
	// Reason says why the question cannot be answered ("" when it can).
	Reason string `json:"reason"`
}

// ResolveSystem is the resolver's system prompt (step "resolve").
const ResolveSystem = `You decide which datasources a question needs. [DATASOURCES] lists the datasources you may use, most relevant first by word overlap, each with its id, description and table names. Answer with JSON only, in the given schema: answerable true with the ids of every datasource the question needs (one, or several when it combines their data), or answerable false with datasources [] and a one-sentence reason when none of them holds what the question asks about.`

// ResolveSchema is the JSON Schema of ResolveAnswer.
var ResolveSchema = func() json.RawMessage {
	b, _ := json.Marshal(jsObj(map[string]any{"reasoning": jsStr, "answerable": map[string]any{"type": "boolean"},
		"datasources": jsArr(jsStr), "reason": jsStr}))
	return b
}()

var camelRe = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// terms splits text into ranking terms: camelCase and snake_case split,
// lower-cased, stop words dropped and plurals reduced as the schema index
// does (lex.StopWord, lex.Singular: "genres" → "genre", "categories"
// → "category").
func terms(s string) []string {
	s = camelRe.ReplaceAllString(s, "$1 $2")
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if lex.StopWord(w) {
			continue
		}
		out = append(out, lex.Singular(w))
	}
	return out
}

// Ranked is a document's BM25 score against a question.
type Ranked struct {
	ID    string
	Score float64
}

// Field is one part of a ranked document with its weight: a word of it
// counts Weight times in the document's term frequencies and length.
type Field struct {
	Text   string
	Weight float64
}

// Rank scores each document (datasource description and table names)
// against the question with BM25 (k1 1.2, b 0.75) and sorts by score,
// ties by id.
func Rank(question string, docs map[string]string) []Ranked {
	fields := make(map[string][]Field, len(docs))
	for id, d := range docs {
		fields[id] = []Field{{d, 1}}
	}
	return RankFields(question, fields)
}

// RankFields is Rank over documents of weighted fields (BM25F with one
// length normalisation): the weights say which parts of a datasource are
// stronger evidence that a question is about it, a table named by the
// question more than a column of that name.
func RankFields(question string, docs map[string][]Field) []Ranked {
	k1, b := 1.2, 0.75
	q := terms(question)
	tf := map[string]map[string]float64{}
	df := map[string]int{}
	total := 0.0
	for id, fields := range docs {
		tf[id] = map[string]float64{}
		for _, f := range fields {
			for _, t := range terms(f.Text) {
				if tf[id][t] == 0 {
					df[t]++
				}
				tf[id][t] += f.Weight
				total += f.Weight
			}
		}
	}
	n := float64(len(docs))
	avg := total / math.Max(n, 1)
	out := make([]Ranked, 0, len(docs))
	for id, f := range tf {
		length := 0.0
		for _, c := range f {
			length += c
		}
		score := 0.0
		for _, t := range q {
			if f[t] == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			x := f[t]
			score += idf * x * (k1 + 1) / (x + k1*(1-b+b*length/math.Max(avg, 1)))
		}
		out = append(out, Ranked{id, math.Round(score*1e9) / 1e9})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Score > out[j].Score || out[i].Score == out[j].Score && out[i].ID < out[j].ID
	})
	return out
}
