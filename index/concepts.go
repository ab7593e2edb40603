package index

import (
	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/index/places"
)

// impliedNames are the column-name words a question word implies without
// spelling them: the attribute behind a comparison ("youngest" → age,
// birth date), a synonym schemas prefer ("nation" → country), the
// quantity behind an adjective ("tallest" → height). Stemming cannot find
// these (the words share no stem) and neither can character n-grams. The
// list is general schema vocabulary, written from what schemas commonly
// call things, not from any benchmark's columns; each entry reads
// "question words → name words". A column one of whose name words
// (singular) a question word implies ranks as a mention of the lowest
// weight, as an abbreviation does (mentionRank).
var impliedNames = []struct{ question, names []string }{
	{[]string{"young", "younger", "youngest", "old", "older", "oldest", "elder", "eldest", "aged"}, []string{"age", "birth", "born", "birthday", "dob"}},
	{[]string{"age", "ages"}, []string{"birth", "born", "birthday", "dob"}},
	{[]string{"born", "birth", "birthday"}, []string{"birth", "born", "birthday", "dob", "age"}},
	{[]string{"recent", "latest", "newest", "earliest", "oldest", "first", "last", "when"}, []string{"date", "time", "year", "day", "timestamp"}},
	{[]string{"nation", "nationality", "national"}, []string{"country", "nation", "nationality"}},
	{[]string{"country", "countries"}, []string{"nation", "nationality"}},
	{[]string{"where", "located", "location", "hometown"}, []string{"location", "address", "city", "country", "hometown", "town", "place", "region", "origin"}},
	{[]string{"expensive", "cheap", "cheaper", "cheapest", "costly", "price", "cost", "costs"}, []string{"price", "cost"}},
	{[]string{"tall", "taller", "tallest", "short", "shorter", "shortest"}, []string{"height"}},
	{[]string{"heavy", "heavier", "heaviest", "light", "lighter", "lightest"}, []string{"weight"}},
	{[]string{"long", "longer", "longest", "duration"}, []string{"length", "duration"}},
	{[]string{"big", "bigger", "biggest", "large", "larger", "largest", "small", "smaller", "smallest"}, []string{"size", "area", "capacity"}},
	{[]string{"die", "died", "dead", "death", "deaths", "kill", "killed", "fatal", "fatalities"}, []string{"death", "dead", "killed", "fatality", "died"}},
	{[]string{"male", "female", "men", "women", "man", "woman", "boy", "girl", "gender", "sex"}, []string{"gender", "sex"}},
	{[]string{"earn", "earns", "earned", "paid", "pay", "salary", "wage", "wages", "income"}, []string{"salary", "wage", "pay", "income", "earning", "revenue"}},
	{[]string{"name", "names", "called"}, []string{"title", "nm"}},
	{[]string{"title", "titles"}, []string{"name"}},
	{[]string{"abbreviation", "abbreviated", "abbreviate"}, []string{"abbreviation", "abbrev", "abbr", "code"}},
	{[]string{"phone", "telephone"}, []string{"phone", "telephone", "tel"}},
	{[]string{"job", "occupation", "profession"}, []string{"job", "occupation", "profession", "role", "position"}},
	{[]string{"score", "scores", "grade", "grades", "mark", "marks", "rating", "rated"}, []string{"score", "grade", "mark", "rating", "point"}},
	{[]string{"fast", "faster", "fastest", "slow", "slower", "slowest", "speed"}, []string{"speed"}},
	{[]string{"sold", "sell", "sells", "sale", "sales", "bought", "buy", "purchased", "purchases", "ordered"}, []string{"quantity", "qty", "unit", "amount", "sale", "revenue"}},
	{[]string{"revenue", "income", "turnover", "spent", "spend", "spending"}, []string{"amount", "total", "price", "revenue", "sale"}},
	{[]string{"often", "frequently", "frequent", "frequency"}, []string{"frequency", "count", "times"}},
	{[]string{"populous", "population", "inhabitants"}, []string{"population"}},
	// two-letter short forms, which lex.Abbreviates leaves to a list
	// (a contraction keeps three letters or more)
	{[]string{"year", "years", "yearly", "annual", "annually"}, []string{"yr"}},
	{[]string{"date", "dates", "dated"}, []string{"dt"}},
	{[]string{"money", "spent", "spend", "spending", "pay", "paid", "paying", "fee", "fees", "worth", "charge", "charged", "charges", "total", "totals"}, []string{"amount", "amt", "total", "price", "cost", "fee", "charge", "payment"}},
	{[]string{"share", "proportion", "percentage", "percent", "fraction", "rate"}, []string{"pct", "percent", "percentage", "share", "rate", "ratio"}},
	{[]string{"passenger", "passengers", "traveller", "travellers", "traveler", "travelers"}, []string{"pax", "passenger"}},
	// sales taxes by their names in different countries
	{[]string{"vat", "gst", "hst", "tax", "taxes", "taxed"}, []string{"tax", "vat", "gst"}},
	// who someone answers to: schemas say manager, supervisor or reports_to
	{[]string{"boss", "bosses", "manager", "managers", "supervisor", "supervisors", "supervises", "supervised", "superior"}, []string{"manager", "supervisor", "reports", "boss", "mgr"}},
	// the people who sell, as staff tables call them
	{[]string{"salesperson", "salespeople", "salesman", "salesmen", "saleswoman", "salesrep", "seller", "sellers"}, []string{"employee", "staff", "rep", "salesperson", "seller", "agent"}},
	{[]string{"airline", "airlines", "carrier", "carriers"}, []string{"carrier", "airline"}},
	{[]string{"units", "quantity", "quantities", "pieces", "items"}, []string{"qty", "quantity", "unit"}},
	// units of distance and the verbs of covering one: a column holds
	// the unit's short form (km) or the measure (distance)
	{[]string{"kilometre", "kilometres", "kilometer", "kilometers", "distance", "distances", "far", "farther", "farthest", "further", "furthest"}, []string{"km", "kms", "kilometre", "kilometer", "distance", "mileage"}},
	{[]string{"mile", "miles", "mileage"}, []string{"mi", "mile", "miles", "mileage", "distance"}},
	// units of mass and the words of weighing: a column holds the
	// measure (weight) and another its unit ('kg')
	{[]string{"kilogram", "kilograms", "kilo", "kilos", "gram", "grams", "tonne", "tonnes", "heavy", "heavier", "heaviest", "weighs", "weighed", "weighing"}, []string{"kg", "kgs", "weight", "mass", "tonnage"}},
	{[]string{"drove", "drive", "drives", "driven", "driving", "travelled", "traveled", "covered", "flew", "flown"}, []string{"km", "kms", "mi", "distance", "mileage"}},
	// the states a row's status column names in its own words ('done',
	// 'C'): the question's word need not be stored
	{[]string{"completed", "complete", "finished", "done", "fulfilled"}, []string{"status", "state"}},
	{[]string{"hold", "holds", "held", "stock", "stocked", "stocks", "inventory"}, []string{"stock", "qty", "quantity", "inventory", "onhand"}},
}

// impliedBy maps a question word (folded) to the name words it implies.
var impliedBy = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for _, e := range impliedNames {
		for _, q := range e.question {
			if m[q] == nil {
				m[q] = map[string]bool{}
			}
			for _, n := range e.names {
				m[q][n] = true
			}
		}
	}
	return m
}()

// implied is the set of name words the question's words imply
// (impliedNames); q holds the question's folded words as written.
func implied(q []string) map[string]bool {
	out := map[string]bool{}
	for _, w := range q {
		for n := range impliedBy[w] {
			out[n] = true
		}
		// "Canadian cities": a country's people imply its column,
		// whatever the column stores for it (a code the question
		// never spells).
		if places.Names(w) != nil {
			for n := range impliedBy["nation"] {
				out[n] = true
			}
		}
	}
	return out
}

// impliesName reports whether one of a name's words (lex.SplitWords), in the
// singular, is in the implied set.
func impliesName(name []string, set map[string]bool) bool {
	for _, w := range name {
		if set[w] || set[lex.Singular(w)] {
			return true
		}
	}
	return false
}
