package multi

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

func TestSemanticOnly(t *testing.T) {
	for s, ok := range map[string]bool{
		"Customers from Brazil":                           true,
		"Tracks where the genre is Rock":                  true,
		"With their names, from the store":                true,
		"Revenue per genre; 2024":                         false,
		"SELECT name FROM genre":                          false,
		"  (select *\nfrom t)":                            false,
		"Revenue -- per genre":                            false,
		"Revenue /* per genre":                            false,
		"Revenue per genre */":                            false,
		"Select the genres that sold most, from invoices": false,
	} {
		if got := semanticOnly(s); got != ok {
			t.Errorf("semanticOnly(%q) = %v, want %v", s, got, ok)
		}
	}
}

// answer builds a Answer from JSON.
func answer(t *testing.T, doc string) *Answer {
	t.Helper()
	ans, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return ans
}

const goodDecomposition = `{
  "reasoning": "Join sales and targets on genre; keep the genres above target.",
  "sub_queries": [
    {"ref": "sales", "datasource": "chinook", "intent": "Revenue per genre in 2024 from invoice lines (unit price times quantity)",
     "expected_schema": [{"name": "genre", "type": "text"}, {"name": "revenue", "type": "decimal"}]},
    {"ref": "targets", "datasource": "targets", "intent": "Revenue target per genre for 2024",
     "expected_schema": [{"name": "genre", "type": "text"}, {"name": "revenue_target", "type": "decimal"}]}
  ],
  "combine": [{"name": "sales_vs_target", "op": "join", "inputs": [{"ref": "sales", "role": "left"}, {"ref": "targets", "role": "right"}],
               "keys": [{"left": "genre", "right": "genre"}], "join_type": "inner", "label_column": null}],
  "post": {"select": [{"expr": {"kind": "column", "table": "s", "column": "genre"}, "alias": "genre"}],
           "from": [{"table": "sales_vs_target", "alias": "s"}],
           "where": {"kind": "binary", "op": ">", "left": {"kind": "column", "table": "s", "column": "revenue"},
                     "right": {"kind": "column", "table": "s", "column": "revenue_target"}}}
}`

var offered = []string{"chinook", "targets"}

// edit applies f to the decoded JSON of goodDecomposition.
func edit(t *testing.T, f func(m map[string]any)) *Answer {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(goodDecomposition), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, _ := json.Marshal(m)
	return answer(t, string(b))
}

func subs(m map[string]any) []any { return m["sub_queries"].([]any) }
func sub(m map[string]any, i int) map[string]any {
	return subs(m)[i].(map[string]any)
}
func grp(m map[string]any, i int) map[string]any { return m["combine"].([]any)[i].(map[string]any) }

func TestCheckDecompositionRefuses(t *testing.T) {
	cases := []struct {
		name string
		f    func(m map[string]any)
		code planast.Code
		path string
	}{
		{"SQL in an intent", func(m map[string]any) { sub(m, 0)["intent"] = "SELECT genre, SUM(x) FROM t GROUP BY genre" }, IssueSQL, "sub_queries[0].intent"},
		{"terminator in an intent", func(m map[string]any) { sub(m, 1)["intent"] = "targets; drop everything" }, IssueSQL, "sub_queries[1].intent"},
		// a name that is no identifier is a bad name, whatever it holds:
		// "describe what you need in words" is no fix for a name
		{"comment in a column name", func(m map[string]any) {
			sub(m, 0)["expected_schema"].([]any)[0].(map[string]any)["name"] = "genre--x"
		}, planast.CodeBadValue, "sub_queries[0].expected_schema[0].name"},
		{"terminator in a ref", func(m map[string]any) { sub(m, 0)["ref"] = "tk; drop" }, planast.CodeBadValue, "sub_queries[0].ref"},
		{"unknown type", func(m map[string]any) {
			sub(m, 0)["expected_schema"].([]any)[1].(map[string]any)["type"] = "money"
		}, planast.CodeBadValue, "sub_queries[0].expected_schema[1].type"},
		{"datasource not offered", func(m map[string]any) { sub(m, 1)["datasource"] = "hr" }, IssueDatasource, "sub_queries[1].datasource"},
		{"duplicate ref", func(m map[string]any) { sub(m, 1)["ref"] = "sales" }, IssueDuplicate, "sub_queries[1].ref"},
		{"unresolved group input", func(m map[string]any) {
			grp(m, 0)["inputs"].([]any)[1].(map[string]any)["ref"] = "budget"
		}, IssueUnresolved, "combine[0].inputs[1].ref"},
		{"unresolved post table", func(m map[string]any) {
			m["post"].(map[string]any)["from"].([]any)[0].(map[string]any)["table"] = "budget"
		}, IssueUnresolved, "post"},
		{"unused sub-query", func(m map[string]any) {
			m["sub_queries"] = append(subs(m), map[string]any{"ref": "extra", "datasource": "chinook", "intent": "Every genre",
				"expected_schema": []any{map[string]any{"name": "genre", "type": "text"}}})
		}, IssueUnused, "sub_queries"},
		{"key types never meet", func(m map[string]any) {
			sub(m, 1)["expected_schema"].([]any)[0].(map[string]any)["type"] = "date"
			sub(m, 0)["expected_schema"].([]any)[0].(map[string]any)["type"] = "integer"
		}, IssueCombine, "combine[0]"},
		{"a join needs two sides", func(m map[string]any) {
			grp(m, 0)["inputs"].([]any)[1].(map[string]any)["role"] = "base"
		}, IssueCombine, "combine[0]"},
		{"bad post column", func(m map[string]any) {
			m["post"].(map[string]any)["select"].([]any)[0].(map[string]any)["expr"].(map[string]any)["column"] = "genre_name"
		}, planast.CodeColumnNotFound, "post.select[0].expr"},
		{"null post with no group", func(m map[string]any) { m["post"] = nil; m["combine"] = []any{} }, IssueUnused, "post"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, issues := Check(edit(t, c.f), offered)
			if d != nil || len(issues) == 0 {
				t.Fatal("accepted")
			}
			for _, is := range issues {
				if is.Code == c.code && strings.HasPrefix(is.Path, c.path) {
					return
				}
			}
			t.Errorf("issues %+v, want %s at %s", issues, c.code, c.path)
		})
	}
}

// Combine groups that read each other are a cycle, found before anything runs.
func TestCheckDecompositionCycle(t *testing.T) {
	d, issues := Check(edit(t, func(m map[string]any) {
		g := grp(m, 0)
		g["inputs"] = []any{map[string]any{"ref": "sales", "role": "left"}, map[string]any{"ref": "loop_b", "role": "right"}}
		m["combine"] = []any{g,
			map[string]any{"name": "loop_b", "op": "join", "inputs": []any{map[string]any{"ref": "sales_vs_target", "role": "left"},
				map[string]any{"ref": "targets", "role": "right"}}, "keys": []any{map[string]any{"left": "genre", "right": "genre"}},
				"join_type": nil, "label_column": nil}}
	}), offered)
	if d != nil || len(issues) != 1 || issues[0].Code != IssueCycle || !strings.Contains(issues[0].Message, "loop_b, sales_vs_target") {
		t.Errorf("issues = %+v", issues)
	}
}

var idRe = regexp.MustCompile(`^(sq|cg)_[0-9a-f]{12}(_[0-9]+)?$`)

// Ids are content hashes: the same decomposition, in any order, gives the
// same ids and the same (sorted) layers; a repeated sub-query gets _2.
func TestDecompositionIDsAndLayers(t *testing.T) {
	a, issues := Check(answer(t, goodDecomposition), offered)
	if issues != nil {
		t.Fatal(issues)
	}
	b, _ := Check(edit(t, func(m map[string]any) {
		s := subs(m)
		s[0], s[1] = s[1], s[0]
		in := grp(m, 0)["inputs"].([]any)
		in[0], in[1] = in[1], in[0]
		sub(m, 0)["intent"] = "  revenue target per GENRE for 2024. " // normalised like replay keys
	}), offered)
	if b == nil {
		t.Fatal("reordered decomposition refused")
	}
	la, _ := json.Marshal(a.Layers)
	lb, _ := json.Marshal(b.Layers)
	if string(la) != string(lb) || len(a.Layers) != 2 || len(a.Layers[0]) != 2 || len(a.Layers[1]) != 1 {
		t.Errorf("layers %s and %s", la, lb)
	}
	if a.Layers[0][0] > a.Layers[0][1] || !strings.HasPrefix(a.Layers[1][0], "cg_") {
		t.Errorf("layer order %s", la)
	}
	for _, l := range a.Layers {
		for _, id := range l {
			if !idRe.MatchString(id) {
				t.Errorf("id %q", id)
			}
		}
	}
	if a.Comb.Plan.With[0].Name != a.Layers[1][0] || a.Comb.Tables[0].Name != a.Subs[0].ID {
		t.Errorf("the combination does not read the ids: %+v", a.Comb.Plan.With[0].Name)
	}
	// the same sub-query twice (other refs) gets an ordinal suffix
	c, issues := Check(edit(t, func(m map[string]any) {
		dup := map[string]any{}
		for k, v := range sub(m, 1) {
			dup[k] = v
		}
		dup["ref"] = "targets_again"
		m["sub_queries"] = append(subs(m), dup)
		m["combine"] = append(m["combine"].([]any), map[string]any{"name": "both", "op": "union", "label_column": "src", "keys": []any{},
			"join_type": nil, "inputs": []any{map[string]any{"ref": "targets", "role": "member"}, map[string]any{"ref": "targets_again", "role": "member"}}})
		m["post"] = map[string]any{"select": []any{map[string]any{"expr": map[string]any{"kind": "column", "table": "a", "column": "genre"}, "alias": "genre"}},
			"from":  []any{map[string]any{"table": "sales_vs_target", "alias": "a"}, map[string]any{"table": "both", "alias": "b"}},
			"joins": []any{map[string]any{"left": "a", "right": "b", "on": []any{map[string]any{"left_column": "genre", "right_column": "genre"}}}}}
	}), offered)
	if c == nil {
		t.Fatal(issues)
	}
	ids := map[string]bool{}
	for _, s := range c.Subs {
		ids[s.ID] = true
	}
	var target string
	for _, s := range c.Subs {
		if s.Ref == "targets" {
			target = s.ID
		}
	}
	if !ids[target+"_2"] || len(ids) != 3 {
		t.Errorf("ids %v: want %s and %s_2", ids, target, target)
	}
	if len(c.Layers) != 2 || len(c.Layers[1]) != 2 || c.Layers[1][0] > c.Layers[1][1] {
		t.Errorf("layers %v", c.Layers)
	}
}

func TestRank(t *testing.T) {
	docs := map[string]string{
		"store":   "Digital music store: tracks, genres, invoices. Album Artist Genre Invoice InvoiceLine Track",
		"plan":    "Sales planning: yearly revenue targets per genre and per support rep. genre_targets rep_targets",
		"hr":      "People: employees, salaries",
		"archive": "People: employees, salaries",
	}
	got := Rank("Which genres beat their 2024 revenue target?", docs)
	var order []string
	for _, r := range got {
		order = append(order, r.ID)
	}
	if strings.Join(order, ",") != "plan,store,archive,hr" || got[2].Score != 0 {
		t.Errorf("rank = %+v", got)
	}
	if strings.Join(terms("InvoiceLine genre_targets Categories"), " ") != "invoice line genre target category" {
		t.Errorf("terms = %v", terms("InvoiceLine genre_targets Categories"))
	}
}
