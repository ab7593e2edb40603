package tools

import (
	"context"
	"encoding/json"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/planast/planschema"
)

// planRules is the guide's text part: what a host cannot read off the
// schema (how rows are capped and ordered, how dates compare).
const planRules = `A plan is a JSON query tree, never SQL. The server checks it against the schema and your access and runs it read-only.

- "from" lists sources, each a "table" as listed (schema.table outside the default schema) and an "alias"; the first is the base; every later source is the "right" of exactly one join whose "left" is an alias already joined; "on" pairs a column of left with one of right; "type" is inner (default), left, right or full. Filter an outer join's optional side in the join's "condition" ("where" drops the unmatched rows). Join on the foreign keys listed; other joins get a warning, unless named as the other's key (product_id = products.id) or on all of its key.
- Expression kinds: column {"table": alias, "column"}, literal {"type", "value"}, binary {"op": + - * / div % = != < <= > >= and or, "left", "right"} ("div" integer division), func {"name", "args", "distinct"} (any case), window {"name", "args", "partition_by", "order_by"}, case, cast, in {"expr", "list"} or {"expr", "subquery"}, exists {"subquery"}, subquery {"query"} (scalar), between, like, is_null, unary, metric, filter. "negated": true negates in, exists, between, like, is_null.
- A join's "condition" is ANDed to its "on" pairs ("on": [] if it alone joins). "with": [{"name", "query"}] defines CTEs "from" names as tables. "set_ops": [{"op": "union"|"union_all"|"intersect"|"except", "query"}] combines the query with others of the same columns.
- A computed select item needs an "alias". With aggregates, group_by the other selected columns (not literals); filter aggregates in "having". order_by, group_by, having and a window's partition_by/order_by may name a select item that is no window by alias: {"kind": "column", "column": "<alias>"} (not a source column's name). SUM/AVG/COUNT over a table joined to rows that refer to it counts each of its rows once per match: aggregate it in a subquery first. "qualify" filters window results by alias.
- Rows: at most the datasource's row_limit (default 1000); a larger "limit" is capped (LIMIT row_limit+1: an extra row marks it truncated). After your order_by the SQL sorts by the other select columns by position, ascending, nulls last, so engines agree; without order_by a cut result keeps the engine's first rows: order_by whenever a limit may cut. "with_ties": true (with limit and order_by) keeps rows tying with the last; "offset" needs order_by.
- Dates: write literals {"kind": "literal", "type": "date", "value": "2010-03-31"} (YYYY-MM-DD) or type timestamp "YYYY-MM-DD HH:MM:SS", not CURRENT_DATE. A date compared with a timestamp covers its whole day. DATE_PART, DATE_TRUNC, PERIOD_LABEL (text 2010, 2010-Q1, 2010-03) take (unit, x); DATE_ADD(unit, n, x) keeps a timestamp's time; DATE_DIFF_DAYS(end, start) counts calendar days; ELAPSED_SECONDS(end, start) (hours: / 3600); FROM_EPOCH_SECONDS(unix seconds); unit is year|quarter|month|day; DATE_PART also takes week (ISO, 1-53), doy, dow (0 = Sunday), hour, minute; DATE_TRUNC week (to Monday), hour, minute (timestamps). SUBSTR(x, start, len): a negative start counts from the end; POSITION(text, sub); CONCAT is NULL if any argument is; integers join as digits. timestamptz, text with an offset and timestamp literals are UTC; AT_TIME_ZONE(x, zone): local time.
- Text compares case-sensitively; {"kind": "like", "expr", "pattern": {"kind": "literal", "value": "%a%"}, "case_insensitive": true} ignores case ("\" escapes).
- Where describe_schema lists a semantic layer, {"kind": "metric"|"filter", "name", "table": alias} uses its definitions.`

// PlanShape is one short example of a plan shape hosts need, on Chinook.
type PlanShape struct {
	Shapes   string // the shapes it shows
	Question string
	Plan     string
}

// PlanShapes are the guide's examples. Each is decoded, validated,
// rendered and run on examples/chinook/chinook.sqlite by a test.
var PlanShapes = []PlanShape{
	{"derived table", "average number of invoices per customer",
		`{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"column","table":"d","column":"n"}]},"alias":"avg_invoices"}],"from":[{"alias":"d","subquery":{"select":[{"expr":{"kind":"column","table":"i","column":"CustomerId"},"alias":"cid"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"Invoice","alias":"i"}],"group_by":[{"kind":"column","table":"i","column":"CustomerId"}]}}]}`},
	{"correlated subquery", "tracks longer than their album's average",
		`{"select":[{"expr":{"kind":"column","table":"t","column":"Name"},"alias":"track"}],"from":[{"table":"Track","alias":"t"}],"where":{"kind":"binary","op":">","left":{"kind":"column","table":"t","column":"Milliseconds"},"right":{"kind":"subquery","query":{"select":[{"expr":{"kind":"func","name":"AVG","args":[{"kind":"column","table":"t2","column":"Milliseconds"}]},"alias":"avg_ms"}],"from":[{"table":"Track","alias":"t2"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t2","column":"AlbumId"},"right":{"kind":"column","table":"t","column":"AlbumId"}}}}},"limit":5}`},
	{"window function, window filter (qualify)", "the two longest tracks of each genre",
		`{"select":[{"expr":{"kind":"column","table":"g","column":"Name"},"alias":"genre"},{"expr":{"kind":"column","table":"t","column":"Name"},"alias":"track"},{"expr":{"kind":"window","name":"RANK","partition_by":[{"kind":"column","table":"g","column":"GenreId"}],"order_by":[{"expr":{"kind":"column","table":"t","column":"Milliseconds"},"direction":"desc"}]},"alias":"rank_in_genre"}],"from":[{"table":"Track","alias":"t"},{"table":"Genre","alias":"g"}],"joins":[{"left":"t","right":"g","on":[{"left_column":"GenreId","right_column":"GenreId"}]}],"qualify":{"kind":"binary","op":"<=","left":{"kind":"column","column":"rank_in_genre"},"right":{"kind":"literal","value":2}},"order_by":[{"expr":{"kind":"column","column":"genre"}},{"expr":{"kind":"column","column":"rank_in_genre"}}]}`},
	{"top-N with ties", "the 3 customers who spent most, ties included",
		`{"select":[{"expr":{"kind":"column","table":"c","column":"LastName"},"alias":"customer"},{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"Total"}]},"alias":"spent"}],"from":[{"table":"Invoice","alias":"i"},{"table":"Customer","alias":"c"}],"joins":[{"left":"i","right":"c","on":[{"left_column":"CustomerId","right_column":"CustomerId"}]}],"group_by":[{"kind":"column","table":"c","column":"CustomerId"}],"order_by":[{"expr":{"kind":"column","column":"spent"},"direction":"desc"}],"limit":3,"with_ties":true}`},
	{"date range filter, period label, alias in group_by and having", "monthly revenue in the first half of 2021, months over 37",
		`{"select":[{"expr":{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","value":"month"},{"kind":"column","table":"i","column":"InvoiceDate"}]},"alias":"month"},{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"Total"}]},"alias":"revenue"}],"from":[{"table":"Invoice","alias":"i"}],"where":{"kind":"between","expr":{"kind":"column","table":"i","column":"InvoiceDate"},"low":{"kind":"literal","type":"date","value":"2021-01-01"},"high":{"kind":"literal","type":"date","value":"2021-06-30"}},"group_by":[{"kind":"column","column":"month"}],"having":{"kind":"binary","op":">","left":{"kind":"column","column":"revenue"},"right":{"kind":"literal","value":37}},"order_by":[{"expr":{"kind":"column","column":"month"}}]}`},
	{"CASE", "tracks under and over three minutes",
		`{"select":[{"expr":{"kind":"case","whens":[{"when":{"kind":"binary","op":"<","left":{"kind":"column","table":"t","column":"Milliseconds"},"right":{"kind":"literal","value":180000}},"then":{"kind":"literal","value":"short"}}],"else":{"kind":"literal","value":"long"}},"alias":"length"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"tracks"}],"from":[{"table":"Track","alias":"t"}],"group_by":[{"kind":"column","column":"length"}]}`},
	{"CTE (with), set operation (set_ops)", "countries with customers but no employee, from a CTE",
		`{"with":[{"name":"cc","query":{"select":[{"expr":{"kind":"column","table":"c","column":"Country"},"alias":"country"}],"from":[{"table":"Customer","alias":"c"}]}}],"select":[{"expr":{"kind":"column","table":"x","column":"country"},"alias":"country"}],"from":[{"table":"cc","alias":"x"}],"set_ops":[{"op":"except","query":{"select":[{"expr":{"kind":"column","table":"e","column":"Country"},"alias":"country"}],"from":[{"table":"Employee","alias":"e"}]}}]}`},
	{"NOT EXISTS (negated), IN list, join condition", "Jazz or Blues tracks never sold",
		`{"select":[{"expr":{"kind":"column","table":"t","column":"Name"},"alias":"track"},{"expr":{"kind":"column","table":"g","column":"Name"},"alias":"genre"}],"from":[{"table":"Track","alias":"t"},{"table":"Genre","alias":"g"}],"joins":[{"left":"t","right":"g","on":[{"left_column":"GenreId","right_column":"GenreId"}],"condition":{"kind":"in","expr":{"kind":"column","table":"g","column":"Name"},"list":[{"kind":"literal","value":"Jazz"},{"kind":"literal","value":"Blues"}]}}],"where":{"kind":"exists","negated":true,"subquery":{"select":[{"expr":{"kind":"literal","value":1},"alias":"one"}],"from":[{"table":"InvoiceLine","alias":"il"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"il","column":"TrackId"},"right":{"kind":"column","table":"t","column":"TrackId"}}}},"limit":5}`},
	{"semantic metric", "revenue by billing country, top 5",
		`{"select":[{"expr":{"kind":"column","table":"i","column":"BillingCountry"},"alias":"country"},{"expr":{"kind":"metric","name":"revenue","table":"il"},"alias":"revenue"}],"from":[{"table":"InvoiceLine","alias":"il"},{"table":"Invoice","alias":"i"}],"joins":[{"left":"il","right":"i","on":[{"left_column":"InvoiceId","right_column":"InvoiceId"}]}],"group_by":[{"kind":"column","table":"i","column":"BillingCountry"}],"order_by":[{"expr":{"kind":"column","column":"revenue"},"direction":"desc"}],"limit":5}`},
}

// PlanGuide is the short guide get_plan_schema returns beside the schema:
// the rules, then one line per shape.
var PlanGuide = func() string {
	var b strings.Builder
	b.WriteString(planRules)
	b.WriteString("\n\nShapes, on Chinook:")
	for _, s := range PlanShapes {
		b.WriteString("\n- " + s.Shapes + " (" + s.Question + "): " + s.Plan)
	}
	return b.String()
}()

// PlanExample is a complete plan: the artist with the most albums.
const PlanExample = `{"select": [{"expr": {"kind": "column", "table": "ar", "column": "Name"}, "alias": "artist"},
            {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "albums"}],
 "from": [{"table": "Artist", "alias": "ar"}, {"table": "Album", "alias": "al"}],
 "joins": [{"type": "inner", "left": "ar", "right": "al", "on": [{"left_column": "ArtistId", "right_column": "ArtistId"}]}],
 "group_by": [{"kind": "column", "table": "ar", "column": "ArtistId"}, {"kind": "column", "table": "ar", "column": "Name"}],
 "order_by": [{"expr": {"kind": "column", "column": "albums"}, "direction": "desc"}],
 "limit": 1}`

// PlanSchemaOutput is get_plan_schema's structured output.
type PlanSchemaOutput struct {
	Guide   string          `json:"guide"`
	Example json.RawMessage `json:"example"`
	Form    string          `json:"form"`
	// Schema is absent in the guide form.
	Schema json.RawMessage `json:"schema,omitempty"`
}

// PlanSchemaArgs is get_plan_schema's input: which form of the schema.
type PlanSchemaArgs struct {
	Form string `json:"form,omitempty"`
}

const planSchemaShape = `{"form"?: "guide" | "host" | "strict"}`

// GetPlanSchemaTool describes the get_plan_schema tool.
func GetPlanSchemaTool() mcpgo.Tool {
	return readOnlyTool("get_plan_schema", "Get the plan language",
		"Get the plan language's JSON Schema, a short guide and an example, for writing plans to pass to run_plan. "+
			"The default host form requires only the fields a plan needs (optional ones may be omitted or null): a plan it accepts is never refused for its shape. "+
			"form \"guide\" gives the guide and the example alone (under half the size), which most plans need no more than; "+
			"form \"strict\" gives the same language with every property required and optional ones nullable, as OpenAI strict structured output needs.",
		json.RawMessage(`{"type": "object", "properties": {"form": {"type": "string", "enum": ["guide", "host", "strict"], "description": "Schema form; default host. guide: no JSON Schema."}}, "additionalProperties": false}`),
		json.RawMessage(`{"type": "object", "properties": {"guide": {"type": "string"}, "example": {"type": "object"}, "form": {"type": "string"}, "schema": {"type": "object", "description": "Absent in the guide form."}}, "required": ["guide", "example", "form"]}`))
}

// GetPlanSchemaHandler answers get_plan_schema calls.
func GetPlanSchemaHandler() server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args PlanSchemaArgs
		if bad := bindStrict(req, &args, planSchemaShape); bad != nil {
			return bad, nil
		}
		out := PlanSchemaOutput{Guide: PlanGuide, Form: "host", Schema: planschema.Host()}
		switch args.Form {
		case "", "host":
		case "strict":
			out.Form, out.Schema = "strict", planschema.Strict()
		case "guide":
			out.Form, out.Schema = "guide", nil
		default:
			return invalidRequest(`form must be "guide", "host" or "strict"`, "send "+planSchemaShape), nil
		}
		var ex json.RawMessage
		_ = json.Unmarshal([]byte(PlanExample), &ex)
		out.Example, _ = json.Marshal(ex)
		text := PlanGuide + "\n\nExample:\n" + PlanExample
		if out.Schema != nil {
			text += "\n\nJSON Schema (" + out.Form + " form):\n" + string(out.Schema)
		} else {
			text += "\n\n(The JSON Schema of every field: get_plan_schema with form \"host\".)"
		}
		return mcpgo.NewToolResultStructured(out, text), nil
	}
}
