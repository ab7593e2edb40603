package curated

import (
	"slices"
	"strings"
	"testing"
)

func analyzeSQL(t *testing.T, sql, dialect string, recursive bool) (*analysis, *Error) {
	t.Helper()
	p, err := prepare(sql, dialect)
	if err != nil {
		return nil, err.(*Error)
	}
	return analyze(p.parse, dialect, recursive)
}

func TestAnalyzeRefuses(t *testing.T) {
	tests := []struct {
		dialect, sql, code string
	}{
		{"sqlite", "", CodeStatements},
		{"sqlite", "-- only a comment", CodeStatements},
		{"sqlite", ";;", CodeStatements},
		{"sqlite", "SELECT 1; SELECT 2", CodeStatements},
		{"sqlite", "DELETE FROM t", CodeNotSelect},
		{"sqlite", "WITH x AS (SELECT 1) DELETE FROM t", CodeNotSelect},
		{"postgres", "WITH d AS (DELETE FROM t RETURNING 1) SELECT count(*) FROM d", CodeNotSelect},
		{"postgres", "WITH a AS (SELECT 1), d AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM a", CodeNotSelect},
		{"postgres", "SELECT * FROM (WITH d AS (INSERT INTO t VALUES (1) RETURNING a) SELECT * FROM d) s", CodeNotSelect},
		{"postgres", "SELECT (WITH d AS (DELETE FROM t RETURNING a) SELECT a FROM d LIMIT 1)", CodeNotSelect},
		{"sqlite", "SELECT * INTO t3 FROM t", CodeInto},
		{"postgres", "SELECT * FROM t FOR UPDATE", CodeLocking},
		{"postgres", "EXPLAIN ANALYZE SELECT 1", CodeNotSelect},
		{"postgres", "VALUES (1)", ""}, // a SELECT node: allowed
		{"sqlite", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", CodeRecursive},
		{"sqlite", "SELECT load_extension('/tmp/x.so')", CodeFunction},
		{"postgres", "SELECT pg_read_file('/etc/hostname')", CodeFunction},
		{"postgres", "SELECT pg_catalog.pg_read_file('/etc/hostname')", CodeFunction},
		{"postgres", "SELECT public.f(1)", CodeFunction},
		{"postgres", "SELECT count(*) FROM t WHERE a IN (SELECT setval('s', 1))", CodeFunction},
		{"postgres", "SELECT sum(a) FILTER (WHERE pg_sleep(1) IS NULL) FROM t", CodeFunction},
		{"duckdb", "SELECT * FROM read_csv_auto('/etc/passwd')", CodeTableFunc},
		{"duckdb", "SELECT * FROM t, glob('/etc/*') g", CodeTableFunc},
		{"postgres", "SELECT * FROM generate_series(1, 10)", CodeTableFunc},
		{"postgres", "SELECT * FROM t TABLESAMPLE SYSTEM (10)", CodeTableFunc},
		{"postgres", "SELECT * FROM other.db.t", CodeTable},
		{"sqlite", "WITH a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a", CodeTable}, // forward reference
		{"sqlite", "WITH a AS (SELECT * FROM a) SELECT * FROM a", CodeTable},                       // self reference
		{"postgres", `WITH "T" AS (SELECT 1) SELECT * FROM t`, CodeTable},                          // case-only match
		{"postgres", "SELECT 1 +", CodeParse},
		{"sqlite", "SELECT * FROM [t]", CodeLexical}, // SQLite's [..] quoting: refused with a hint by the one scanner
		{"duckdb", "SELECT * FROM '/etc/passwd'", CodeParse},
		{"postgres", "COPY (SELECT 1) TO PROGRAM 'id'", CodeNotSelect},
		{"postgres", "DO $x$ BEGIN END $x$", CodeLexical},
		{"postgres", "CALL p()", CodeNotSelect},
	}
	for _, tt := range tests {
		_, err := analyzeSQL(t, tt.sql, tt.dialect, false)
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%q refused: %v", tt.sql, err)
		case tt.code != "" && (err == nil || err.Code != tt.code):
			t.Errorf("%q: %v, want %s", tt.sql, err, tt.code)
		}
	}
	if _, err := analyzeSQL(t, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT count(*) FROM c", "sqlite", true); err != nil {
		t.Errorf("recursive allowed: %v", err)
	}
}

// Table reads are found at every depth, and a CTE name is a CTE only
// where it is in scope.
func TestAnalyzeTables(t *testing.T) {
	tests := []struct {
		sql    string
		tables []string
	}{
		{"SELECT a FROM t", []string{"t"}},
		{"SELECT a FROM main.t AS x JOIN u USING (id)", []string{"main.t", "u"}},
		{"SELECT (SELECT max(b) FROM u) FROM t WHERE a IN (SELECT a FROM v) AND EXISTS (SELECT 1 FROM w)", []string{"u", "t", "v", "w"}},
		{"WITH t AS (SELECT 1 AS a) SELECT a FROM t", nil},
		{"WITH c AS (SELECT a FROM t) SELECT a FROM c UNION SELECT a FROM u", []string{"t", "u"}},
		// the CTE of a subquery does not shadow the outer read of employee
		{"SELECT * FROM employee WHERE id IN (WITH employee AS (SELECT 1 AS id) SELECT id FROM employee)", []string{"employee"}},
		// a later CTE sees an earlier one; the earlier body reads the table
		{"WITH a AS (SELECT * FROM t), b AS (SELECT * FROM a) SELECT * FROM b", []string{"t"}},
		{"SELECT * FROM (SELECT * FROM t) s, LATERAL (SELECT * FROM u) l", []string{"t", "u"}},
	}
	for _, tt := range tests {
		an, err := analyzeSQL(t, tt.sql, "postgres", false)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		var got []string
		for _, r := range an.tables {
			got = append(got, qualified(r.schema, r.name))
		}
		if !slices.Equal(got, tt.tables) {
			t.Errorf("%s: tables %v, want %v", tt.sql, got, tt.tables)
		}
	}
	an, _ := analyzeSQL(t, "SELECT c.Email, x.* FROM Customer c NATURAL JOIN y", "sqlite", false)
	if !an.star || !an.natural || len(an.columns) == 0 || strings.Join(an.columns[0], ".") != "c.email" {
		t.Errorf("%+v", an)
	}
	an, _ = analyzeSQL(t, "SELECT * FROM ONLY t", "postgres", false)
	if !an.tables[0].only {
		t.Error("ONLY")
	}
}

// The threat: a verified query on SQLite writing TRIM(code) was refused as
// "function btrim is not on the sqlite allow-list", a name the author
// never wrote (PostgreSQL's parser spells TRIM so). TRIM in every form is
// judged as trim on every dialect; a btrim the author writes is still
// judged by its own name.
func TestTrimIsJudgedAsWritten(t *testing.T) {
	for _, dialect := range []string{"sqlite", "duckdb", "postgres"} {
		for _, q := range []string{
			"SELECT TRIM(name) FROM t",
			"SELECT TRIM(BOTH ' ' FROM name) FROM t",
			"SELECT TRIM(LEADING ' ' FROM name) FROM t",
			"SELECT TRIM(TRAILING ' ' FROM name) FROM t",
		} {
			if _, err := analyze(q, dialect, false); err != nil {
				t.Errorf("%s: %s: %v", dialect, q, err)
			}
		}
	}
	if _, err := analyze("SELECT btrim(name) FROM t", "sqlite", false); err == nil || err.Code != CodeFunction {
		t.Errorf("btrim written on SQLite (which has none): %v, want it refused", err)
	}
}
