package tools

import (
	"encoding/json"
	"fmt"
	"strings"
)

// FitText is a text resource (a semantic file) within eng's budget: whole,
// or cut at a line boundary with a last line saying so. comment starts
// that line ("#" for YAML).
func FitText(eng any, text, comment string) string {
	budget := target(BudgetOf(eng))
	if len(text) <= budget/2 || quotedTokens(text) <= budget {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	used, n := 50, 0 // the closing note
	for _, l := range lines {
		c := quotedTokens(l)
		if used+c > budget {
			break
		}
		used += c
		n++
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("\n%s truncated: the first %d of %d lines fit this resource's %d-token budget; describe_schema and search_schema show the definitions table by table\n", comment, n, len(lines), budget)
}

// quotedTokens counts s as it is sent: a resource's text is a JSON string,
// its quotes and newlines escaped.
func quotedTokens(s string) int {
	b, _ := json.Marshal(s)
	return Tokens(string(b))
}
