package tools

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/schema"
)

// SchemaResource is a schema resource's body: the snapshot as the caller
// may see it, or, when that would pass the result budget, its leading
// tables that fit, marked truncated with the total and where the rest is
// (describe_schema pages through every table).
type SchemaResource struct {
	*schema.Snapshot
	Truncated       bool   `json:"truncated,omitempty"`
	TruncatedReason string `json:"truncated_reason,omitempty"`
	TotalTables     int    `json:"total_tables,omitempty"`
	Hint            string `json:"hint,omitempty"`
}

// FitSchemaJSON is the JSON text of a schema resource within eng's budget.
// Tables are counted one by one and the result verified once.
func FitSchemaJSON(eng any, snap *schema.Snapshot) (string, error) {
	budget := target(BudgetOf(eng))
	b, err := json.Marshal(snap)
	if err != nil {
		return "", err
	}
	if len(b) <= budget/2 || quotedTokens(string(b)) <= budget {
		return string(b), nil
	}
	cut := func(n int) SchemaResource {
		return SchemaResource{Snapshot: &schema.Snapshot{Datasource: snap.Datasource, Dialect: snap.Dialect, Tables: snap.Tables[:n]},
			Truncated: true, TruncatedReason: TruncatedTokenBudget, TotalTables: len(snap.Tables),
			Hint: fmt.Sprintf("%d of %d tables fit this resource's %d-token budget; call describe_schema (it pages with a cursor) for the rest", n, len(snap.Tables), budget)}
	}
	head, _ := json.Marshal(cut(0))
	used, n := quotedTokens(string(head)), 0
	for _, t := range snap.Tables {
		tb, _ := json.Marshal(t)
		cost := quotedTokens(string(tb)) + 1
		if used+cost > budget {
			break
		}
		used += cost
		n++
	}
	for ; ; n-- {
		out, _ := json.Marshal(cut(n))
		if n == 0 || quotedTokens(string(out)) <= budget {
			return string(out), nil
		}
	}
}

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
