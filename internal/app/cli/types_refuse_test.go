package cli

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/pgtest"
)

// nestedFixtures are one table per engine with an interval, a JSON
// document, an array and an infinite date (SQLite has only the date, and
// its JSON is text).
var nestedFixtures = map[string][]string{
	"postgres": {
		"CREATE TABLE o (id integer PRIMARY KEY, shipping_time interval, attrs jsonb, tags text[], vip_until date)",
		`INSERT INTO o VALUES (1, '1 day 10 hours', '{"vip": true}', '{vip,gold}', 'infinity'), (2, '2 hours', '{"vip": false}', '{x}', '2024-01-01'), (3, NULL, NULL, NULL, NULL)`,
	},
	"duckdb": {
		"CREATE TABLE o (id integer PRIMARY KEY, shipping_time interval, attrs STRUCT(vip BOOLEAN), tags VARCHAR[], vip_until date)",
		`INSERT INTO o VALUES (1, INTERVAL '1 day 10 hours', {'vip': true}, ['vip', 'gold'], 'infinity'), (2, INTERVAL '2 hours', {'vip': false}, ['x'], '2024-01-01'), (3, NULL, NULL, NULL, NULL)`,
	},
	"sqlite": {
		"CREATE TABLE o (id integer PRIMARY KEY, shipping_time text, attrs JSON, tags text, vip_until date)",
		`INSERT INTO o VALUES (1, 'P1DT10H', '{"vip": true}', '["vip","gold"]', 'infinity'), (2, 'PT2H', '{"vip": false}', '["x"]', '2024-01-01'), (3, NULL, NULL, NULL, NULL)`,
	},
}

// Threat: the host is told a wrong type (an interval called text, a jsonb
// column text, an array unknown) and plans by it, or a plan passes
// check_plan and then fails in the database (LIKE on text[], AVG of an
// interval, MAX of a jsonb, a cast the engine refuses). On each engine the snapshot must
// name the real types, and every plan below must either run or be refused
// at validation with a typed issue and a hint; a refused plan's hint,
// followed, must run.
func TestTypesNestedRefusedOrRun(t *testing.T) {
	wantTypes := map[string]string{
		"postgres": "shipping_time:interval attrs:json tags:array vip_until:date",
		"duckdb":   "shipping_time:interval attrs:json tags:array vip_until:date",
		"sqlite":   "shipping_time:text attrs:text tags:text vip_until:date",
	}
	col := func(c string) string { return fmt.Sprintf(`{"kind":"column","table":"o","column":%q}`, c) }
	str := func(s string) string { return fmt.Sprintf(`{"kind":"literal","type":"string","value":%q}`, s) }
	like := func(x string) string {
		return `{"kind":"like","expr":` + x + `,"pattern":` + str("%vip%") + `}`
	}
	cast := func(x, ty string) string { return `{"kind":"cast","expr":` + x + `,"type":"` + ty + `"}` }
	agg := func(f, x string) string { return `{"kind":"func","name":"` + f + `","args":[` + x + `]}` }
	plan := func(sel, where string) string {
		p := `{"select":[{"expr":` + sel + `,"alias":"x"}],"from":[{"table":"o","alias":"o"}]`
		if where != "" {
			p += `,"where":` + where
		}
		return p + `}`
	}
	cases := []struct {
		name     string
		plan     string
		followed string // the plan the hint leads to, "" when the plan runs
	}{
		{"like on an array", plan(col("id"), like(col("tags"))), plan(col("id"), like(cast(col("tags"), "text")))},
		{"like on json", plan(col("id"), like(col("attrs"))), plan(col("id"), like(cast(col("attrs"), "text")))},
		{"like on an interval", plan(col("id"), like(col("shipping_time"))), plan(col("id"), like(cast(col("shipping_time"), "text")))},
		{"avg of an interval", plan(agg("AVG", col("shipping_time")), ""), plan(agg("MAX", col("shipping_time")), "")},
		{"sum of an interval", plan(agg("SUM", col("shipping_time")), ""), plan(agg("MIN", col("shipping_time")), "")},
		{"interval cast to decimal", plan(cast(col("shipping_time"), "decimal"), ""), plan(cast(col("shipping_time"), "text"), "")},
		{"array compared with text", plan(col("id"), `{"kind":"binary","op":"=","left":`+col("tags")+`,"right":`+str("vip")+`}`), plan(col("id"), `{"kind":"binary","op":"=","left":`+cast(col("tags"), "text")+`,"right":`+str("vip")+`}`)},
		{"upper of json", plan(agg("UPPER", col("attrs")), ""), plan(agg("UPPER", cast(col("attrs"), "text")), "")},
		{"max of json", plan(agg("MAX", col("attrs")), ""), plan(agg("MAX", cast(col("attrs"), "text")), "")},
		{"min of an array", plan(agg("MIN", col("tags")), ""), plan(agg("MIN", cast(col("tags"), "text")), "")},
		{"infinity date literal", plan(col("id"), `{"kind":"binary","op":"=","left":`+col("vip_until")+`,"right":{"kind":"literal","type":"date","value":"infinity"}}`), plan(col("id"), `{"kind":"binary","op":">","left":`+col("vip_until")+`,"right":{"kind":"literal","type":"date","value":"9999-12-31"}}`)},
		{"date diff over infinity", plan(`{"kind":"func","name":"DATE_DIFF_DAYS","args":[`+col("vip_until")+`,{"kind":"literal","type":"date","value":"2024-01-01"}]}`, ""), ""},
		{"json selected", plan(col("attrs"), ""), ""},
		{"array selected", plan(col("tags"), ""), ""},
		{"interval sorted", plan(col("shipping_time"), "")[:len(plan(col("shipping_time"), ""))-1] + `,"order_by":[{"expr":` + col("shipping_time") + `}]}`, ""},
		{"interval compared with interval", plan(col("id"), `{"kind":"binary","op":">=","left":`+col("shipping_time")+`,"right":`+col("shipping_time")+`}`), ""},
	}
	for _, eng := range []string{"sqlite", "duckdb", "postgres"} {
		t.Run(eng, func(t *testing.T) {
			a := openNested(t, eng)
			ctx := context.Background()
			snap, err := a.Engine.VisibleSnapshot(ctx, "d")
			if err != nil {
				t.Fatal(err)
			}
			info, ok := snap.LookupTable("", "o")
			if !ok {
				t.Fatal("no table o")
			}
			var got []string
			for _, c := range info.Columns[1:] {
				got = append(got, c.Name+":"+string(c.Type))
			}
			if strings.Join(got, " ") != wantTypes[eng] {
				t.Errorf("snapshot types %s, want %s", strings.Join(got, " "), wantTypes[eng])
			}
			for _, tc := range cases {
				_, err := a.Engine.RunPlan(ctx, "d", []byte(tc.plan))
				if err == nil {
					continue // it runs: nothing refused, nothing failed
				}
				e := engine.AsError(err)
				if e == nil || e.Code != engine.CodePlanInvalid || len(e.Issues) == 0 {
					t.Errorf("%s: failed outside validation: %v", tc.name, err)
					continue
				}
				for _, is := range e.Issues {
					if is.Hint == "" {
						t.Errorf("%s: issue without a hint: %s %s", tc.name, is.Code, is.Message)
					}
				}
				if tc.followed == "" {
					t.Errorf("%s: refused, it should run: %v", tc.name, err)
					continue
				}
				if _, err := a.Engine.RunPlan(ctx, "d", []byte(tc.followed)); err != nil {
					t.Errorf("%s: the hint's plan fails: %v", tc.name, err)
				}
			}
			// an infinite date is labelled, never NULL like the missing one,
			// and its day count is NULL on every engine
			label := `{"kind":"func","name":"PERIOD_LABEL","args":[{"kind":"literal","type":"string","value":"year"},` + col("vip_until") + `]}`
			diff := `{"kind":"func","name":"DATE_DIFF_DAYS","args":[` + col("vip_until") + `,{"kind":"literal","type":"date","value":"2023-12-31"}]}`
			p := `{"select":[{"expr":` + label + `,"alias":"y"},{"expr":` + diff + `,"alias":"d"}],"from":[{"table":"o","alias":"o"}],"order_by":[{"expr":` + col("id") + `}]}`
			res, err := a.Engine.RunPlan(ctx, "d", []byte(p))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(res.Rows); got != "[[infinity <nil>] [2024 1] [<nil> <nil>]]" {
				t.Errorf("PERIOD_LABEL and DATE_DIFF_DAYS over infinity, a date and NULL: %s", got)
			}
			// the hint's far date finds the infinite one where dates can be
			// infinite (SQLite's date() reads 'infinity' as NULL)
			far := plan(col("id"), `{"kind":"binary","op":">","left":`+col("vip_until")+`,"right":{"kind":"literal","type":"date","value":"9999-12-31"}}`)
			if res, err := a.Engine.RunPlan(ctx, "d", []byte(far)); err != nil || eng != "sqlite" && fmt.Sprint(res.Rows) != "[[1]]" {
				t.Errorf("vip_until > 9999-12-31: %v %v", res, err)
			}
		})
	}
}

// openNested opens an app over the engine's nested fixture as datasource d.
func openNested(t *testing.T, eng string) *app.App {
	t.Helper()
	dir := t.TempDir()
	where := ""
	switch eng {
	case "postgres":
		dsn := pgtest.Schema(t, pgtest.DSN(t))
		pgtest.Exec(t, dsn, nestedFixtures[eng]...)
		where = fmt.Sprintf("dsn: %q, allow_writable_role: true", dsn)
	default:
		p := filepath.Join(dir, "o."+eng)
		db, err := sql.Open(eng, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range nestedFixtures[eng] {
			if _, err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
		db.Close()
		where = fmt.Sprintf("path: %q", p)
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := fmt.Sprintf("storage: {path: %q}\ndatasources:\n  - {id: d, engine: %s, %s}\n", filepath.Join(dir, "state"), eng, where)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := app.Open(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}
