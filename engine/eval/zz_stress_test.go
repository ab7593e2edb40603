package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/render"
)

func TestDbgStress(t *testing.T) {
	if os.Getenv("STRESS") == "" {
		t.Skip()
	}
	shared := sharedDir(t)
	n, total, vfail := 0, 0, 0
	for _, s := range []struct{ suite, file, root string }{
		{SuiteSpider, "eval/spider/dev.json", "eval/spider/database"},
		{SuiteBird, "eval/bird-minidev/mini_dev_sqlite.json", "eval/bird-minidev/database"},
	} {
		qs, _ := LoadQuestions(s.suite, filepath.Join(shared, s.file))
		opts := Options{DBRoot: filepath.Join(shared, s.root)}
		dbs := map[string]*database{}
		for _, q := range qs {
			d := dbs[q.DBID]
			if d == nil {
				d = openDatabase(context.Background(), opts, q.DBID, func(ctx context.Context, id, p string) (target, func() error, error) {
					return nil, func() error { return nil }, nil
				})
				dbs[q.DBID] = d
			}
			for cut := len(q.Gold); cut > 0; cut -= 3 {
				for _, dl := range []string{"sqlite", "postgres"} {
					total++
					p, err := lift.Lift(q.Gold[:cut], dl, d.snap)
					if err != nil && strings.Contains(err.Error(), "internal error") {
						n++
						if n < 15 {
							fmt.Printf("%v on %q\n", err, q.Gold[:cut])
						}
					}
					if err == nil && dl == "sqlite" {
						v, err := planast.Validate(p, d.snap, planast.Options{})
						if err == nil {
							for _, e := range []string{"sqlite", "duckdb", "postgres"} {
								dd, _ := render.Lookup(e)
								if _, err := render.SQL(v.Plan, dd, render.Options{}); err != nil {
									fmt.Println("render", e, err, q.Gold[:cut])
								}
							}
						} else {
							vfail++
						}
					}
				}
			}
		}
	}
	fmt.Println("internal errors:", n, "of", total, "validation failures of prefixes:", vfail)
}
