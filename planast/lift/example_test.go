package lift_test

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
)

type oneTable planast.TableInfo

func (t *oneTable) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	return (*planast.TableInfo)(t), name == t.Name
}

func ExampleLift() {
	cat := &oneTable{Name: "singer", Columns: []planast.ColumnInfo{
		{Name: "Singer_ID", Type: planast.TypeInteger}, {Name: "Name", Type: planast.TypeText},
		{Name: "Country", Type: planast.TypeText}, {Name: "Age", Type: planast.TypeInteger},
	}}
	q, err := lift.Lift(`SELECT name, count(*) FROM singer WHERE country = "France" AND age > '20' GROUP BY name ORDER BY 2 DESC LIMIT 3`, lift.DialectSQLite, cat)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(q.Canonical()))

	_, err = lift.Lift(`SELECT group_concat(name) FROM singer`, lift.DialectSQLite, cat)
	fmt.Println(err)
	// Output:
	// {"select":[{"expr":{"kind":"column","table":"t1","column":"Name"},"alias":"Name"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"count"}],"from":[{"table":"singer","alias":"t1"}],"where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"Country"},"right":{"kind":"literal","type":"string","value":"France"}},"right":{"kind":"binary","op":"\u003e","left":{"kind":"column","table":"t1","column":"Age"},"right":{"kind":"literal","type":"integer","value":20}}},"group_by":[{"kind":"column","table":"t1","column":"Name"}],"order_by":[{"expr":{"kind":"column","column":"count"},"direction":"desc"}],"limit":3}
	// lift: the plan language cannot express function GROUP_CONCAT (at byte 7)
}
