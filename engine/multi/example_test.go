package multi_test

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/engine/multi"
)

func ExampleCheck() {
	doc := `{"reasoning": "revenue against target per genre",
	  "sub_queries": [
	    {"ref": "sales", "datasource": "chinook", "intent": "Revenue per genre in 2024",
	     "expected_schema": [{"name": "genre", "type": "text"}, {"name": "revenue", "type": "decimal"}]},
	    {"ref": "targets", "datasource": "targets", "intent": "Revenue target per genre for 2024",
	     "expected_schema": [{"name": "genre", "type": "text"}, {"name": "target", "type": "decimal"}]}],
	  "combine": [{"name": "both", "op": "join", "join_type": "inner", "label_column": null,
	    "inputs": [{"ref": "sales", "role": "left"}, {"ref": "targets", "role": "right"}],
	    "keys": [{"left": "genre", "right": "genre"}]}],
	  "post": null}`
	ans, err := multi.Decode([]byte(doc))
	if err != nil {
		panic(err)
	}
	d, issues := multi.Check(ans, []string{"chinook", "targets"})
	fmt.Println(len(issues), len(d.Subs), len(d.Layers), len(d.Layers[0]), strings.HasPrefix(d.Layers[1][0], "cg_"))

	bad, _ := multi.Decode([]byte(strings.Replace(doc, "Revenue per genre in 2024", "SELECT genre FROM t", 1)))
	_, issues = multi.Check(bad, []string{"chinook", "targets"})
	fmt.Println(issues[0].Code, issues[0].Path)
	// Output:
	// 0 2 2 2 true
	// SQL_IN_TEXT sub_queries[0].intent
}
