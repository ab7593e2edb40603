// Package values owns the literal values a question can name: which
// columns' values are stored (text columns, not temporal, not secret by
// name), fetching them from the database fewest distinct first within a
// budget (Source, FromQuery), the bleve index over their words (one
// document per distinct value of a column, several-word values also
// written together so "acdc" finds AC/DC), matching a question against
// it (Match: exact, stem, fuzzy, prefix or a country its people name,
// verified word by word, the candidate search remembered per question),
// and the columns a year the question names may filter (YearColumns).
//
// It never ranks or selects schema documents, never decides who may see
// a column (Match and YearColumns take the caller's permission as a
// function and apply it on every call, after the remembered search) and
// never stores itself: package index builds it beside its own text index,
// writes Docs to disk and reopens it with Open. Its Hits carry table and
// column positions in the snapshot it was built from; turning them into
// names and Selection values is package index's business.
//
// Worked example: Chinook, whose Artist.Name holds "AC/DC":
//
//	vx, _ := values.Build(ctx, snap, values.Options{
//		Source: values.FromQuery(query), MaxDistinct: 10000, MaxTotal: 100000, MaxLen: 80,
//	}, "") // "" keeps the bleve index in memory
//	defer vx.Close()
//	hits, _ := vx.Match(ctx, "albums by ACDC", func(t, c int) bool { return true }, true)
//	// hits[0]: Table, Col of Artist.Name, Value "AC/DC", Match "exact"
//	// (the value's words written together equal the question's word),
//	// Quality 0.95·(1+0.05·4); hits[1] is Track.Composer's "AC/DC", as good
//
// FromQuery pages through SELECT DISTINCT "Name" FROM "main"."Artist" …
// in pages of 1,000 rows; a column the profile lists whole is not asked.
package values
