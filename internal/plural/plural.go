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
