package render_test

import (
	"os"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// BenchmarkValidateRender validates and renders a realistic plan: revenue
// per artist, three joins, an aggregate, group by, having, order and limit
// (testdata/golden/join_group_having.plan.json).
func BenchmarkValidateRender(b *testing.B) {
	raw, err := os.ReadFile(goldenDir + "/join_group_having.plan.json")
	if err != nil {
		b.Fatal(err)
	}
	q, err := planast.Decode(raw, planast.DefaultLimits)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := planast.Decode(raw, planast.DefaultLimits); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := validate.Plan(q, goldenCatalog, validate.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	v, err := validate.Plan(q, goldenCatalog, validate.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range dialects() {
		b.Run("render/"+d.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := render.SQL(v.Plan, d, goldenOpts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("validate+render/sqlite", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			v, err := validate.Plan(q, goldenCatalog, validate.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := render.SQL(v.Plan, sqliteDialect, goldenOpts); err != nil {
				b.Fatal(err)
			}
		}
	})
}
