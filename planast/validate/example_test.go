package validate_test

import (
	"fmt"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// exampleCatalog is the smallest Catalog: tables by exact or lower-case name.
type exampleCatalog map[string]*planast.TableInfo

func (c exampleCatalog) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if t, ok := c[name]; ok {
		return t, true
	}
	t, ok := c[strings.ToLower(name)]
	return t, ok
}

var exampleTables = exampleCatalog{
	"artist": {Name: "Artist", PrimaryKey: []string{"ArtistId"},
		Columns: []planast.ColumnInfo{{Name: "ArtistId", Type: planast.TypeInteger}, {Name: "Name", Type: planast.TypeText}}},
	"album": {Name: "Album", PrimaryKey: []string{"AlbumId"},
		Columns: []planast.ColumnInfo{{Name: "AlbumId", Type: planast.TypeInteger}, {Name: "Title", Type: planast.TypeText},
			{Name: "ArtistId", Type: planast.TypeInteger}}},
}

// The worked example of the package documentation: artists with more than
// one album, most albums first.
const examplePlan = `{
  "select": [{"expr": {"kind": "column", "table": "ar", "column": "name"}, "alias": "artist"},
             {"expr": {"kind": "func", "name": "count", "args": []}, "alias": "albums"}],
  "from": [{"table": "album", "alias": "al"}, {"table": "artist", "alias": "ar"}],
  "joins": [{"left": "al", "right": "ar", "on": [{"left_column": "artistid", "right_column": "ArtistId"}]}],
  "group_by": [{"kind": "column", "table": "ar", "column": "ArtistId"}],
  "having": {"kind": "binary", "op": ">", "left": {"kind": "func", "name": "COUNT", "args": []},
             "right": {"kind": "literal", "value": 1}},
  "order_by": [{"expr": {"kind": "column", "column": "albums"}, "direction": "desc"}],
  "limit": 10
}`

func ExamplePlan() {
	q, err := planast.Decode([]byte(examplePlan), planast.DefaultLimits)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := validate.Plan(q, exampleTables, validate.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(v.Plan.Canonical()))
	fmt.Println(v.Columns, v.Types)

	// A plan naming a column the catalog lacks is refused with a typed issue.
	q.Select[0].Expr = &planast.Column{Table: "ar", Column: "nme"}
	_, err = validate.Plan(q, exampleTables, validate.Options{})
	fmt.Println(err)
	// Output:
	// {"select":[{"expr":{"kind":"column","table":"ar","column":"Name"},"alias":"artist"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"albums"}],"from":[{"table":"Album","alias":"al"},{"table":"Artist","alias":"ar"}],"joins":[{"type":"inner","left":"al","right":"ar","on":[{"left_column":"ArtistId","right_column":"ArtistId"}]}],"group_by":[{"kind":"column","table":"ar","column":"ArtistId"},{"kind":"column","table":"ar","column":"Name"}],"having":{"kind":"binary","op":"\u003e","left":{"kind":"func","name":"COUNT","args":[]},"right":{"kind":"literal","type":"integer","value":1}},"order_by":[{"expr":{"kind":"column","column":"albums"},"direction":"desc"}],"limit":10}
	// [artist albums] [text integer]
	// invalid plan: COLUMN_NOT_FOUND at select[0].expr.column: "ar" has no column "nme"; did you mean "Name"?
}
