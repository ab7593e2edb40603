package engine

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/planast"
)

//go:embed prompts/plan_system.md
var planSystemPrompt string

// planPrompt builds the planner's messages. The system message is stable
// across questions (providers cache it as a prefix); everything that varies
// (the date, the schema context, the question, errors to fix) is in the user
// message, the date first.
func planPrompt(today, dialect, schemaCtx, question string, issues []planast.Issue) []llm.Message {
	var b strings.Builder
	b.WriteString("[TODAY]\n" + today + "\n\n")
	b.WriteString("[DIALECT]\n" + dialect + "\n\n")
	b.WriteString("[SCHEMA]\n" + schemaCtx + "\n\n")
	b.WriteString("[QUESTION]\n" + question + "\n")
	if len(issues) > 0 {
		b.WriteString("\n[ERRORS IN YOUR LAST PLAN]\n")
		for _, is := range issues {
			line, _ := json.Marshal(is)
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return []llm.Message{{Role: "system", Content: planSystemPrompt}, {Role: "user", Content: b.String()}}
}

// promptHash is sha256 of the messages with the run date masked, so a
// recording's stored hash changes only when the prompt itself does.
func promptHash(msgs []llm.Message, today string) string {
	h := sha256.New()
	for _, m := range msgs {
		h.Write([]byte(m.Role + "\x00" + strings.ReplaceAll(m.Content, today, "YYYY-MM-DD") + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// schemaContext renders the snapshot for the prompt: one compact JSON object
// per table, tables sorted by name and keys in a fixed order, so the same
// snapshot renders byte-identically. Only sample values and ranges of the
// profile are sent.
func schemaContext(snap *schema.Snapshot) string {
	type colCtx struct {
		Name    string `json:"name"`
		Type    string `json:"type"`
		PK      bool   `json:"pk,omitempty"`
		Samples []any  `json:"samples,omitempty"`
		Range   []any  `json:"range,omitempty"`
	}
	type fkCtx struct {
		Columns    []string `json:"columns"`
		References string   `json:"references"`
	}
	type tableCtx struct {
		Table       string   `json:"table"`
		Columns     []colCtx `json:"columns"`
		ForeignKeys []fkCtx  `json:"foreign_keys,omitempty"`
		Rows        *int64   `json:"rows,omitempty"`
	}
	tables := append([]schema.Table(nil), snap.Tables...)
	sort.Slice(tables, func(i, j int) bool {
		if tables[i].Name != tables[j].Name {
			return tables[i].Name < tables[j].Name
		}
		return tables[i].Schema < tables[j].Schema
	})
	var b strings.Builder
	for _, t := range tables {
		tc := tableCtx{Table: t.Name, Rows: t.RowCount}
		pk := map[string]bool{}
		for _, k := range t.PrimaryKey {
			pk[k] = true
		}
		for _, c := range t.Columns {
			cc := colCtx{Name: c.Name, Type: string(c.Type), PK: pk[c.Name]}
			if p := c.Profile; p != nil && !pk[c.Name] {
				if (c.Type.IsNumeric() || c.Type.IsTemporal()) && p.Min != nil && !isKeyColumn(t, c.Name) {
					cc.Range = []any{p.Min, p.Max}
				} else if c.Type == planast.TypeText && len(p.SampleValues) > 0 {
					cc.Samples = p.SampleValues
				}
			}
			tc.Columns = append(tc.Columns, cc)
		}
		for _, fk := range t.ForeignKeys {
			tc.ForeignKeys = append(tc.ForeignKeys, fkCtx{Columns: fk.Columns, References: fk.RefTable + "(" + strings.Join(fk.RefColumns, ", ") + ")"})
		}
		line, _ := json.Marshal(tc)
		b.Write(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

func isKeyColumn(t schema.Table, col string) bool {
	for _, fk := range t.ForeignKeys {
		for _, c := range fk.Columns {
			if c == col {
				return true
			}
		}
	}
	return false
}
