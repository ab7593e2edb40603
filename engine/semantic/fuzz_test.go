package semantic_test

import (
	"errors"
	"os"
	"testing"

	"github.com/nl2sql/nl2sql/engine/semantic"
)

// FuzzParseCheck: any bytes give a Layer or a *semantic.Error, never a
// panic or another error type.
func FuzzParseCheck(f *testing.F) {
	seed, err := os.ReadFile(chinookFile)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, s := range []string{"", "tables: [", "metrics:\n  - {name: m, table: Invoice, expr: {kind: metric, name: m}}\n",
		"filters:\n  - {name: f, table: Invoice, expr: {kind: subquery, query: {select: [{expr: {kind: literal, value: 1}, alias: x}]}}}\n",
		"relationships:\n  - {from: a, to: b.c.d}\n", "fiscal: 7\n", "metrics: {a: 1}\n", "tables:\n  - name: Invoice\n    columns:\n      - {name: Total, values: [1, 2]}\n",
		"metrics:\n  - {name: m, table: Invoice, expr: {kind: func, name: SUM, args: [{kind: column, table: Customer, column: Total}]}}\n"} {
		f.Add([]byte(s))
	}
	snap := chinookSnapshot(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		pf, err := semantic.Parse("f.yaml", b)
		if err != nil {
			var se *semantic.Error
			if !errors.As(err, &se) {
				t.Fatalf("Parse: %T %v", err, err)
			}
			return
		}
		if _, err := semantic.Check(pf, snap); err != nil {
			var se *semantic.Error
			if !errors.As(err, &se) {
				t.Fatalf("Check: %T %v", err, err)
			}
		}
	})
}
