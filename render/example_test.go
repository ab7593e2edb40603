package render_test

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// The worked example of the package documentation: artists with more than
// one album, most albums first, capped at 100 rows.
func ExampleSQL() {
	plan := `{
	  "select": [{"expr": {"kind": "column", "table": "ar", "column": "Name"}, "alias": "artist"},
	             {"expr": {"kind": "func", "name": "COUNT", "args": []}, "alias": "albums"}],
	  "from": [{"table": "Album", "alias": "al"}, {"table": "Artist", "alias": "ar"}],
	  "joins": [{"left": "al", "right": "ar", "on": [{"left_column": "ArtistId", "right_column": "ArtistId"}]}],
	  "where": {"kind": "binary", "op": ">=", "left": {"kind": "func", "name": "LENGTH", "args": [{"kind": "column", "column": "Title"}]},
	            "right": {"kind": "binary", "op": "/", "left": {"kind": "literal", "value": 7}, "right": {"kind": "literal", "value": 2}}},
	  "group_by": [{"kind": "column", "table": "ar", "column": "ArtistId"}],
	  "having": {"kind": "binary", "op": ">", "left": {"kind": "func", "name": "COUNT", "args": []}, "right": {"kind": "literal", "value": 1}},
	  "order_by": [{"expr": {"kind": "column", "column": "albums"}, "direction": "desc"}],
	  "limit": 10000
	}`
	q, err := planast.Decode([]byte(plan), planast.DefaultLimits)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := validate.Plan(q, goldenCatalog, validate.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"sqlite", "duckdb", "postgres"} {
		d, _ := render.Lookup(name)
		sql, err := render.SQL(v.Plan, d, render.Options{MaxRows: 100})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("-- %s\n%s\n", name, sql)
	}
	// Output:
	// -- sqlite
	// SELECT "ar"."Name" AS "artist", COUNT(*) AS "albums"
	// FROM "Album" AS "al"
	// INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
	// WHERE (CAST(LENGTH("al"."Title") AS REAL) >= (CAST(7 AS REAL) / NULLIF(2, 0)))
	// GROUP BY "ar"."ArtistId", "ar"."Name"
	// HAVING (COUNT(*) > 1)
	// ORDER BY "albums" DESC NULLS LAST, 1 ASC NULLS LAST
	// LIMIT 100
	// -- duckdb
	// SELECT "ar"."Name" AS "artist", COUNT(*) AS "albums"
	// FROM "Album" AS "al"
	// INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
	// WHERE (CAST(LENGTH("al"."Title") AS DOUBLE) >= (CAST(7 AS DOUBLE) / NULLIF(2, 0)))
	// GROUP BY "ar"."ArtistId", "ar"."Name"
	// HAVING (COUNT(*) > 1)
	// ORDER BY "albums" DESC NULLS LAST, 1 ASC NULLS LAST
	// LIMIT 100
	// -- postgres
	// SELECT "ar"."Name" AS "artist", COUNT(*) AS "albums"
	// FROM "Album" AS "al"
	// INNER JOIN "Artist" AS "ar" ON "al"."ArtistId" = "ar"."ArtistId"
	// WHERE (CAST(LENGTH("al"."Title") AS DOUBLE PRECISION) >= (CAST(7 AS DOUBLE PRECISION) / NULLIF(2, 0)))
	// GROUP BY "ar"."ArtistId", "ar"."Name"
	// HAVING (COUNT(*) > 1)
	// ORDER BY "albums" DESC NULLS LAST, 1 ASC NULLS LAST
	// LIMIT 100
}
