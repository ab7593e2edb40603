package curated

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the writable driver, to build the DuckDB fixture

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/scope"
)

// staticCodes are the refusals decided before any database sees the text.
var staticCodes = map[string]bool{CodeDefinition: true, CodeLexical: true, CodeParse: true, CodeStatements: true,
	CodeNotSelect: true, CodeInto: true, CodeLocking: true, CodeRecursive: true, CodeFunction: true,
	CodeTableFunc: true, CodePlacehold: true, CodeTable: true, CodeUnreadable: true}

// moreHostile widens each class of the shared lines (case, spacing,
// comments, nesting, SQLite's own table-valued and file functions).
var moreHostile = map[string][]string{
	"sqlite": {
		"SeLeCt 1;dRoP tAbLe t",
		"SELECT 1 -- harmless\n; DELETE FROM t",
		"SELECT 1 /* ; */ ; DROP TABLE t",
		"SELECT 1 /* /* */ ; DROP TABLE t; */",
		"WITH x AS (SELECT 1) UPDATE t SET a = 1",
		"SELECT * FROM (WITH d AS (SELECT 1) SELECT * FROM d) s; DELETE FROM t",
		"SELECT writefile('/tmp/hostile_w.txt', 'x')",
		"SELECT readfile('/etc/hostname')",
		"SELECT * FROM pragma_table_info('t')",
		"SELECT * FROM sqlite_master",
		"SELECT * FROM temp.t",
		"SELECT randomblob(1000000000)",
		"SELECT a FROM t WHERE a = :undeclared",
		"SELECT a FROM t WHERE a = ?1",
		"SELECT a FROM t WHERE a = $x",
		"INSERT INTO t SELECT 1",
		"SELECT a FROM t UNION SELECT 1; DELETE FROM t",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x FROM c) SELECT x FROM c LIMIT 1",
		"SELECT \x00 1",
	},
	"duckdb": {
		"SELECT * FROM read_parquet('/tmp/x.parquet')",
		"SELECT * FROM read_json_auto('/etc/hostname')",
		"SELECT * FROM t, read_text('/etc/hostname') f",
		"SELECT (SELECT content FROM read_text('/etc/hostname'))",
		"SELECT current_setting('enable_external_access')",
		"PRAGMA database_list",
		"CHECKPOINT",
		"DETACH h",
		"SELECT * FROM duckdb_settings()",
	},
	"postgres": {
		"SELECT pg_catalog.pg_read_file('/etc/hostname')",
		"SELECT pg_read_binary_file('/etc/hostname')",
		"SELECT * FROM pg_ls_dir('/')",
		"SELECT nextval('t_id_seq')",
		"SELECT set_config('default_transaction_read_only', 'off', false)",
		"SELECT dblink_exec('x', 'DROP TABLE t')",
		"SELECT * FROM pg_shadow",
		"SELECT * FROM t FOR UPDATE",
		"WITH d AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM d",
		"SELECT (WITH d AS (DELETE FROM t RETURNING a) SELECT count(*) FROM d)",
		"SELECT lo_export(1, '/tmp/hostile_lo')",
		"SET ROLE postgres",
		"RESET ALL",
		"LISTEN x",
		"SELECT E'\\'; DROP TABLE t; --'",
	},
}

// lookalikes must be accepted: the dangerous text is inside quotes or
// comments, where it is data or nothing.
var lookalikes = []string{
	"SELECT a AS \"x\"\"; DROP TABLE t; --\" FROM t",
	"SELECT 'DROP TABLE t; --' AS s FROM t",
	"SELECT a AS \"select\" FROM t -- ; DROP TABLE t",
	"/* ; DELETE FROM t; */ SELECT a FROM t",
}

// hostileRun writes every hostile line for engine (plus moreHostile and one
// good control query) into a curated file over the datasource in body,
// runs Validate, and checks: exit status 1 (ErrRefused), one refusal line
// with a static code per hostile query, the control accepted, and no line
// took long.
func hostileRun(t *testing.T, engine, body string) {
	t.Helper()
	lines := append(hostileLines(t, engine), moreHostile[engine]...)
	queries := []vq{{"id": "control", "datasource": "h", "description": "control", "questions": []string{"how many"},
		"sql": "SELECT count(*) AS n FROM t WHERE a > :min", "params": []map[string]any{{"name": "min", "type": "integer", "example": 0}}}}
	for i, sql := range lines {
		queries = append(queries, vq{"id": fmt.Sprintf("h%02d", i), "datasource": "h", "description": "hostile",
			"questions": []string{"hostile"}, "sql": sql})
	}
	for i, sql := range lookalikes {
		queries = append(queries, vq{"id": fmt.Sprintf("ok%d", i), "datasource": "h", "description": "lookalike",
			"questions": []string{"lookalike"}, "sql": sql})
	}
	cfg := writeSetup(t, body, map[string]any{"plan_timeout_seconds": 2}, queries...)
	var out bytes.Buffer
	start := time.Now()
	err := Validate(context.Background(), cfg, &out)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("Validate = %v, want ErrRefused\n%s", err, out.String())
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("validation took %s", d)
	}
	got := out.String()
	for _, id := range []string{"control", "ok0", "ok1", "ok2", "ok3"} {
		if !strings.Contains(got, "ok "+id+"\n") {
			t.Errorf("%s was not accepted:\n%s", id, got)
		}
	}
	for i, sql := range lines {
		id := fmt.Sprintf("h%02d", i)
		m := regexp.MustCompile(`(?m)^refused ` + id + `: ([A-Z_]+): (.+)$`).FindStringSubmatch(got)
		switch {
		case m == nil:
			t.Errorf("%s %q not refused:\n%s", id, sql, got)
		case !staticCodes[m[1]]:
			t.Errorf("%s %q refused by the database (%s: %s), not before it", id, sql, m[1], m[2])
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Log(got)
	}
}

// tmpPaths snapshots the /tmp files the hostile lines name.
func tmpPaths(lines []string) map[string]string {
	re := regexp.MustCompile(`/tmp/hostile[^' ;]*`)
	m := map[string]string{}
	for _, l := range lines {
		for _, p := range re.FindAllString(l, -1) {
			m[p] = statString(p)
		}
	}
	return m
}

func checkTmp(t *testing.T, before map[string]string) {
	t.Helper()
	for p, b := range before {
		if a := statString(p); a != b {
			t.Errorf("%s changed: %s → %s", p, b, a)
		}
	}
}

func TestHostileSQLite(t *testing.T) {
	db := sourcetest.CopyToTemp(t, "../examples/chinook/chinook.sqlite")
	execDB(t, "sqlite", db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing := fileSum(t, db), dirListing(t, filepath.Dir(db))
	tmp := tmpPaths(append(hostileLines(t, "sqlite"), moreHostile["sqlite"]...))
	hostileRun(t, "sqlite", "datasources: [{id: h, engine: sqlite, path: '"+db+"'}]")
	if fileSum(t, db) != sum || dirListing(t, filepath.Dir(db)) != listing {
		t.Error("the database or its directory changed")
	}
	checkTmp(t, tmp)
}

func TestHostileDuckDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.duckdb")
	execDB(t, "duckdb", db, "CREATE TABLE t (a INTEGER)", "INSERT INTO t VALUES (1), (2)")
	sum, listing := fileSum(t, db), dirListing(t, filepath.Dir(db))
	tmp := tmpPaths(append(hostileLines(t, "duckdb"), moreHostile["duckdb"]...))
	hostileRun(t, "duckdb", "datasources: [{id: h, engine: duckdb, path: '"+db+"'}]")
	if fileSum(t, db) != sum || dirListing(t, filepath.Dir(db)) != listing {
		t.Error("the database or its directory changed")
	}
	checkTmp(t, tmp)
}

func TestHostilePostgres(t *testing.T) {
	dsn := pgReadOnlyDSN(t, "CREATE TABLE t (id serial, a integer)", "INSERT INTO t (a) VALUES (1), (2)")
	tmp := tmpPaths(append(hostileLines(t, "postgres"), moreHostile["postgres"]...))
	hostileRun(t, "postgres", "datasources: [{id: h, engine: postgres, dsn: '"+dsn+"'}]")
	if n := pgScalar(t, dsn, "SELECT count(*)::text || ':' || sum(a)::text FROM t"); n != "2:3" {
		t.Errorf("t changed: %s", n)
	}
	checkTmp(t, tmp)
}

// A verified query with a parameter and a row filter on DuckDB and
// PostgreSQL: $k placeholders bound by position, the filter rendered in
// the engine's dialect around the table reference.
func TestRunOtherEngines(t *testing.T) {
	setup := []string{"CREATE TABLE customer (id integer, rep integer, email text)",
		"INSERT INTO customer VALUES (1, 1, 'a@x'), (2, 2, 'b@x'), (3, 1, 'c@x'), (4, 2, 'd@x')"}
	for _, engine := range []string{"duckdb", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var ds, schema string
			if engine == "duckdb" {
				db := filepath.Join(t.TempDir(), "r.duckdb")
				execDB(t, "duckdb", db, setup...)
				ds, schema = "{id: h, engine: duckdb, path: '"+db+"'}", "main"
			} else {
				ds, schema = "{id: h, engine: postgres, dsn: '"+pgReadOnlyDSN(t, setup...)+"'}", "public"
			}
			body := "datasources: [" + ds + "]\nroles:\n  r: {allow: [h], deny: [h." + schema + ".customer.email], row_filters: [{table: h." + schema +
				".customer, where: \"rep = :rep\"}]}\nusers: [{name: u, roles: [r], attributes: {rep: 1}}]\n"
			cfg := writeSetup(t, body, nil,
				vq{"id": "mine", "datasource": "h", "description": "customers", "questions": []string{"my customers"},
					"sql":    "SELECT c.id, rep FROM customer AS c WHERE c.id > :min AND :min >= 0 ORDER BY c.id",
					"params": []map[string]any{{"name": "min", "type": "integer", "example": 0}}},
				vq{"id": "emails", "datasource": "h", "description": "emails", "questions": []string{"emails"}, "sql": "SELECT email FROM customer"})
			set, refused, targets, err := open(context.Background(), cfg, true)
			defer closeTargets(targets)
			if err != nil || len(refused) > 0 {
				t.Fatalf("%v %v", err, refused)
			}
			pol, _ := scope.New(cfg.Access())
			u, _ := pol.ForUser("u")
			ex, err := set.RunByID(context.Background(), targets["h"].Source, "mine", map[string]any{"min": json.Number("0")}, u, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(ex.Result.Rows); got != "[[1 1] [3 1]]" {
				t.Errorf("rows %s\n%s", got, ex.SQL)
			}
			if _, err := set.RunByID(context.Background(), targets["h"].Source, "emails", nil, u, 0); err == nil {
				t.Error("the hidden column ran")
			}
		})
	}
}

// On SQLite a run sends ?k placeholders, whether the text is the checked
// one (converted once, at Check) or one a row filter rewrote.
func TestRunSQLitePlaceholders(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.sqlite")
	execDB(t, "sqlite", db, "CREATE TABLE customer (id integer, rep integer)",
		"INSERT INTO customer VALUES (1, 1), (2, 2), (3, 1)")
	body := "datasources: [{id: h, engine: sqlite, path: '" + db + "'}]\nroles:\n  all: {allow: [h]}\n  r: {allow: [h], row_filters: [{table: h.main.customer, where: \"rep = :rep\"}]}\n" +
		"users: [{name: a, roles: [all]}, {name: u, roles: [r], attributes: {rep: 1}}]\n"
	cfg := writeSetup(t, body, nil,
		vq{"id": "above", "datasource": "h", "description": "customers", "questions": []string{"customers above"},
			"sql":    "SELECT c.id FROM customer AS c WHERE c.id > :min AND :min >= 0 ORDER BY c.id",
			"params": []map[string]any{{"name": "min", "type": "integer", "example": 0}}})
	set, refused, targets, err := open(context.Background(), cfg, true)
	defer closeTargets(targets)
	if err != nil || len(refused) > 0 {
		t.Fatalf("%v %v", err, refused)
	}
	pol, _ := scope.New(cfg.Access())
	for user, rows := range map[string]string{"a": "[[2] [3]]", "u": "[[3]]"} {
		sc, _ := pol.ForUser(user)
		ex, err := set.RunByID(context.Background(), targets["h"].Source, "above", map[string]any{"min": json.Number("1")}, sc, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(ex.Result.Rows); got != rows {
			t.Errorf("%s: rows %s, want %s", user, got, rows)
		}
		if strings.Contains(ex.SQL, "$") || strings.Count(ex.SQL, "?1") != 2 {
			t.Errorf("%s: sent %s, want ?1 twice and no $k", user, ex.SQL)
		}
	}
}
