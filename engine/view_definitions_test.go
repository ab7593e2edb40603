package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/pgtest"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// The threat: a host planning "km per driver in 2024" saw a view
// driver_km (km per driver) and nothing of what it covers, took it for
// the answer, and reported every year's completed trips as 2024's. The
// context a host plans with says what the view reads, keeps and groups
// by, on every engine: the planner can see there is no year in it.
func TestHostContextSaysWhatAViewCovers(t *testing.T) {
	tables := func(text, real string) []string {
		return []string{
			"CREATE TABLE drivers (id INTEGER PRIMARY KEY, name " + text + ")",
			"INSERT INTO drivers VALUES (1, 'Ana'), (2, 'Bo')",
			"CREATE TABLE trips (id INTEGER PRIMARY KEY, driver_id INTEGER REFERENCES drivers(id), day DATE, km " + real + ", status " + text + ")",
			"INSERT INTO trips VALUES (1, 1, '2023-05-01', 100, 'done'), (2, 1, '2024-02-01', 50, 'done'), (3, 2, '2024-03-01', 70, 'cancelled')",
			"CREATE VIEW driver_km AS SELECT d.id AS driver_id, SUM(t.km) AS km\n  FROM trips t JOIN drivers d ON d.id = t.driver_id\n  WHERE t.status = 'done'\n  GROUP BY d.id",
		}
	}
	specs := map[string]func(t *testing.T) DatasourceSpec{
		"sqlite": func(t *testing.T) DatasourceSpec {
			return DatasourceSpec{ID: "fleet", Engine: "sqlite", Path: sourcetest.TempDB(t, tables("TEXT", "REAL")...)}
		},
		"duckdb": func(t *testing.T) DatasourceSpec {
			return DatasourceSpec{ID: "fleet", Engine: "duckdb", Path: sourcetest.DuckTempDB(t, tables("VARCHAR", "DOUBLE")...)}
		},
		"postgres": func(t *testing.T) DatasourceSpec {
			r := pgtest.NewReader(t, "viewdefs")
			pgtest.Exec(t, r.Super, append(tables("TEXT", "NUMERIC"), "GRANT SELECT ON drivers, trips, driver_km TO "+r.Role)...)
			return DatasourceSpec{ID: "fleet", Engine: "postgres", DSN: r.URL.String()}
		},
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			e := specEngine(t, spec(t))
			res, err := e.Ask(context.Background(), AskRequest{Question: "km per driver in 2024"})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("ask: %v %+v", err, res)
			}
			var line string
			for _, l := range strings.Split(res.HostPlan.SchemaContext, "\n") {
				if strings.HasPrefix(l, "driver_km") {
					line = l
				}
			}
			// the tail says the rows (done trips, every year) and the grain
			for _, want := range []string{"driver_km view \"SELECT … FROM ", "trips", "JOIN drivers", "status = 'done'", "GROUP BY d.id", "\": driver_id "} {
				if !strings.Contains(line, want) {
					t.Errorf("driver_km's line lacks %q:\n%s", want, line)
				}
			}
			snap, err := e.VisibleSnapshot(context.Background(), "fleet")
			if err != nil {
				t.Fatal(err)
			}
			v, _ := snap.Lookup("", "driver_km")
			if v == nil || strings.HasPrefix(strings.ToUpper(v.Definition), "CREATE") || !strings.Contains(strings.ToLower(v.Definition), "sum(t.km)") {
				t.Errorf("recorded definition %+v, want the whole query without CREATE VIEW", v)
			}
		})
	}
}

// The access case: a role granted the view by name but not trips reads
// driver_km; its definition, which names trips, is withheld from every
// surface the role sees (the host's context and the snapshot that
// describe_schema and schema show print), and trips is named nowhere. A
// role that reads both tables sees the definition.
func TestViewDefinitionWithheldWhenItNamesHiddenTables(t *testing.T) {
	db := sourcetest.TempDB(t,
		"CREATE TABLE drivers (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO drivers VALUES (1, 'Ana')",
		"CREATE TABLE trips (id INTEGER PRIMARY KEY, driver_id INTEGER, km REAL, status TEXT)", "INSERT INTO trips VALUES (1, 1, 10, 'done')",
		"CREATE VIEW driver_km AS SELECT driver_id, SUM(km) AS km FROM trips WHERE status = 'done' GROUP BY driver_id")
	pol := policyFromYAML(t, `datasources:
  - {id: fleet, engine: sqlite, path: `+db+`}
roles:
  board:
    allow: [fleet.main.driver_km, fleet.main.drivers]
  ops:
    allow: [fleet]
users:
  - {name: bea, roles: [board]}
  - {name: olle, roles: [ops]}
local_user: bea
`)
	e, err := New(Options{Open: openAdapter, Policy: pol, Datasources: []DatasourceSpec{{ID: "fleet", Engine: "sqlite", Path: db}}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range []struct {
		user     string
		withheld bool
	}{{"bea", true}, {"olle", false}} {
		who, _ := pol.ForUser(c.user)
		ctx := WithCaller(context.Background(), who)
		snap, err := e.VisibleSnapshot(ctx, "fleet")
		if err != nil {
			t.Fatal(err)
		}
		v, _ := snap.Lookup("", "driver_km")
		if v == nil {
			t.Fatalf("%s does not see driver_km", c.user)
		}
		res, err := e.Ask(ctx, AskRequest{Question: "km per driver in driver_km"})
		if err != nil || res.HostPlan == nil {
			t.Fatalf("%s ask: %v %+v", c.user, err, res)
		}
		sctx := res.HostPlan.SchemaContext
		if c.withheld {
			if v.Definition != "" || !v.DefinitionWithheld || len(v.Reads) != 0 || strings.Contains(sctx, "trips") || !strings.Contains(sctx, "driver_km view (definition withheld)") {
				t.Errorf("%s: definition %q withheld %t reads %v, context:\n%s\nwant the definition withheld and trips named nowhere", c.user, v.Definition, v.DefinitionWithheld, v.Reads, sctx)
			}
			continue
		}
		if v.DefinitionWithheld || !strings.Contains(v.Definition, "FROM trips") || !strings.Contains(sctx, "FROM trips WHERE status = 'done'") ||
			len(v.Reads) != 1 || v.Reads[0] != (schema.Relation{Schema: "main", Name: "trips"}) {
			t.Errorf("%s: definition %q withheld %t reads %v, context:\n%s\nwant the definition shown", c.user, v.Definition, v.DefinitionWithheld, v.Reads, sctx)
		}
	}
}

// The secret case: a view that keeps the live accounts by their keys
// ("WHERE api_key IN ('sk-live-…')") showed those keys to every caller
// who reads it, in the host's context and the snapshot every schema
// surface prints, while the key column's own values are never profiled.
// Its strings are blanked; the rest of the definition stays, and a view
// that names no secret column keeps its strings.
func TestViewDefinitionNamingASecretColumnLosesItsStrings(t *testing.T) {
	stmts := func(text string) []string {
		return []string{
			"CREATE TABLE accounts (id INTEGER PRIMARY KEY, name " + text + ", api_key " + text + ")",
			"INSERT INTO accounts VALUES (1, 'Ana', 'sk-live-4242'), (2, 'Bo', 'sk-test-1')",
			"CREATE VIEW live_accounts AS SELECT id, name FROM accounts WHERE api_key IN ('sk-live-4242', 'sk-live-9999') AND name <> 'nobody'",
			"CREATE VIEW named_accounts AS SELECT id, name FROM accounts WHERE name <> 'nobody'",
		}
	}
	specs := map[string]func(t *testing.T) DatasourceSpec{
		"sqlite": func(t *testing.T) DatasourceSpec {
			return DatasourceSpec{ID: "crm", Engine: "sqlite", Path: sourcetest.TempDB(t, stmts("TEXT")...)}
		},
		"postgres": func(t *testing.T) DatasourceSpec {
			r := pgtest.NewReader(t, "viewsecrets")
			pgtest.Exec(t, r.Super, append(stmts("TEXT"), "GRANT SELECT ON accounts, live_accounts, named_accounts TO "+r.Role)...)
			return DatasourceSpec{ID: "crm", Engine: "postgres", DSN: r.URL.String()}
		},
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			e := specEngine(t, spec(t))
			snap, err := e.VisibleSnapshot(context.Background(), "crm")
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Ask(context.Background(), AskRequest{Question: "which accounts are live"})
			if err != nil || res.HostPlan == nil {
				t.Fatalf("ask: %v %+v", err, res)
			}
			live, _ := snap.Lookup("", "live_accounts")
			named, _ := snap.Lookup("", "named_accounts")
			if live == nil || named == nil {
				t.Fatalf("views missing from the snapshot: %+v", snap.Tables)
			}
			for where, text := range map[string]string{"definition": live.Definition, "host context": res.HostPlan.SchemaContext} {
				if strings.Contains(text, "sk-live") {
					t.Errorf("%s shows a key:\n%s", where, text)
				}
			}
			if !strings.Contains(live.Definition, "api_key") || !strings.Contains(live.Definition, "'<redacted>'") {
				t.Errorf("live_accounts' definition %q, want it kept with its strings blanked", live.Definition)
			}
			if !strings.Contains(named.Definition, "'nobody'") {
				t.Errorf("named_accounts' definition %q lost a string though it names no secret column", named.Definition)
			}
		})
	}
}
