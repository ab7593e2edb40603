package lift

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// sharedFile returns a file of the project's shared/ directory (beside the
// repository root), skipping the test when it is absent, failing when CI
// is set.
func sharedFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing (CI is set)", p)
		}
		t.Skipf("%s is missing", p)
	}
	return p
}

// TestHostileCuratedSQL lifts every hostile curated statement: each must
// end in *Error or *Unsupported, never a plan.
func TestHostileCuratedSQL(t *testing.T) {
	f, err := os.Open(sharedFile(t, "hostile/curated_sql.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hostileCat := testCatalog{"t": table("t", "a", "a:integer")}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		_, sqlText, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		n++
		for _, d := range []string{DialectSQLite, DialectPostgres} {
			q, err := Lift(sqlText, d, hostileCat)
			var le *Error
			var un *Unsupported
			if q != nil || !errors.As(err, &le) && !errors.As(err, &un) {
				t.Errorf("Lift(%q, %s) = %v, %v; want a refusal", sqlText, d, q, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no cases read")
	}
}

// fixtureCat is shared/hostile/schema_fixture.sql's schema.
var fixtureCat = testCatalog{
	"order":       table("order", "select", "select:integer", "unit price:decimal", "größe:text", "客户:text", "Group:integer", `a"b:text`),
	"Order Items": table("Order Items", "ItemID", "ItemID:integer", "OrderSelect:integer", "Qty:integer"),
	"n":           table("n", "id", "id:integer", "name:text", "code:text", "big:integer", "amount:decimal", "day:date"),
}

// TestHostileNames lifts queries over reserved-word, spaced, quoted,
// mixed-case and non-ASCII names: every name keeps the catalog's exact
// spelling.
func TestHostileNames(t *testing.T) {
	cases := []liftCase{
		{"odd names", "SELECT \"select\", [unit price], `größe`, 客户, \"Group\", \"a\"\"b\" FROM \"order\" WHERE \"客户\" = '甲'",
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"select"},"alias":"select"},{"expr":{"kind":"column","table":"t1","column":"unit price"},"alias":"unit price"},
			  {"expr":{"kind":"column","table":"t1","column":"größe"},"alias":"größe"},{"expr":{"kind":"column","table":"t1","column":"客户"},"alias":"客户"},
			  {"expr":{"kind":"column","table":"t1","column":"Group"},"alias":"Group"},{"expr":{"kind":"column","table":"t1","column":"a\"b"},"alias":"a\"b"}],
			  "from":[{"table":"order","alias":"t1"}],"where":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"客户"},"right":{"kind":"literal","type":"string","value":"甲"}}}`},
		{"spaced table", `SELECT o."select", sum(i.Qty) FROM "order" AS o JOIN "Order Items" AS i ON i.OrderSelect = o."select" GROUP BY o."select"`,
			`{"select":[{"expr":{"kind":"column","table":"o","column":"select"},"alias":"select"},{"expr":{"kind":"func","name":"SUM","args":[{"kind":"column","table":"i","column":"Qty"}]},"alias":"sum_qty"}],
			  "from":[{"table":"order","alias":"o"},{"table":"Order Items","alias":"i"}],"joins":[{"type":"inner","left":"o","right":"i","on":[{"left_column":"select","right_column":"OrderSelect"}]}],
			  "group_by":[{"kind":"column","table":"o","column":"select"}]}`},
		{"tricky values", `SELECT id FROM n WHERE code = '00123' AND big = 9007199254740993 AND amount = 12345678901234567.89 AND name = 'null'`,
			`{"select":[{"expr":{"kind":"column","table":"t1","column":"id"},"alias":"id"}],"from":[{"table":"n","alias":"t1"}],
			  "where":{"kind":"binary","op":"and","left":{"kind":"binary","op":"and","left":{"kind":"binary","op":"and",
			    "left":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"code"},"right":{"kind":"literal","type":"string","value":"00123"}},
			    "right":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"big"},"right":{"kind":"literal","type":"integer","value":9007199254740993}}},
			    "right":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"amount"},"right":{"kind":"literal","type":"decimal","value":"12345678901234567.89"}}},
			    "right":{"kind":"binary","op":"=","left":{"kind":"column","table":"t1","column":"name"},"right":{"kind":"literal","type":"string","value":"null"}}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := Lift(c.sql, DialectSQLite, fixtureCat)
			if err != nil {
				t.Fatal(err)
			}
			want, err := planast.Decode([]byte(c.want), planast.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got, w := string(q.Canonical()), string(want.Canonical()); got != w {
				t.Errorf("\n got %s\nwant %s", got, w)
			}
		})
	}
}
