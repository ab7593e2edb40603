package cellfmt

import (
	"encoding/json"
	"strings"
)

// Quote is s as a JSON string, the way stored text is quoted as data in
// every human or model-facing rendering (the answer summary, schema
// samples, the result text): quotes, backslashes and control characters
// escaped, and nothing else. encoding/json's default would also write <, >
// and & as \u003c, \u003e and \u0026, so "Alternative & Punk" would read
// "Alternative \u0026 Punk": no longer the value the database holds.
//
//	cellfmt.Quote(`Rock & "Roll"`) // `"Rock & \"Roll\""`
func Quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
