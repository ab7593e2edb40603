// Command countries writes index/places/countries.tsv from the countries
// data set of mledoze/countries (ODbL 1.0), whose countries.json it reads:
//
//	go run ./scripts/countries -in /path/to/mledoze/countries.json > index/places/countries.tsv
//
// Each line is one country: its English demonyms, then the names a
// database may store for it (common and official name, ISO alpha-3 code,
// the other spellings the data set lists), each field separated by tabs,
// the items of a field by "|". Two-letter codes are left out of the names
// (an alpha-2 "CA" is California as often as Canada), but for spellings
// such as "UK" that are not the country's ISO code.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"
)

type country struct {
	Name struct {
		Common   string `json:"common"`
		Official string `json:"official"`
	} `json:"name"`
	CCA2     string   `json:"cca2"`
	CCA3     string   `json:"cca3"`
	Alt      []string `json:"altSpellings"`
	Demonyms map[string]struct {
		F string `json:"f"`
		M string `json:"m"`
	} `json:"demonyms"`
}

func main() {
	in := flag.String("in", "countries.json", "mledoze/countries countries.json")
	flag.Parse()
	b, err := os.ReadFile(*in)
	if err != nil {
		fatal(err)
	}
	var cs []country
	if err := json.Unmarshal(b, &cs); err != nil {
		fatal(err)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].CCA3 < cs[j].CCA3 })
	fmt.Println("# demonyms\tnames — from mledoze/countries (https://github.com/mledoze/countries), ODbL 1.0; regenerate with scripts/countries")
	for _, c := range cs {
		d := c.Demonyms["eng"]
		dem := uniq(ascii(d.M), ascii(d.F))
		if len(dem) == 0 {
			continue
		}
		names := uniq(ascii(c.Name.Common), ascii(c.Name.Official), c.CCA3)
		for _, a := range c.Alt {
			if a = ascii(a); len(a) > 1 && !strings.EqualFold(a, c.CCA2) && len(a) <= 40 {
				names = uniq(append(names, a)...)
			}
		}
		fmt.Printf("%s\t%s\n", strings.Join(dem, "|"), strings.Join(names, "|"))
	}
}

// ascii is s when it is printable ASCII without the field separators, else "".
func ascii(s string) string {
	for _, r := range s {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) || r == '|' || r == '\t' {
			return ""
		}
	}
	return strings.TrimSpace(s)
}

func uniq(ss ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if k := strings.ToLower(s); s != "" && !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "countries:", err)
	os.Exit(1)
}
