package index

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"

	"github.com/nl2sql/nl2sql/engine/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// DefaultWholeSchemaTokens is the threshold of the whole-schema rule: a
// snapshot whose whole schema context (SchemaContext, o200k_base tokens)
// is at most this long is sent whole instead of retrieved.
//
// Why 4,000. Retrieval trades recall for tokens: measured with evalret it
// keeps every gold table for 98-99% of questions and 95-97% of gold
// columns, so a few questions in a hundred lose something the planner
// needed, and a planner that lacks a table cannot repair its plan. Sending
// the whole schema has recall 1.0 by construction. Below a few thousand
// tokens that certainty is cheap: 4,000 tokens is about as much as the
// planner's system prompt and answer together, and a whole schema is the
// same bytes for every question, so providers that cache prompt prefixes
// bill it at their cached rate after the first question. Above it the
// schema starts to dominate the prompt and to distract the model, and
// retrieval's median context (under 300 tokens on Spider and BIRD) wins.
// Measured whole contexts: Chinook 2,519 tokens (sent whole); Spider's
// databases 332-1,222 and BIRD mini-dev's schema-only files 523-1,164
// (sent whole by the engine; the evaluation turns the rule off to measure
// retrieval). A warehouse of a few hundred columns with profiles passes
// 4,000 quickly.
const DefaultWholeSchemaTokens = 4000

var (
	codecOnce sync.Once
	codec     tokenizer.Codec
)

// ContextTokens counts s in OpenAI's o200k_base encoding (GPT-4o and later)
// with github.com/tiktoken-go/tokenizer, whose vocabulary is compiled in:
// no network, no files. It is an estimate for other providers' tokenizers.
// Invalid UTF-8 is counted as is.
func ContextTokens(s string) int {
	codecOnce.Do(func() {
		c, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			panic("index: o200k_base tokenizer: " + err.Error()) // compiled in; cannot fail
		}
		codec = c
	})
	n, err := codec.Count(s)
	if err != nil {
		return len(s) / 4
	}
	return n
}

// SchemaContext renders a snapshot for the planner's prompt: one compact
// JSON object per line and table,
//
//	{"table":"Genre","columns":[{"name":"GenreId","type":"integer","pk":true},
//	  {"name":"Name","type":"text","samples":["Alternative","Blues",…]}],
//	  "foreign_keys":[{"columns":["ArtistId"],"references":"Artist(ArtistId)"}],"rows":25}
//
// tables sorted by name then schema, keys in a fixed order, so the same
// snapshot renders byte-identically. Of the profile only a text column's
// sample values and a numeric or temporal non-key column's [min, max]
// range are sent. It is the format of engine/prompt.go's schemaContext;
// render Selection.Filter's sub-snapshot with it.
func SchemaContext(snap *schema.Snapshot) string {
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
	sort.SliceStable(tables, func(i, j int) bool {
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
		fkCol := map[string]bool{}
		for _, fk := range t.ForeignKeys {
			for _, c := range fk.Columns {
				fkCol[c] = true
			}
		}
		for _, c := range t.Columns {
			cc := colCtx{Name: c.Name, Type: string(c.Type), PK: pk[c.Name]}
			if p := c.Profile; p != nil && !pk[c.Name] {
				if (c.Type.IsNumeric() || c.Type.IsTemporal()) && p.Min != nil && !fkCol[c.Name] {
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
