package normalize

import "testing"

// TestNormalize checks the lexical rewrites done before parsing.
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT `a b` FROM [t]", `SELECT "a b" FROM "t"`},
		{"SELECT a FROM t LIMIT 5, 10", "SELECT a FROM t LIMIT 10 OFFSET 5"},
		{"SELECT a FROM t WHERE a == 1", "SELECT a FROM t WHERE a = 1"},
		{"SELECT a FROM t JOIN u", "SELECT a FROM t JOIN u ON TRUE"},
		{"SELECT a FROM t AS x JOIN u AS y WHERE 1", "SELECT a FROM t AS x JOIN u AS y ON TRUE WHERE 1"},
		{"SELECT a FROM t JOIN u ON t.a = u.a", "SELECT a FROM t JOIN u ON t.a = u.a"},
		{"SELECT a FROM t CROSS JOIN u", "SELECT a FROM t CROSS JOIN u"},
		{"SELECT a FROM t JOIN (SELECT 1) v ORDER BY a", "SELECT a FROM t JOIN (SELECT 1) v ON TRUE ORDER BY a"},
		{"SELECT a FROM t WHERE a IS 1 AND b IS NOT 2 AND c IS NULL", "SELECT a FROM t WHERE a IS NOT DISTINCT FROM 1 AND b IS DISTINCT FROM 2 AND c IS NULL"},
		{`SELECT a FROM t WHERE b = "" AND c = '--x' -- "note"`, `SELECT a FROM t WHERE b = '' AND c = '--x' -- "note"`},
	} {
		n := SQL(c.in, "sqlite")
		if n.SQL != c.want {
			t.Errorf("normalize(%q)\n got %q\nwant %q", c.in, n.SQL, c.want)
		}
		if len(n.orig) != len(n.SQL) {
			t.Errorf("normalize(%q): %d offsets for %d bytes", c.in, len(n.orig), len(n.SQL))
		}
	}
}
