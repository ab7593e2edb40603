package multi

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/planschema"
)

// decomposeSystemPrompt is the decomposer's stable system message.
const decomposeSystemPrompt = `You split a question that needs data from several datasources into sub-queries, and say how their results combine. Answer with JSON only, in the given schema.

sub_queries: one entry per datasource read. Each has
- ref: a short snake_case name for its result (e.g. "sales", "targets");
- datasource: the id of one datasource listed under [DATASOURCES];
- intent: what the sub-query returns, in plain words, answerable from that datasource alone ("Revenue per genre in 2024, from invoice lines"). Never write SQL: no SELECT ... FROM, no ';', no comments;
- expected_schema: its output columns in order, each {"name": snake_case identifier, "type": one of integer, decimal, float, text, boolean, date, timestamp}. Give the columns the combination needs: the join keys and the values.

combine: groups that put results together, each with a unique snake_case name, reading sub-query refs or earlier group names:
- "join": exactly two inputs, one with role "left" (or "base", "primary") and one with role "right" (or "compare", "secondary"); keys pair a left column with a right column; join_type "inner", "left" or "full". The output has every left column, then the right columns except its keys; a right column whose name is taken is renamed <right ref>_<name>.
- "compare": like join, always full: rows of both sides are kept, side by side where the keys match.
- "union": two or more inputs with role "member" and the same number of columns, stacked; label_column, when not null, names an added first column holding each row's input ref.
Key columns must be able to hold one type: numbers with numbers, dates with timestamps, text with anything but a blob (the text is parsed). A number or a boolean never joins a date.

post: a plan in the plan language over the results, or null. Its from items name sub-query refs or combine group names as tables (with an alias); it filters, aggregates, computes columns, sorts and limits, and names the final output columns. null selects every column of the one group no other group reads.

Every sub-query and group must be read by a later group or by post.`

// Prompt builds the decomposer's messages: the date, each picked
// datasource (sorted by id) with its schema context, the question, and the
// issues of the previous answer on a repair.
func Prompt(today, question string, blocks []Block, issues []planast.Issue) []llm.Message {
	var b strings.Builder
	b.WriteString("[TODAY]\n" + today + "\n\n[DATASOURCES]\n")
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].ID < blocks[j].ID })
	for _, d := range blocks {
		head, _ := json.Marshal(struct {
			ID          string `json:"id"`
			Dialect     string `json:"dialect"`
			Description string `json:"description"`
		}{d.ID, d.Dialect, d.Description})
		b.Write(head)
		b.WriteString("\n" + d.Schema + "\n\n")
	}
	b.WriteString("[QUESTION]\n" + question + "\n")
	writeIssues(&b, issues)
	return []llm.Message{{Role: "system", Content: decomposeSystemPrompt}, {Role: "user", Content: b.String()}}
}

// Block is one datasource as the decomposer sees it.
type Block struct {
	ID, Dialect, Description, Schema string
}

func writeIssues(b *strings.Builder, issues []planast.Issue) {
	if len(issues) == 0 {
		return
	}
	b.WriteString("\n[ERRORS IN YOUR LAST ANSWER]\n")
	for _, is := range issues {
		line, _ := json.Marshal(is)
		b.Write(line)
		b.WriteByte('\n')
	}
}

// Strict JSON Schema builders: every property required, none extra.
func jsObj(props map[string]any) map[string]any {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	sort.Strings(req)
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

func jsArr(items any) map[string]any { return map[string]any{"type": "array", "items": items} }

var jsStr = map[string]any{"type": "string"}

// Schema is the JSON Schema of Answer; post refers to the
// plan language's own schema (planschema.Strict), whose $defs it carries.
var Schema = func() json.RawMessage {
	var plan map[string]any
	if err := json.Unmarshal(planschema.Strict(), &plan); err != nil {
		panic("engine: plan schema: " + err.Error())
	}
	column := jsObj(map[string]any{"name": jsStr, "type": map[string]any{"type": "string",
		"enum": []string{"integer", "decimal", "float", "text", "boolean", "date", "timestamp"}}})
	sub := jsObj(map[string]any{"ref": jsStr, "datasource": jsStr, "intent": jsStr, "expected_schema": jsArr(column)})
	input := jsObj(map[string]any{"ref": jsStr, "role": map[string]any{"type": "string",
		"enum": []string{"left", "base", "primary", "right", "compare", "secondary", "member"}}})
	group := jsObj(map[string]any{
		"name": jsStr, "op": map[string]any{"type": "string", "enum": []string{"join", "compare", "union"}},
		"inputs": jsArr(input), "keys": jsArr(jsObj(map[string]any{"left": jsStr, "right": jsStr})),
		"join_type":    map[string]any{"type": []string{"string", "null"}, "enum": []any{"inner", "left", "full", nil}},
		"label_column": map[string]any{"type": []string{"string", "null"}},
	})
	root := jsObj(map[string]any{
		"reasoning": jsStr, "sub_queries": jsArr(sub), "combine": jsArr(group),
		"post": map[string]any{"anyOf": []any{map[string]any{"$ref": "#/$defs/Query"}, map[string]any{"type": "null"}}},
	})
	root["$defs"] = plan["$defs"]
	b, err := json.Marshal(root)
	if err != nil {
		panic("engine: decomposition schema: " + err.Error())
	}
	return b
}()
