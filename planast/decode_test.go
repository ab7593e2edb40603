package planast_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// allKindsPlan is a valid Chinook plan holding every expression kind.
const allKindsPlan = `{
 "with":[{"name":"big","query":{"select":[{"expr":{"kind":"column","column":"InvoiceId"}},{"expr":{"kind":"column","column":"Total"}}],
   "from":[{"table":"Invoice","alias":"i"}],
   "where":{"kind":"binary","op":">","left":{"kind":"column","column":"Total"},"right":{"kind":"literal","type":"decimal","value":"5.5"}}}}],
 "select":[
  {"expr":{"kind":"column","table":"c","column":"CustomerId"},"alias":"id"},
  {"expr":{"kind":"case","whens":[{"when":{"kind":"between","expr":{"kind":"column","table":"c","column":"CustomerId"},"low":{"kind":"literal","value":1},"high":{"kind":"literal","value":10}},
     "then":{"kind":"literal","value":"low"}}],
     "else":{"kind":"cast","expr":{"kind":"unary","op":"-","expr":{"kind":"column","table":"c","column":"CustomerId"}},"type":"text"}},"alias":"bucket"},
  {"expr":{"kind":"subquery","query":{"select":[{"expr":{"kind":"func","name":"count","args":[]},"alias":"n"}],"from":[{"table":"big","alias":"b"}]}},"alias":"big_n"},
  {"expr":{"kind":"window","name":"row_number","args":[],"order_by":[{"expr":{"kind":"column","table":"c","column":"LastName"}}]},"alias":"rn"},
  {"expr":{"kind":"is_null","expr":{"kind":"column","table":"c","column":"FirstName"},"negated":true},"alias":"has_first"}
 ],
 "from":[{"table":"Customer","alias":"c"}],
 "where":{"kind":"binary","op":"and",
  "left":{"kind":"like","expr":{"kind":"column","table":"c","column":"LastName"},"pattern":{"kind":"literal","value":"A%"},"case_insensitive":true},
  "right":{"kind":"binary","op":"or",
   "left":{"kind":"in","expr":{"kind":"column","table":"c","column":"Country"},"list":[{"kind":"literal","value":"USA"},{"kind":"literal","value":"Canada"}]},
   "right":{"kind":"exists","subquery":{"select":[{"expr":{"kind":"column","table":"i","column":"InvoiceId"}}],"from":[{"table":"Invoice","alias":"i"}],
     "where":{"kind":"binary","op":"=","left":{"kind":"column","table":"i","column":"CustomerId"},"right":{"kind":"column","table":"c","column":"CustomerId"}}}}}},
 "order_by":[{"expr":{"kind":"column","column":"id"},"direction":"desc"}],
 "limit":5}`

const minimal = `{"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}]}`

func TestDecodeOmittedAndNullAgree(t *testing.T) {
	cases := []struct{ omitted, nulled string }{
		{minimal, `{"with":null,"distinct":null,"select":[{"expr":{"kind":"column","table":null,"column":"Name"},"alias":null}],
			"from":[{"schema":null,"table":"Artist","subquery":null,"alias":"a"}],"joins":null,"where":null,"group_by":null,
			"having":null,"set_ops":null,"order_by":null,"limit":null,"offset":null}`},
		{`{"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],
			"where":{"kind":"in","expr":{"kind":"column","column":"ArtistId"},"list":[{"kind":"literal","value":1}]},
			"order_by":[{"expr":{"kind":"column","column":"Name"}}]}`,
			`{"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],
			"where":{"kind":"in","expr":{"kind":"column","column":"ArtistId"},"list":[{"kind":"literal","type":null,"value":1}],"subquery":null,"negated":null},
			"order_by":[{"expr":{"kind":"column","column":"Name"},"direction":null,"nulls":null}]}`},
		{`{"select":[{"expr":{"kind":"case","whens":[{"when":{"kind":"like","expr":{"kind":"column","column":"Name"},"pattern":{"kind":"literal","value":"A%"}},"then":{"kind":"literal","value":1}}]},"alias":"x"},
			{"expr":{"kind":"window","name":"RANK","args":[]},"alias":"r"},{"expr":{"kind":"func","name":"UPPER","args":[{"kind":"column","column":"Name"}]},"alias":"u"}],
			"from":[{"table":"Album","alias":"al"}],"joins":[{"left":"al","right":"ar","on":[{"left_column":"ArtistId","right_column":"ArtistId"}]}]}`,
			`{"select":[{"expr":{"kind":"case","operand":null,"whens":[{"when":{"kind":"like","expr":{"kind":"column","column":"Name"},"pattern":{"kind":"literal","value":"A%"},"case_insensitive":null,"negated":null},"then":{"kind":"literal","value":1}}],"else":null},"alias":"x"},
			{"expr":{"kind":"window","name":"RANK","args":null,"partition_by":null,"order_by":null},"alias":"r"},{"expr":{"kind":"func","name":"UPPER","args":[{"kind":"column","column":"Name"}],"distinct":null},"alias":"u"}],
			"from":[{"table":"Album","alias":"al"}],"joins":[{"type":null,"left":"al","right":"ar","on":[{"left_column":"ArtistId","right_column":"ArtistId"}],"condition":null}]}`},
	}
	for i, c := range cases {
		a, b := decode(t, c.omitted), decode(t, c.nulled)
		if !bytes.Equal(a.Canonical(), b.Canonical()) {
			t.Errorf("case %d: omitted and null differ:\n%s\n%s", i, a.Canonical(), b.Canonical())
		}
	}
}

func nest(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

func TestDecodeRejects(t *testing.T) {
	sel := `"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}]`
	withWhere := func(e string) string { return `{` + sel + `,"where":` + e + `}` }
	withItem := func(e string) string {
		return `{"select":[{"expr":` + e + `,"alias":"x"}],"from":[{"table":"Artist","alias":"a"}]}`
	}
	col := `{"kind":"column","column":"Name"}`
	lit := func(typ, val string) string {
		return withItem(`{"kind":"literal","type":"` + typ + `","value":` + val + `}`)
	}
	notChain := func(n int) string {
		return withWhere(nest(`{"kind":"unary","op":"not","expr":`, `{"kind":"literal","value":true}`, `}`, n))
	}
	inList := func(n int) string {
		items := strings.TrimSuffix(strings.Repeat(`{"kind":"literal","value":1},`, n), ",")
		return withWhere(`{"kind":"in","expr":{"kind":"column","column":"ArtistId"},"list":[` + items + `]}`)
	}
	cases := []struct {
		name, plan string
		lim        planast.Limits
		code       planast.Code
		path       string // "" means: do not check
	}{
		{"not json", `{"select":`, planast.Limits{}, planast.CodeMalformed, ""},
		{"two documents", minimal + minimal, planast.Limits{}, planast.CodeMalformed, ""},
		{"trailing bracket", minimal + `]`, planast.Limits{}, planast.CodeMalformed, ""},
		{"array root", `[` + minimal + `]`, planast.Limits{}, planast.CodeMalformed, ""},
		{"null root", `null`, planast.Limits{}, planast.CodeMalformed, ""},
		{"duplicate top key", `{"select":[{"expr":{"kind":"column","column":"Status"}}],"from":[{"table":"orders"}],"from":[{"table":"event_log"}]}`, planast.Limits{}, planast.CodeMalformed, "from"},
		{"duplicate nested key", withItem(`{"kind":"column","column":"Name","column":"Title"}`), planast.Limits{}, planast.CodeMalformed, "select[0].expr.column"},
		{"duplicate key in array element", `{"select":[{"expr":` + col + `}],"from":[{"table":"Artist","alias":"a"},{"table":"Album","alias":"b","alias":"c"}]}`, planast.Limits{}, planast.CodeMalformed, "from[1].alias"},
		{"unknown top field", `{` + sel + `,"raw_sql":"DELETE FROM t"}`, planast.Limits{}, planast.CodeUnknownField, "raw_sql"},
		{"unknown expr field", withItem(`{"kind":"column","column":"Name","sql":"1"}`), planast.Limits{}, planast.CodeUnknownField, "select[0].expr.sql"},
		{"unknown from field", `{"select":[{"expr":` + col + `}],"from":[{"table":"Artist","alias":"a","name":"x"}]}`, planast.Limits{}, planast.CodeUnknownField, "from[0].name"},
		{"unknown nested field", withWhere(`{"kind":"exists","subquery":{` + sel + `,"query_type":"DELETE"}}`), planast.Limits{}, planast.CodeUnknownField, "where.subquery.query_type"},
		{"select not array", `{"select":"*","from":[{"table":"Artist","alias":"a"}]}`, planast.Limits{}, planast.CodeMalformed, "select"},
		// a value left out is no NULL meant: a filter on it matched nothing
		{"literal without value", withWhere(`{"kind":"binary","op":">=","left":` + col + `,"right":{"kind":"literal"}}`), planast.Limits{}, planast.CodeMalformed, "where.right.value"},
		{"literal typed null by JSON", withItem(`{"kind":"literal","type":null}`), planast.Limits{}, planast.CodeMalformed, "select[0].expr.value"},
		{"limit as string", `{` + sel + `,"limit":"10"}`, planast.Limits{}, planast.CodeMalformed, "limit"},
		{"distinct as string", `{` + sel + `,"distinct":"yes"}`, planast.Limits{}, planast.CodeMalformed, "distinct"},
		{"with_ties as string", `{` + sel + `,"with_ties":"yes"}`, planast.Limits{}, planast.CodeMalformed, "with_ties"},
		{"qualify not an expression", `{` + sel + `,"qualify":[1]}`, planast.Limits{}, planast.CodeMalformed, "qualify"},
		{"expr as array", withItem(`[1]`), planast.Limits{}, planast.CodeMalformed, "select[0].expr"},
		{"alias as number", `{"select":[{"expr":` + col + `,"alias":5}],"from":[{"table":"Artist","alias":"a"}]}`, planast.Limits{}, planast.CodeMalformed, "select[0].alias"},
		{"negated as number", withWhere(`{"kind":"is_null","expr":` + col + `,"negated":1}`), planast.Limits{}, planast.CodeMalformed, "where.negated"},
		{"missing kind", withItem(`{"column":"Name"}`), planast.Limits{}, planast.CodeMalformed, "select[0].expr.kind"},
		{"missing alias", `{"select":[{"expr":` + col + `}],"from":[{"table":"Artist"}]}`, planast.Limits{}, planast.CodeMalformed, "from[0].alias"},
		{"table and subquery", `{"select":[{"expr":` + col + `}],"from":[{"table":"Artist","alias":"a","subquery":{` + sel + `}}]}`, planast.Limits{}, planast.CodeMalformed, "from[0]"},
		{"in list and subquery", withWhere(`{"kind":"in","expr":` + col + `,"list":[` + col + `],"subquery":{` + sel + `}}`), planast.Limits{}, planast.CodeMalformed, "where"},
		{"empty in list", withWhere(`{"kind":"in","expr":` + col + `,"list":[]}`), planast.Limits{}, planast.CodeMalformed, "where.list"},
		{"case without whens", withItem(`{"kind":"case","whens":[]}`), planast.Limits{}, planast.CodeMalformed, "select[0].expr.whens"},
		{"bad kind", withItem(`{"kind":"sql","text":"1"}`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.kind"},
		{"bad join type", `{` + sel + `,"joins":[{"type":"cross","left":"a","right":"b","on":[]}]}`, planast.Limits{}, planast.CodeBadValue, "joins[0].type"},
		{"bad set op", `{` + sel + `,"set_ops":[{"op":"minus","query":{` + sel + `}}]}`, planast.Limits{}, planast.CodeBadValue, "set_ops[0].op"},
		{"bad direction", `{` + sel + `,"order_by":[{"expr":` + col + `,"direction":"up"}]}`, planast.Limits{}, planast.CodeBadValue, "order_by[0].direction"},
		{"bad nulls", `{` + sel + `,"order_by":[{"expr":` + col + `,"nulls":"middle"}]}`, planast.Limits{}, planast.CodeBadValue, "order_by[0].nulls"},
		{"bad cast type", withItem(`{"kind":"cast","expr":` + col + `,"type":"money"}`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.type"},
		{"bad binary op", withItem(`{"kind":"binary","op":"||","left":` + col + `,"right":` + col + `}`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.op"},
		{"bad unary op", withItem(`{"kind":"unary","op":"~","expr":` + col + `}`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.op"},
		{"bad literal type", lit("money", `"1"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.type"},
		{"integer literal not integer", lit("integer", `1.5`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"integer literal overflow", lit("integer", `9223372036854775808`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"decimal literal infinite", lit("decimal", `"1e400"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"decimal literal NaN", lit("decimal", `"NaN"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"date literal shape", lit("date", `"01/02/2025"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"date literal not a day", lit("date", `"2025-02-30"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"date literal year zero", lit("date", `"0000-01-01"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"timestamp literal bad hour", lit("timestamp", `"2025-01-01 25:00:00"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"null literal with value", lit("null", `1`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"boolean literal as string", lit("boolean", `"true"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"literal value object", withItem(`{"kind":"literal","value":{"a":1}}`), planast.Limits{}, planast.CodeMalformed, "select[0].expr.value"},
		{"limit fraction", `{` + sel + `,"limit":1.5}`, planast.Limits{}, planast.CodeBadValue, "limit"},
		{"limit overflow", `{` + sel + `,"limit":1e30}`, planast.Limits{}, planast.CodeBadValue, "limit"},
		{"NUL in literal", lit("string", `"a\u0000b"`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.value"},
		{"NUL in alias", `{"select":[{"expr":` + col + `,"alias":"x\u0000"}],"from":[{"table":"Artist","alias":"a"}]}`, planast.Limits{}, planast.CodeBadValue, "select[0].alias"},
		{"NUL in table", `{"select":[{"expr":` + col + `}],"from":[{"table":"Artist\u0000; DROP","alias":"a"}]}`, planast.Limits{}, planast.CodeBadValue, "from[0].table"},
		{"NUL in function name", withItem(`{"kind":"func","name":"UPPER\u0000","args":[` + col + `]}`), planast.Limits{}, planast.CodeBadValue, "select[0].expr.name"},
		{"oversize document", minimal, planast.Limits{MaxBytes: 20}, planast.CodeTooLarge, ""},
		{"in list over the node limit", inList(5000), planast.Limits{}, planast.CodeTooLarge, ""},
		{"too many nodes", inList(10), planast.Limits{MaxNodes: 8}, planast.CodeTooLarge, ""},
		{"bracket depth pre-check", `{"select":` + nest("[", "", "]", 300) + `}`, planast.Limits{}, planast.CodeTooLarge, ""},
		{"node depth", notChain(70), planast.Limits{}, planast.CodeTooLarge, ""},
		{"node depth custom limit", notChain(6), planast.Limits{MaxDepth: 5}, planast.CodeTooLarge, ""},
		// past every engine's result-column ceiling: refused by check_plan,
		// not by the engine at run time
		{"select over the item limit", selectN(planast.MaxSelectItems + 1), planast.Limits{MaxNodes: 1 << 20}, planast.CodeTooLarge, "select"},
		// past SQLite's 64-table join: refused alike on every engine
		{"from over the source limit", fromN(planast.MaxSources + 1), planast.Limits{}, planast.CodeTooLarge, "from"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := planast.Decode([]byte(c.plan), c.lim)
			if err == nil {
				t.Fatalf("accepted: %s", q.Canonical())
			}
			is := issues(t, err)
			if is[0].Code != c.code {
				t.Fatalf("code %s, want %s: %v", is[0].Code, c.code, err)
			}
			if c.path != "" && is[0].Path != c.path {
				t.Fatalf("path %q, want %q: %v", is[0].Path, c.path, err)
			}
			// a key written twice must not silently keep the last value:
			// the author is told which key, where, and what to do
			if strings.HasPrefix(c.name, "duplicate") && is[0].Hint == "" {
				t.Fatalf("no hint: %v", err)
			}
		})
	}
}

// TestDecodeDepthChecks tells the two depth checks apart: the bracket
// pre-check runs before the JSON decoder and has no path; the node check
// runs while building and names where it stopped.
func TestDecodeDepthChecks(t *testing.T) {
	_, err := planast.Decode([]byte(`{"select":`+nest("[", "", "]", 300)+`}`), planast.Limits{})
	if is := issues(t, err); is[0].Path != "" || !strings.Contains(is[0].Message, "levels") {
		t.Errorf("bracket pre-check: %+v", is[0])
	}
	plan := `{"select":[{"expr":` + nest(`{"kind":"unary","op":"not","expr":`, `{"kind":"literal","value":true}`, `}`, 70) +
		`,"alias":"x"}],"from":[{"table":"Artist","alias":"a"}]}`
	_, err = planast.Decode([]byte(plan), planast.Limits{})
	if is := issues(t, err); !strings.HasPrefix(is[0].Path, "select[0].expr.expr.expr") {
		t.Errorf("node depth check: %+v", is[0])
	}
	// a hundred thousand levels fail fast in the pre-check, without recursion
	deep := nest(`{"kind":"unary","op":"not","expr":`, `{"kind":"literal","value":true}`, `}`, 100000)
	_, err = planast.Decode([]byte(`{"select":[{"expr":`+deep+`}]}`), planast.Limits{MaxBytes: 8 << 20})
	if is := issues(t, err); is[0].Code != planast.CodeTooLarge || is[0].Path != "" {
		t.Errorf("deep document: %+v", is[0])
	}
	// the pre-check ignores brackets inside strings
	q := decode(t, `{"select":[{"expr":{"kind":"literal","value":"`+strings.Repeat("[{", 500)+`"},"alias":"s"}],"from":[{"table":"Artist","alias":"a"}]}`)
	if len(q.Select) != 1 {
		t.Fatal("string with brackets mis-decoded")
	}
}

func TestRoundTripCanonical(t *testing.T) {
	for i, p := range []string{minimal, allKindsPlan, hostileOK} {
		q := decode(t, p)
		c1 := q.Canonical()
		q2, err := planast.Decode(c1, planast.Limits{})
		if err != nil {
			t.Fatalf("plan %d: canonical form does not decode: %v\n%s", i, err, c1)
		}
		if c2 := q2.Canonical(); !bytes.Equal(c1, c2) {
			t.Errorf("plan %d: round trip differs:\n%s\n%s", i, c1, c2)
		}
		// the validated plan round-trips as well
		v, err := validate.Plan(q, chinook, validate.Options{})
		if err != nil {
			continue // hostileOK is not a Chinook plan
		}
		q3, err := planast.Decode(v.Plan.Canonical(), planast.Limits{})
		if err != nil || !bytes.Equal(q3.Canonical(), v.Plan.Canonical()) {
			t.Errorf("plan %d: validated plan does not round-trip: %v", i, err)
		}
	}
}

// hostileOK uses awkward names everywhere a name may appear.
const hostileOK = `{"select":[{"expr":{"kind":"column","table":"o\"1","column":"größe"},"alias":"it's \"quoted\""},
 {"expr":{"kind":"literal","value":"O'Reilly'); DROP TABLE t; --"},"alias":"客户 name"}],
 "from":[{"table":"order","alias":"o\"1"}]}`

func TestDecodeValueAndUnmarshal(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(allKindsPlan), &v); err != nil {
		t.Fatal(err)
	}
	q, err := planast.DecodeValue(v, planast.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var wrapped struct{ Plan planast.Query }
	if err := json.Unmarshal([]byte(`{"Plan":`+allKindsPlan+`}`), &wrapped); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(q.Canonical(), wrapped.Plan.Canonical()) {
		t.Error("DecodeValue and UnmarshalJSON disagree")
	}
	if err := json.Unmarshal([]byte(`{"Plan":{"select":[],"sql":"x"}}`), &wrapped); err == nil {
		t.Error("UnmarshalJSON accepted an unknown field")
	}
}

func TestDecodeLiteralCanonicalForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"kind":"literal","value":1}`, `{"kind":"literal","type":"integer","value":1}`},
		{`{"kind":"literal","value":1.50}`, `{"kind":"literal","type":"decimal","value":"1.50"}`},
		{`{"kind":"literal","type":"decimal","value":"1e3"}`, `{"kind":"literal","type":"decimal","value":"1000"}`},
		{`{"kind":"literal","type":"integer","value":"42"}`, `{"kind":"literal","type":"integer","value":42}`},
		{`{"kind":"literal","value":null}`, `{"kind":"literal","type":"null"}`},
		{`{"kind":"literal","value":false}`, `{"kind":"literal","type":"boolean","value":false}`},
		{`{"kind":"literal","type":"TIMESTAMP","value":"2024-02-29T23:59:59.5"}`, `{"kind":"literal","type":"timestamp","value":"2024-02-29 23:59:59.5"}`},
		{`{"kind":"literal","type":"date","value":"2024-02-29"}`, `{"kind":"literal","type":"date","value":"2024-02-29"}`},
	} {
		q := decode(t, `{"select":[{"expr":`+c.in+`,"alias":"x"}],"from":[{"table":"Artist","alias":"a"}]}`)
		got, _ := json.Marshal(q.Select[0].Expr)
		if string(got) != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

func ExampleDecode_error() {
	_, err := planast.Decode([]byte(`{"select":[],"from":[],"raw_sql":"DROP TABLE t"}`), planast.Limits{})
	fmt.Println(err)
	// Output: invalid plan: UNKNOWN_FIELD at raw_sql: unknown field "raw_sql"; the plan language has no such field
}

// qualify and with_ties survive the canonical encoding.
func TestCanonicalQualifyWithTies(t *testing.T) {
	in := `{"select":[{"expr":{"kind":"window","name":"RANK","args":[],"order_by":[{"expr":{"kind":"column","column":"Name"},"direction":"asc"}]},"alias":"r"}],` +
		`"from":[{"table":"Track","alias":"t"}],"qualify":{"kind":"binary","op":"\u003c=","left":{"kind":"column","column":"r"},"right":{"kind":"literal","type":"integer","value":3}},` +
		`"order_by":[{"expr":{"kind":"column","column":"r"},"direction":"asc"}],"limit":3,"with_ties":true}`
	q, err := planast.Decode([]byte(in), planast.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(q.Canonical()); got != in {
		t.Errorf("canonical\n got %s\nwant %s", got, in)
	}
}

// selectN is a plan selecting n literals.
func selectN(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = `{"expr":{"kind":"literal","type":"integer","value":1},"alias":"c` + strconv.Itoa(i) + `"}`
	}
	return `{"select":[` + strings.Join(items, ",") + `]}`
}

func fromN(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = `{"table":"Artist","alias":"a` + strconv.Itoa(i) + `"}`
	}
	return `{"select":[{"expr":{"kind":"literal","type":"integer","value":1},"alias":"x"}],"from":[` + strings.Join(items, ",") + `]}`
}

// The bound itself decodes: a wide but legal select list is not refused.
func TestSelectAtTheItemLimitDecodes(t *testing.T) {
	if _, err := planast.Decode([]byte(selectN(planast.MaxSelectItems)), planast.Limits{}); err != nil {
		t.Fatal(err)
	}
}

// The threat: a host writes a like's pattern, or a comparison's right
// side, as the bare value ("pattern": "A%"); the refusal said only "must
// be a JSON object", and the host guessed again. The refusal shows the
// literal to write, with the value given; an object or array gets no
// such guess.
func TestDecodeBareValueShowsTheLiteral(t *testing.T) {
	base := `{"select":[{"expr":{"kind":"column","column":"Name"}}],"from":[{"table":"Artist","alias":"a"}],"where":`
	for _, c := range []struct {
		where, want string
	}{
		{`{"kind":"like","expr":{"kind":"column","column":"Name"},"pattern":"A%"}`, `{"kind":"literal","value":"A%"}`},
		{`{"kind":"binary","op":">","left":{"kind":"column","column":"ArtistId"},"right":5}`, `{"kind":"literal","value":5}`},
		{`{"kind":"binary","op":">","left":{"kind":"column","column":"ArtistId"},"right":[5]}`, ""},
	} {
		_, err := planast.Decode([]byte(base+c.where+`}`), planast.Limits{})
		if err == nil {
			t.Fatalf("%s: accepted", c.where)
		}
		if got := strings.Contains(err.Error(), "write a value as a literal"); got != (c.want != "") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want the literal %s", c.where, err, c.want)
		}
	}
}

// The threat: a refusal that repeats its hint ("cast the text first:
// CAST(x AS date); cast the text first: CAST(x AS date)") reads as two
// problems to fix. A text value between two dates is told once.
func TestBetweenRefusalSaysItsCastOnce(t *testing.T) {
	q := plan(sel(c("t", "Name")), frm(from("Track", "t")),
		where(`{"kind":"between","expr":`+c("t", "Name")+`,"low":{"kind":"literal","type":"date","value":"2025-01-01"},"high":{"kind":"literal","type":"date","value":"2025-03-31"}}`))
	_, err := validate.Plan(decode(t, q), chinook, validate.Options{})
	if err == nil || strings.Count(err.Error(), "cast the text first") != 1 {
		t.Errorf("%v: want the cast said once", err)
	}
	// in the plan's form, which a host writes, not SQL's
	if err == nil || !strings.Contains(err.Error(), `{"kind": "cast", "expr": <the text>, "type": "date"}`) {
		t.Errorf("%v: want the cast as plan JSON", err)
	}
}

func TestIndexPath(t *testing.T) {
	for _, c := range []struct {
		path string
		i    int
		want string
	}{{"select", 0, "select[0]"}, {"joins[2].on", 12, "joins[2].on[12]"}, {"", -1, "[-1]"}} {
		if got := planast.IndexPath(c.path, c.i); got != c.want {
			t.Errorf("IndexPath(%q, %d) = %q, want %q", c.path, c.i, got, c.want)
		}
	}
}

// The threat: an error that quotes a value the user never wrote
// ("2024-01-01 10:00:00Z" for "2024-01-01T10:00:00Z") sends them looking
// for the wrong mistake; a zone is the mistake, and the hint says so.
func TestTimestampLiteralRefusalQuotesWhatWasSent(t *testing.T) {
	for _, c := range []struct{ value, hint string }{
		{"2024-01-01T10:00:00Z", "no time zone"},
		{"2024-01-01T10:00:00+02:00", "no time zone"},
		{"2024-01-01T25:00:00", ""},
	} {
		_, err := planast.Decode([]byte(`{"select":[{"expr":{"kind":"literal","type":"timestamp","value":"`+c.value+`"},"alias":"t"}]}`), planast.Limits{})
		var pe *planast.Error
		if !errors.As(err, &pe) {
			t.Fatalf("%s: %v, want a plan error", c.value, err)
		}
		if !strings.Contains(pe.Issues[0].Message, `"`+c.value+`"`) {
			t.Errorf("%s: message %q does not quote the value as sent", c.value, pe.Issues[0].Message)
		}
		if got := pe.Issues[0].Hint; c.hint != "" && !strings.Contains(got, c.hint) || c.hint == "" && got != "" {
			t.Errorf("%s: hint %q, want one naming %q", c.value, got, c.hint)
		}
	}
}
