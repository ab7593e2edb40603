package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tiktoken-go/tokenizer"

	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/planschema"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// guideTokenBudget bounds the guide (rules and shapes) in o200k_base
// tokens: it is sent to a model with every get_plan_schema call, and
// covers every construct a host would otherwise dig out of the schema.
const guideTokenBudget = 2600

func TestPlanGuideTokens(t *testing.T) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	n, err := codec.Count(PlanGuide)
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := codec.Count(planRules)
	t.Logf("PlanGuide: %d o200k_base tokens (%d rules, %d shapes), %d bytes", n, rules, n-rules, len(PlanGuide))
	if n > guideTokenBudget {
		t.Errorf("PlanGuide is %d tokens; the budget is %d", n, guideTokenBudget)
	}
}

// The guide shows every shape a host needs, each example using it.
func TestPlanGuideShowsEveryShape(t *testing.T) {
	need := map[string]string{ // shape → what its example must hold
		"derived table":       `"subquery":{"select"`,
		"correlated subquery": `"kind":"subquery"`,
		"window function":     `"kind":"window"`,
		"window filter":       `"qualify":`,
		"top-N with ties":     `"with_ties":true`,
		"period label":        `"PERIOD_LABEL"`,
		"alias in group_by":   `"group_by":[{"kind":"column","column":`,
		"having":              `"having":{"kind":"binary","op":">","left":{"kind":"column","column":`,
		"CASE":                `"kind":"case"`,
		"date range filter":   `"type":"date"`,
		"semantic metric":     `"kind":"metric"`,
		"CTE (with)":          `"with":[{"name":`,
		"set operation":       `"set_ops":[{"op":`,
		"NOT EXISTS":          `"kind":"exists","negated":true,"subquery":`,
		"IN list":             `"kind":"in","expr":`,
		"join condition":      `"condition":{`,
	}
	for shape, must := range need {
		found := false
		for _, s := range PlanShapes {
			if strings.Contains(s.Shapes, shape) {
				found = true
				if !strings.Contains(s.Plan, must) {
					t.Errorf("%s: the example does not show it (no %s)", shape, must)
				}
			}
		}
		if !found {
			t.Errorf("the guide shows no %s", shape)
		}
	}
	for _, rule := range []string{"row_limit (default 1000)", "row_limit+1", "truncated", "is capped",
		"by position, ascending, nulls last", "covers its whole day"} {
		if !strings.Contains(PlanGuide, rule) {
			t.Errorf("the guide does not state %q", rule)
		}
	}
}

// Every JSON object the guide's text shows decodes in the plan language:
// a host copies them, so a fragment naming a field the decoder refuses
// (a scalar subquery's "query" written for exists' "subquery") costs it a
// refused plan. Whole plans must also validate on Chinook; fragments are
// decoded as a select item's expression.
func TestPlanGuideJSONDecodes(t *testing.T) {
	_, snap := openChinook(t)
	plans, frags := 0, 0
	for _, text := range guideJSON(PlanGuide + "\n" + PlanExample) {
		var m map[string]any
		if json.Unmarshal([]byte(text), &m) != nil {
			continue // prose notation such as {"table": alias, "column"}
		}
		if _, ok := m["select"]; ok {
			plans++
			q, err := planast.Decode([]byte(text), planast.DefaultLimits)
			if err != nil {
				t.Errorf("%v\n%s", err, text)
				continue
			}
			if _, ok := m["with"]; !ok && strings.Contains(text, `"kind":"metric"`) {
				continue // expanded with the semantic layer by TestPlanGuideShapesRunOnChinook
			}
			if _, err := validate.Plan(q, snap, validate.Options{}); err != nil {
				t.Errorf("%v\n%s", err, text)
			}
			continue
		}
		frags++
		wrapped := `{"select":[{"expr":` + text + `,"alias":"x"}],"from":[{"table":"Track","alias":"t"}]}`
		if _, err := planast.Decode([]byte(wrapped), planast.DefaultLimits); err != nil {
			t.Errorf("fragment %s: %v", text, err)
		}
	}
	if plans < len(PlanShapes)+1 || frags == 0 {
		t.Errorf("found %d plans and %d fragments in the guide; it shows %d plans", plans, frags, len(PlanShapes)+1)
	}
}

// guideJSON returns every outermost {...} span of text, braces balanced
// outside JSON strings.
func guideJSON(text string) []string {
	var out []string
	depth, start, inStr, esc := 0, 0, false, false
	for i, r := range text {
		switch {
		case inStr && esc:
			esc = false
		case inStr && r == '\\':
			esc = true
		case r == '"' && depth > 0:
			inStr = !inStr
		case inStr:
		case r == '{':
			if depth == 0 {
				start = i
			}
			depth++
		case r == '}' && depth > 0:
			depth--
			if depth == 0 {
				out = append(out, text[start:i+1])
			}
		}
	}
	return out
}

// Every example in the guide is a plan the server runs: it satisfies the
// host schema, decodes, validates against Chinook (its semantic layer
// expanding metrics), renders on every dialect and returns rows from
// examples/chinook/chinook.sqlite.
func TestPlanGuideShapesRunOnChinook(t *testing.T) {
	ctx := context.Background()
	src, snap := openChinook(t)
	layer, err := semantic.Load("../examples/chinook/semantic/semantic.yaml", "semantic.yaml", snap)
	if err != nil {
		t.Fatal(err)
	}
	sch := compileHostSchema(t)
	plans := append([]PlanShape{{"example", "the artist with the most albums", PlanExample}}, PlanShapes...)
	for _, s := range plans {
		t.Run(s.Shapes, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(s.Plan))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Errorf("the host schema refuses it: %v", err)
			}
			q, err := planast.Decode([]byte(s.Plan), planast.DefaultLimits)
			if err != nil {
				t.Fatal(err)
			}
			q, _, err = planast.Expand(q, layer)
			if err != nil {
				t.Fatal(err)
			}
			v, err := validate.Plan(q, snap, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Warnings) > 0 {
				t.Errorf("warnings: %v", v.Warnings)
			}
			var sqlite string
			for _, name := range []string{"sqlite", "duckdb", "postgres"} {
				d, ok := render.Lookup(name)
				if !ok {
					t.Fatalf("no dialect %s", name)
				}
				sql, err := render.SQL(v.Plan, d, render.Options{MaxRows: 1001})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if name == "sqlite" {
					sqlite = sql
				}
			}
			res, err := src.Query(ctx, sqlite, nil, 1000)
			if err != nil {
				t.Fatalf("%v\n%s", err, sqlite)
			}
			if len(res.Rows) == 0 || res.Truncated {
				t.Errorf("%d rows (truncated %v) for %q\n%s", len(res.Rows), res.Truncated, s.Question, sqlite)
			}
		})
	}
}

// openChinook opens examples/chinook/chinook.sqlite (closed with the
// test) and its snapshot, or skips the test without it.
func openChinook(t *testing.T) (*sqlite.SQLite, *schema.Snapshot) {
	t.Helper()
	const db = "../examples/chinook/chinook.sqlite"
	if _, err := os.Stat(db); err != nil {
		t.Skipf("no Chinook database: %v", err)
	}
	ctx := context.Background()
	src, err := sqlite.OpenSQLite(ctx, "chinook", db, source.Options{RowLimit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return src, snap
}

func compileHostSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(planschema.Host()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("plan.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("plan.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// get_plan_schema serves the host form by default and the strict one on
// request; anything else is refused with a hint.
func TestGetPlanSchemaForms(t *testing.T) {
	h := GetPlanSchemaHandler()
	for form, want := range map[string]json.RawMessage{"": planschema.Host(), "host": planschema.Host(), "strict": planschema.Strict()} {
		req := mcpCall(map[string]any{})
		if form != "" {
			req = mcpCall(map[string]any{"form": form})
		}
		res, err := h(context.Background(), req)
		if err != nil || res.IsError {
			t.Fatalf("form %q: %v %+v", form, err, res)
		}
		out := res.StructuredContent.(PlanSchemaOutput)
		if !bytes.Equal(out.Schema, want) {
			t.Errorf("form %q: served the wrong schema (form %q)", form, out.Form)
		}
	}
	res, _ := h(context.Background(), mcpCall(map[string]any{"form": "loose"}))
	if !res.IsError {
		t.Error("an unknown form is accepted")
	}
}

// The threat: every plan a host writes starts with get_plan_schema, and
// the whole answer (guide, example, JSON Schema) is 24k characters of its
// context, most of it a schema the guide already teaches. The guide form
// a plan-it-yourself result points to carries the guide and the example
// and no schema, at under half the tokens, and says how to get the schema.
func TestGetPlanSchemaGuideForm(t *testing.T) {
	h := GetPlanSchemaHandler()
	text := func(form string) (string, PlanSchemaOutput) {
		res, err := h(context.Background(), mcpCall(map[string]any{"form": form}))
		if err != nil || res.IsError {
			t.Fatalf("form %q: %v %+v", form, err, res)
		}
		return res.Content[0].(mcpgo.TextContent).Text, res.StructuredContent.(PlanSchemaOutput)
	}
	guide, out := text("guide")
	whole, _ := text("host")
	if out.Schema != nil || strings.Contains(guide, `"$defs"`) || !strings.Contains(guide, PlanGuide) || !strings.Contains(guide, `form "host"`) {
		t.Errorf("the guide form: schema %d bytes, text %d chars; want the guide, the example and where the schema is, no schema", len(out.Schema), len(guide))
	}
	if g, w := Tokens(guide), Tokens(whole); 2*g >= w {
		t.Errorf("the guide form is %d tokens against %d for the whole: want under half", g, w)
	}
	t.Logf("get_plan_schema text: guide form %d tokens (%d chars), host form %d tokens (%d chars)", Tokens(guide), len(guide), Tokens(whole), len(whole))
}

func mcpCall(args map[string]any) mcpgo.CallToolRequest {
	return mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Arguments: args}}
}

// A host writing a comparison or a logical operator guesses its spelling
// when the guide lists none ("<>", "AND", "=="), and a guess the decoder
// does not take costs a refused plan and a round trip: the guide lists
// every binary operator the plan's JSON Schema allows, in its order.
func TestPlanGuideListsEveryBinaryOperator(t *testing.T) {
	var s struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(planschema.Host(), &s); err != nil {
		t.Fatal(err)
	}
	ops := s.Defs["BinaryExpr"].Properties["op"].Enum
	if len(ops) < 10 {
		t.Fatalf("the schema's binary operators: %v", ops)
	}
	if want := `"op": ` + strings.Join(ops, " ") + `,`; !strings.Contains(PlanGuide, want) {
		t.Errorf("the guide does not list the binary operators as %s", want)
	}
}
