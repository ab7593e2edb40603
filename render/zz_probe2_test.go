package render_test

import (
	"os"
	"strings"
	"testing"
)

func TestZZProbe(t *testing.T) {
	cat := memCatalog{table("p", []string{"id integer", "f float", "s text"})}
	dbs := engines(t, cat, map[string][]string{"p": {`1, 2.675, 'x'`}})
	for _, q := range strings.Split(os.Getenv("PROBE"), ";;") {
		for _, e := range dbs {
			qq := strings.ReplaceAll(q, "DBL", map[string]string{"sqlite": "REAL", "duckdb": "DOUBLE", "postgres": "DOUBLE PRECISION"}[e.d.Name()])
			got, err := queryAll(e.db, qq)
			t.Logf("%-8s %s => %v %v", e.d.Name(), qq, got, err)
		}
	}
}
