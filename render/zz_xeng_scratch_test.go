package render_test

// SCRATCH: cross-engine checks against a local PostgreSQL and DuckDB. Not for commit.

import (
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"context"
	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"
)

var xTypes = map[string]map[planast.Type]string{
	"postgres": {planast.TypeInteger: "BIGINT", planast.TypeDecimal: "NUMERIC", planast.TypeFloat: "DOUBLE PRECISION", planast.TypeText: "TEXT",
		planast.TypeBoolean: "BOOLEAN", planast.TypeDate: "DATE", planast.TypeTimestamp: "TIMESTAMP"},
	"duckdb": {planast.TypeInteger: "BIGINT", planast.TypeDecimal: "DECIMAL(18,4)", planast.TypeFloat: "DOUBLE", planast.TypeText: "VARCHAR",
		planast.TypeBoolean: "BOOLEAN", planast.TypeDate: "DATE", planast.TypeTimestamp: "TIMESTAMP"},
}

type xRunner interface {
	Exec(q string) error
	Query(q string) ([]string, error)
	Prepare(q string) error
}

type sqlRunner struct{ db *sql.DB }

func (r sqlRunner) Exec(q string) error              { _, err := r.db.Exec(q); return err }
func (r sqlRunner) Query(q string) ([]string, error) { return xQuery(r.db, q) }
func (r sqlRunner) Prepare(q string) error {
	st, err := r.db.Prepare(q)
	if err == nil {
		st.Close()
	}
	return err
}

type pgRunner struct{ c *pgx.Conn }

func (r pgRunner) Exec(q string) error { _, err := r.c.Exec(context.Background(), q); return err }
func (r pgRunner) Prepare(q string) error {
	_, err := r.c.Prepare(context.Background(), "", q)
	return err
}
func (r pgRunner) Query(q string) ([]string, error) {
	rows, err := r.c.Query(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		var rr []string
		for _, v := range vals {
			rr = append(rr, xNorm(v))
		}
		out = append(out, strings.Join(rr, "|"))
	}
	return out, rows.Err()
}

func xOpen(t testing.TB, engine string, cat memCatalog, rows map[string][]string) xRunner {
	if engine == "postgres" {
		c, err := pgx.Connect(context.Background(), "host=/tmp/pgs port=54329 user=postgres dbname=postgres")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		r := pgRunner{c}
		xSetup(t, r, engine, cat, rows)
		return r
	}
	var db *sql.DB
	var err error
	switch engine {
	case "duckdb":
		db, err = sql.Open("duckdb", "")
	case "sqlite":
		return sqlRunner{openSQLite(t, cat, rows)}
	}
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	r := sqlRunner{db}
	xSetup(t, r, engine, cat, rows)
	return r
}

func xSetup(t testing.TB, db xRunner, engine string, cat memCatalog, rows map[string][]string) {
	for i := len(cat) - 1; i >= 0; i-- {
		db.Exec("DROP TABLE IF EXISTS " + render.QuoteIdent(cat[i].Name) + " CASCADE")
	}
	for _, tb := range cat {
		var cols []string
		for i, c := range tb.Columns {
			d := render.QuoteIdent(c.Name) + " " + xTypes[engine][c.Type]
			if i == 0 {
				d += " PRIMARY KEY"
			}
			cols = append(cols, d)
		}
		if err := db.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", render.QuoteIdent(tb.Name), strings.Join(cols, ", "))); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows[tb.Name] {
			if err := db.Exec(fmt.Sprintf("INSERT INTO %s VALUES (%s)", render.QuoteIdent(tb.Name), r)); err != nil {
				t.Fatalf("%s: %v", r, err)
			}
		}
	}
}

func xNorm(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "1"
		}
		return "0"
	case []byte:
		return xNorm(string(x))
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999")
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil && !strings.ContainsAny(x, "eEnN") {
			return xNorm(f)
		}
		if tm, err := time.Parse("2006-01-02 15:04:05", x); err == nil {
			return xNorm(tm)
		}
		return x
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', 9, 64)
	case interface {
		Float64Value() (pgtype.Float8, error)
	}:
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return "NULL"
		}
		return xNorm(f.Float64)
	case float32:
		return xNorm(float64(x))
	case int64, int32, int, int16, int8, uint64, uint32:
		return fmt.Sprint(x)
	}
	s := fmt.Sprint(v)
	return xNorm(s)
}

func xQuery(db *sql.DB, q string) ([]string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		var r []string
		for _, v := range vals {
			r = append(r, xNorm(v))
		}
		out = append(out, strings.Join(r, "|"))
	}
	return out, rows.Err()
}

func TestZZXEngineGolden(t *testing.T) {
	dbs := map[string]xRunner{}
	for _, e := range []string{"sqlite", "postgres", "duckdb"} {
		dbs[e] = xOpen(t, e, goldenCatalog, goldenRows)
	}
	for _, g := range goldenPlans(t) {
		res := map[string]string{}
		for _, e := range []string{"sqlite", "postgres", "duckdb"} {
			d, _ := render.Lookup(e)
			s, _ := render.SQL(g.v.Plan, d, goldenOpts)
			rows, err := dbs[e].Query(s)
			if err != nil {
				res[e] = "ERROR " + err.Error()
			} else {
				res[e] = strings.Join(rows, "\n")
			}
		}
		if res["sqlite"] != res["postgres"] || res["sqlite"] != res["duckdb"] {
			t.Errorf("%s:\n-- sqlite\n%s\n-- postgres\n%s\n-- duckdb\n%s", g.name, res["sqlite"], res["postgres"], res["duckdb"])
		}
	}
}
