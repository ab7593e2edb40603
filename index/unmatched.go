package index

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/nl2sql/nl2sql/index/lex"
)

// computedWords are words of questions that a plan computes rather than
// reads: aggregates, rankings, periods, months, days and times of day
// ("after 10 pm", "before midnight"), comparisons and
// measures summed from amounts and the verbs of earning them ("the top 5
// by average", "monthly trend", "in March", "the first half", "revenue",
// "what they owe", "brought in"), the adverbs
// of speech ("actually", "roughly"), negation and its kin, which a plan
// writes as NOT EXISTS or a count of zero ("never bought", "without an
// order", "none of"), what the question asks be done
// ("return", "calculate", "identify"), and how the answer is to be written
// ("comma-separated", "padded", "in pounds", "in UTC"), how the rows are
// counted or taken together ("distinct", "unique", "combined",
// "cumulative"), the data itself and the
// people in it in general ("the most common", "in the table", "which
// people"). No schema names
// them, and their absence says nothing of whether the data answers.
var computedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`top bottom most least average avg mean median total totals sum count counts
		max maximum min minimum highest lowest best worst largest smallest biggest greatest fewest
		first last latest earliest recent current previous next ago since until
		year years yearly annual annually month months monthly quarter quarters quarterly week weeks weekly
		day days daily today yesterday tomorrow tonight hour hours time times period periods date dates half halves
		minute minutes midnight noon midday morning mornings afternoon afternoons evening evenings night nights overnight am pm
		revenue income earnings spend spending spent owe owed owing usage consumption money cash
		bring brings brought earn earns earned generate generates generated
		actually really exactly roughly approximately about around just still ever
		never always without none nothing nobody neither either whether
		list listed comma commas separated alphabetical alphabetically sorted padded rounded formatted
		pound pounds euro euros dollar dollars cent cents pence
		one two three four five six seven eight nine ten dozen hundred hundreds thousand thousands million millions
		trend trends growth change changes rate rates ratio share percent percentage proportion
		distribution breakdown compare compared comparison overall rank ranked ranking order ordered
		distinct unique different separate individual various respective combined cumulative aggregate aggregated altogether entire
		more less fewer higher lower between during across among within now currently plus minus
		get got want need know see common commonly highly mostly usually typically
		table tables row rows column columns record records entry entries field fields database data dataset value values
		people person persons someone anyone everyone everybody anybody somebody everything anything something thing things
		return returns display provide calculate compute identify write give gives
		january february march april may june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec
		monday tuesday wednesday thursday friday saturday sunday weekend weekday weekdays
		utc gmt timezone zone local`) {
		m[w] = true
	}
	return m
}()

// commonVerbs are the verbs of taking, doing and having, of happening
// and belonging ("which trips did she take", "what happened", "orders
// that contain"): they say what the rows are, never a fact of their own.
var commonVerbs = wordSet(`take takes took taken taking make makes made making do does did done doing
	have has had having go goes went gone going come comes came coming keep keeps kept keeping
	hold holds held holding put puts putting let lets happen happens happened happening occur occurs occurred occurring
	belong belongs belonged belonging contain contains contained containing include includes included including
	involve involves involved involving become becomes became remain remains remained stay stays stayed
	say says said seem seems seemed look looks looked`)

// measureAdjectives are adjectives of a measure whose comparative and
// superlative (measureComparisons: "longer", "cheapest", "bigger") ask for
// a comparison on some measure a plan orders or filters by: the measure
// (a distance, a price, a size) is what the data stores, not the word.
// Adjectives of one quantity the data may well lack (hot, cold: a
// temperature) are not among them.
var measureAdjectives = strings.Fields(`long short big small large tall high low cheap heavy fast slow quick
	old young new early late far near wide narrow deep shallow thick thin great few rich poor busy full
	costly pricey tiny huge strong weak easy hard dear`)

// measureComparisons are the comparatives and superlatives of
// measureAdjectives as English spells them (long → longer, longest; big →
// bigger; late → later; busy → busier), and the irregular ones.
var measureComparisons = func() map[string]bool {
	m := wordSet(`better best worse worst farther farthest further furthest elder eldest more most less least pricier priciest`)
	for _, a := range measureAdjectives {
		stem := a
		switch last := a[len(a)-1]; {
		case last == 'e':
			stem = a[:len(a)-1]
		case last == 'y':
			stem = a[:len(a)-1] + "i"
		case len(a) >= 3 && !isVowel(last) && last != 'w' && isVowel(a[len(a)-2]) && !isVowel(a[len(a)-3]):
			stem = a + string(last) // big → bigg-er, thin → thinn-est
		}
		m[stem+"er"], m[stem+"est"] = true, true
	}
	return m
}()

func isVowel(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }

// coveredBy are words a question says in other terms than the schema: a
// word of one of the lists is held when the schema holds a word of its
// cover (holdsWord). Opposites: "real" accounts are those a note or a
// value calls test, fake or demo (and a fake one is a test one), "open"
// ones those not closed. Synonyms
// of the people a table is of (a customer is a member, a client, a user).
// The verbs of an account's or a record's beginning ("opened in 2025")
// are read from a column of its start (signup_at, created_at, joined_on).
// The lists are general schema vocabulary, each entry reading "question
// words → words the schema may hold instead".
var coveredBy = []struct{ words, cover map[string]bool }{
	{wordSet(`real genuine actual legitimate authentic test testing fake dummy demo sandbox`),
		wordSet(`test tests testing fake dummy demo sandbox qa real genuine production live`)},
	{wordSet(`active inactive dormant disabled suspended deactivated`),
		wordSet(`active inactive dormant disabled enabled suspended deactivated churned cancelled canceled status`)},
	{wordSet(`open closed`), wordSet(`open closed close status`)},
	{wordSet(`customer client member user subscriber patron shopper buyer purchaser consumer`),
		wordSet(`customer client member user subscriber patron shopper buyer purchaser consumer account`)},
	{wordSet(`staff employee worker personnel`), wordSet(`staff employee worker personnel`)},
	{wordSet(`opened created registered joined enrolled founded established launched started began begun onboarded subscribed`),
		wordSet(`created creation signup registered registration joined join enrolled enrollment enrolment opened opening start started founded established launched onboarded subscribed since`)},
}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// maxUnmatchedHits bounds the documents one word's search lists: a word
// with more hits than that is taken as matched (a common word is).
const maxUnmatchedHits = 1000

// Unmatched lists the words of text that nothing allow permits holds: no
// table or column name, comment or profile sample shares the word as the
// full-text ranking reads it (stemmed, stop words out), and no stored
// value spells it. Each is listed once, as the text writes it, in its
// order; the words Weighed leaves out are never listed, nor the negation
// of a word the data holds ("unpaid" of 'paid') or a word the data says
// in other terms (coveredBy: "real" of a note on test accounts,
// "customer" of a members table, "opened" of signup_at). A search whose
// every word is in the schema but one ("reason" in "accounts closed for
// which reason") still ranks tables high; the word nothing holds is what
// says the data may not answer it.
func (ix *Index) Unmatched(ctx context.Context, text string, allow Allow) ([]string, error) {
	if ix == nil || ix.text == nil {
		return nil, nil
	}
	acc := ix.access(allow)
	an := ix.text.Mapping().AnalyzerNamed(en.AnalyzerName)
	if an == nil {
		return nil, nil
	}
	var out []string
	for _, word := range ix.weighed(text, &acc) {
		if ix.namesWord(lex.Fold(word), acc) {
			continue // a name's word, however the analyser stems it
		}
		held, err := ix.holdsWord(ctx, an, word, acc)
		// "unpaid", "non-food": the negation of a word the data holds is
		// a filter on it ('paid')
		for _, neg := range []string{"un", "non"} {
			if rest, cut := strings.CutPrefix(strings.ToLower(word), neg); cut && !held && err == nil && len(rest) >= 3 {
				held, err = ix.holdsWord(ctx, an, rest, acc)
			}
		}
		f := lex.Fold(word)
		for _, c := range coveredBy {
			if held || err != nil || !c.words[f] && !c.words[lex.Singular(f)] {
				continue
			}
			for _, w := range slices.Sorted(maps.Keys(c.cover)) {
				if held, err = ix.holdsWord(ctx, an, w, acc); held || err != nil {
					break
				}
			}
		}
		if err != nil {
			return nil, err
		}
		if !held {
			out = append(out, word)
		}
	}
	return out, nil
}

// Weighed lists the words of text whose absence from the data Unmatched
// weighs, once each (by analysed term), as the text writes them, in its
// order: not words with a digit, words of fewer than three letters,
// words of questions that carry no schema signal (lex.StopWord: "much",
// "per"), words a plan computes (computedWords: "average", "monthly"),
// common verbs (commonVerbs: "take", "did") nor the comparatives of a
// measure (measureComparisons: "longer", "cheapest"). A question none of
// whose weighed words the data holds matches nothing, whatever a fuzzy
// value or a title spelling one of the other words ("Today") says.
//
// A word that names a table or column allow permits (namesWord: "order"
// of orders, "date" of a date column, "count" of a column named count) is
// weighed whatever list holds it: it is a word of the schema before it is
// one of the question, and left out it would let a question that names a
// table ("the average basket size per order") read as one the data holds
// no word of.
func (ix *Index) Weighed(text string, allow Allow) []string {
	if ix == nil || ix.text == nil {
		return nil
	}
	acc := ix.access(allow)
	return ix.weighed(text, &acc)
}

// weighed is Weighed of the names acc permits; with no acc (nil) a word
// of the lists is never weighed, whatever it names.
func (ix *Index) weighed(text string, acc *access) []string {
	if ix == nil || ix.text == nil {
		return nil
	}
	an := ix.text.Mapping().AnalyzerNamed(en.AnalyzerName)
	if an == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, tk := range an.Analyze([]byte(text)) {
		term := string(tk.Term)
		word := text[tk.Start:tk.End]
		if seen[term] || len([]rune(word)) < 3 || !onlyLetters(word) {
			continue
		}
		if acc == nil || !ix.namesWord(lex.Fold(word), *acc) {
			if lex.StopWord(lex.Fold(word)) || lex.StopWord(lex.Singular(lex.Fold(word))) || computedWords[lex.Fold(word)] {
				continue
			}
			if commonVerbs[lex.Fold(word)] || measureComparisons[lex.Fold(word)] {
				continue
			}
		}
		seen[term] = true
		out = append(out, word)
	}
	return out
}

// namesWord reports whether the folded word w is, in the singular
// (lex.Singular, the module's one plural rule), a word of the name of a
// table or column acc permits: "order" and "orders" of orders, "group" of
// user_groups, "date" of order_date.
func (ix *Index) namesWord(w string, acc access) bool {
	for _, k := range ix.names.named[lex.Singular(w)] {
		if k[1] < 0 && acc.table[k[0]] || k[1] >= 0 && acc.col[k[0]][k[1]] {
			return true
		}
	}
	return false
}

// holdsWord reports whether something acc permits holds word: a schema
// document one of its analysed terms, a column whose name it implies, or
// a stored value it spells or one of whose words it is.
func (ix *Index) holdsWord(ctx context.Context, an analysis.Analyzer, word string, acc access) (bool, error) {
	for _, tk := range an.Analyze([]byte(word)) {
		if held, err := ix.holdsTerm(ctx, string(tk.Term), acc); held || err != nil {
			return held, err
		}
	}
	if ix.impliesColumn(word, acc) || ix.phrasalColumn(lex.Fold(word), acc) {
		return true, nil
	}
	if ix.vals == nil {
		return false, nil
	}
	ok := func(t, c int) bool { return acc.col[t][c] }
	hits, err := ix.vals.Match(ctx, word, ok, false)
	if len(hits) > 0 || err != nil {
		return len(hits) > 0, err
	}
	return ix.vals.HoldsWord(ctx, word, ok)
}

// impliesColumn reports whether word implies a name word of a column acc
// permits (impliedNames): "female" a sex or gender column, whose values
// ('F') spell no word of the question.
func (ix *Index) impliesColumn(word string, acc access) bool {
	imp := implied([]string{lex.Fold(word)})
	if len(imp) == 0 {
		return false
	}
	for t, cols := range ix.names.column {
		for c, ws := range cols {
			if acc.col[t][c] && impliesName(ws, imp) {
				return true
			}
		}
	}
	return false
}

// phrasalColumn reports whether word is the verb of a column's name word
// made of a verb and its particle (lex.Phrasal: "signed" of signup_ts),
// which no analysed term of the name shares.
func (ix *Index) phrasalColumn(word string, acc access) bool {
	for t, cols := range ix.names.column {
		for c, ws := range cols {
			if acc.col[t][c] && slices.ContainsFunc(ws, func(w string) bool { return lex.Phrasal(w, word) }) {
				return true
			}
		}
	}
	return false
}

// holdsTerm reports whether a schema document acc permits holds the
// analysed term in any field (each as access.fieldQuery permits it).
func (ix *Index) holdsTerm(ctx context.Context, term string, acc access) (bool, error) {
	ok := acc.doc
	var qs []query.Query
	for _, f := range fieldBoosts {
		q := bleve.NewTermQuery(term)
		q.SetField(f.field)
		qs = append(qs, acc.fieldQuery(f.field, q))
	}
	res, err := ix.text.SearchInContext(ctx, bleve.NewSearchRequestOptions(bleve.NewDisjunctionQuery(qs...), maxUnmatchedHits, 0, false))
	if err != nil {
		return false, fmt.Errorf("index: search: %w", err)
	}
	if res.Total > uint64(len(res.Hits)) {
		return true, nil
	}
	for _, h := range res.Hits {
		if i, found := ix.byID[h.ID]; found && ok[i] {
			return true, nil
		}
	}
	return false, nil
}

// onlyLetters reports whether s is letters alone: a word with digits is
// a code or a value ("BR1234", a password), whose absence says nothing of
// what the data holds, and is never echoed back.
func onlyLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
