// Package plural holds the one English plural rule of the module: bleve's
// plural stemmer on one folded word. It sits in the language layer so
// that the plan validator (a key column named after the table it keys,
// order_items.product_id for products) and retrieval (index/lex) read
// plurals alike.
//
// Example:
//
//	plural.Singular("countries") // "country"
//	plural.Singular("status")    // "status"
package plural

import (
	"strconv"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

var stemmer = en.NewEnglishPluralStemmerFilter()

// Singular is bleve's English plural stemmer on one folded word ("dogs" →
// "dog", "countries" → "country", "classes" → "class", "heroes" →
// "hero"; "status", "glass" stay). It is deliberately lighter than the
// Porter stemmer the full-text index uses, whose stems ("compani",
// "countri") are not words a stored value could equal.
func Singular(w string) string {
	ts := stemmer.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(w)}})
	return string(ts[0].Term)
}

// Count is n with the noun for it: "1 table", "2 tables".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Relations is "5 tables, 1 view" for n tables and views of which views
// are views, the one way every surface counts them: "6 tables" read as
// one more table than the user made.
func Relations(n, views int) string {
	s := Count(n-views, "table", "tables")
	if views > 0 {
		s += ", " + Count(views, "view", "views")
	}
	return s
}
