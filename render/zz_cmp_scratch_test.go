package render_test

import (
	"os"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/render"
)

func TestZZCmpScratch(t *testing.T) {
	db := openSQLite(t, goldenCatalog, goldenRows)
	os.MkdirAll("/tmp/pgs/sqlite", 0o755)
	os.MkdirAll("/tmp/pgs/q", 0o755)
	pg, _ := render.Lookup("postgres")
	for _, g := range goldenPlans(t) {
		s, _ := render.SQL(g.v.Plan, sqliteDialect, goldenOpts)
		rows, err := queryAll(db, s)
		var b strings.Builder
		if err != nil {
			b.WriteString("ERROR " + err.Error() + "\n")
		}
		for _, r := range rows {
			b.WriteString(strings.Join(r, "|") + "\n")
		}
		os.WriteFile("/tmp/pgs/sqlite/"+g.name+".txt", []byte(b.String()), 0o644)
		p, _ := render.SQL(g.v.Plan, pg, goldenOpts)
		os.WriteFile("/tmp/pgs/q/"+g.name+".sql", []byte(p+";\n"), 0o644)
	}
}
