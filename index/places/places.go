package places

import (
	_ "embed"
	"strings"
	"sync"
)

// countries is one line per country: its English demonyms, a tab, the
// names a database may store for it, items separated by "|" (see
// scripts/countries, which writes it).
//
//go:embed countries.tsv
var countries string

// byDemonym maps a one-word demonym, lower case, to the names of the
// countries it names, in file order (two for "french": France and its
// southern lands). Built on first use: most questions never ask.
var byDemonym = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(countries, "\n") {
		dem, names, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		for _, d := range strings.Split(dem, "|") {
			if d = strings.ToLower(d); !strings.Contains(d, " ") {
				m[d] = append(m[d], strings.Split(names, "|")...)
			}
		}
	}
	return m
})

// Names returns the names a database may store for the country whose
// people word names ("Canadian", "canadians" → Canada, CAN; "British" →
// United Kingdom, GBR, UK, Great Britain…), nil for a word that is no
// one-word demonym. The caller must not change the slice.
func Names(word string) []string {
	w := strings.ToLower(word)
	m := byDemonym()
	if n, ok := m[w]; ok {
		return n
	}
	if s, ok := strings.CutSuffix(w, "s"); ok {
		return m[s]
	}
	return nil
}
