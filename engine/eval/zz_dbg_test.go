package eval

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/render"
)

func TestDbgTies(t *testing.T) {
	if os.Getenv("DBG_TIES") == "" {
		t.Skip()
	}
	opts := Options{Engine: "sqlite", MaxRows: 100000, Timeout: 30e9, DBRoot: os.Getenv("DBG_ROOT")}
	open, cleanup, _ := targetOpener(opts)
	defer cleanup()
	d := openDatabase(context.Background(), opts, os.Getenv("DBG_DB"), open)
	defer d.close()
	q := os.Getenv("DBG_TIES")
	plan, err := lift.Lift(q, "sqlite", d.snap)
	if err != nil {
		t.Fatal(err)
	}
	v, err := planast.Validate(plan, d.snap, planast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dialect, _ := render.Lookup("sqlite")
	gold, err := d.gold.run(context.Background(), q, 100000)
	fmt.Println(gold.rows, err)
	kp, _ := planast.Decode(v.Plan.Canonical(), planast.Limits{})
	kp.Select = append(kp.Select, planast.SelectItem{Expr: kp.OrderBy[0].Expr, Alias: "k1"}, planast.SelectItem{Expr: kp.OrderBy[1].Expr, Alias: "k2"})
	kp.Limit = nil
	v2, err := planast.Validate(kp, d.snap, planast.Options{})
	fmt.Println(err)
	s, _ := render.SQL(v2.Plan, dialect, render.Options{})
	fmt.Println(s)
	res, err := d.target.Query(context.Background(), s, nil, 20)
	fmt.Println(res.Rows, err)
	fmt.Println(tiesExplain(context.Background(), opts, dialect, d, v.Plan, gold))
}
