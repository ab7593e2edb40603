package curated

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/scope"
)

// What `curated validate` accepts must run, and what every run would
// refuse must not validate: an administrator who sees "ok" and then a
// READ_ONLY_VIOLATION on every call has been lied to. Each engine gets the
// shapes that differ between pg_query's parse and the statement gate:
// TABLE t (a SELECT to the parser, no SELECT keyword to the gate) and
// compound queries that open with a parenthesis.
func TestValidateIsWhatRuns(t *testing.T) {
	setup := []string{"CREATE TABLE t (a integer)", "INSERT INTO t VALUES (1), (2)", "CREATE TABLE u (a integer)", "INSERT INTO u VALUES (2), (3)"}
	shapes := map[string]string{
		"table":        "TABLE t",
		"parens":       "(SELECT a FROM t) UNION (SELECT a FROM u) ORDER BY 1",
		"union_except": "(SELECT a FROM t UNION SELECT a FROM u) EXCEPT SELECT a FROM u WHERE a = 3",
		"with":         "WITH x AS (SELECT a FROM t) SELECT a FROM x UNION SELECT a FROM u",
		"plain":        "SELECT a FROM t UNION SELECT a FROM u EXCEPT SELECT 3",
	}
	for _, engine := range []string{"sqlite", "duckdb", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			var ds string
			switch engine {
			case "postgres":
				ds = "{id: h, engine: postgres, dsn: '" + pgReadOnlyDSN(t, setup...) + "'}"
			default:
				db := filepath.Join(t.TempDir(), "p."+engine)
				execDB(t, engine, db, setup...)
				ds = "{id: h, engine: " + engine + ", path: '" + db + "'}"
			}
			body := "datasources: [" + ds + "]\nroles:\n  r: {allow: [h]}\nusers: [{name: u, roles: [r]}]\n"
			var queries []vq
			for id, sql := range shapes {
				queries = append(queries, vq{"id": id, "datasource": "h", "description": id, "questions": []string{id}, "sql": sql})
			}
			cfg := writeSetup(t, body, nil, queries...)
			set, refused, targets, err := open(context.Background(), cfg, true)
			defer closeTargets(targets)
			if err != nil {
				t.Fatal(err)
			}
			pol, _ := scope.New(cfg.Access())
			u, _ := pol.ForUser("u")
			for _, r := range refused {
				t.Logf("refused %s: %v", r.ID, r.Err)
				if r.ID == "plain" || r.ID == "with" {
					t.Errorf("%s refused: %v", r.ID, r.Err)
				}
			}
			for _, q := range set.Queries() {
				if _, err := set.RunByID(context.Background(), targets["h"].Source, q.ID, nil, u, 0); err != nil {
					t.Errorf("%s validated but its run is refused: %v", q.ID, err)
				}
				if q.ID == "table" {
					t.Errorf("TABLE t validated, the gate refuses it at every run")
				}
			}
			if engine != "sqlite" {
				for _, id := range []string{"parens", "union_except"} {
					if _, ok := set.Get(id); !ok {
						t.Errorf("%s: a read that opens with a parenthesis is refused", id)
					}
				}
			}
		})
	}
}
