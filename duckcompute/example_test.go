package duckcompute_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/planast"
)

// Sales per genre from one datasource joined with targets from another,
// whose genre ids came back as text; the final plan keeps the genres that
// beat their target. This is the worked example of the package doc.
func Example() {
	ctx := context.Background()
	sales := duckcompute.Shape{Name: "sq_sales", Columns: []duckcompute.Column{
		{Name: "genre_id", Type: planast.TypeInteger}, {Name: "genre", Type: planast.TypeText}, {Name: "revenue", Type: planast.TypeDecimal}}}
	targets := duckcompute.Shape{Name: "sq_targets", Columns: []duckcompute.Column{
		{Name: "genre_id", Type: planast.TypeText}, {Name: "revenue", Type: planast.TypeDecimal}}}
	groups := []duckcompute.Group{{
		Name: "cg_joined", Op: duckcompute.OpJoin,
		Inputs: []duckcompute.Input{{Table: "sq_sales", Label: "sales", Role: "left"}, {Table: "sq_targets", Label: "targets", Role: "right"}},
		Keys:   []duckcompute.Key{{Left: "genre_id", Right: "genre_id"}},
	}}
	var final planast.Query
	if err := json.Unmarshal([]byte(`{
	  "select": [{"expr": {"kind": "column", "table": "j", "column": "genre"}, "alias": "genre"},
	             {"expr": {"kind": "column", "table": "j", "column": "revenue"}, "alias": "revenue"},
	             {"expr": {"kind": "column", "table": "j", "column": "targets_revenue"}, "alias": "target"}],
	  "from": [{"table": "cg_joined", "alias": "j"}],
	  "where": {"kind": "binary", "op": ">", "left": {"kind": "column", "table": "j", "column": "revenue"},
	            "right": {"kind": "column", "table": "j", "column": "targets_revenue"}}}`), &final); err != nil {
		panic(err)
	}
	comb, err := duckcompute.Prepare([]duckcompute.Shape{sales, targets}, groups, &final)
	if err != nil {
		panic(err)
	}
	fmt.Println("targets.genre_id loads as", comb.Tables[1].Columns[0].Type)

	db, err := duckcompute.Open(ctx, duckcompute.Options{})
	if err != nil {
		panic(err)
	}
	defer db.Close()
	if _, err := db.Load(ctx, comb.Tables[0], [][]any{{int64(1), "Rock", 162.36}, {int64(3), "Metal", 65.34}, {int64(7), "Latin", 63.36}}); err != nil {
		panic(err)
	}
	warns, err := db.Load(ctx, comb.Tables[1], [][]any{{"1", int64(150)}, {"3", "70.00"}, {"seven", 60.5}})
	if err != nil {
		panic(err)
	}
	for _, w := range warns {
		fmt.Println("warning:", w)
	}
	out, err := db.Run(ctx, comb.Plan, 100)
	if err != nil {
		panic(err)
	}
	fmt.Println(out.SQL)
	fmt.Println(out.Columns, out.Types)
	for _, r := range out.Rows {
		fmt.Println(r...)
	}
	// Output:
	// targets.genre_id loads as integer
	// warning: 1 value(s) of sq_targets.genre_id did not convert to integer (first: "seven") and were loaded as NULL
	// WITH "cg_joined" AS (SELECT "l"."genre_id" AS "genre_id", "l"."genre" AS "genre", "l"."revenue" AS "revenue", "r"."revenue" AS "targets_revenue"
	// FROM "main"."sq_sales" AS "l"
	// INNER JOIN "main"."sq_targets" AS "r" ON "l"."genre_id" = "r"."genre_id")
	// SELECT "j"."genre" AS "genre", "j"."revenue" AS "revenue", "j"."targets_revenue" AS "target"
	// FROM "cg_joined" AS "j"
	// WHERE ("j"."revenue" > "j"."targets_revenue")
	// ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST, 3 ASC NULLS LAST
	// LIMIT 101
	// [genre revenue target] [text decimal decimal]
	// Rock 162.36 150.00
}
