package evalret

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

func catalog() *schema.Snapshot {
	tb := func(name string, cols ...string) schema.Table {
		t := schema.Table{Schema: "main", Name: name, Kind: schema.KindTable}
		for _, c := range cols {
			t.Columns = append(t.Columns, schema.Column{Name: c, Type: planast.TypeText})
		}
		return t
	}
	return &schema.Snapshot{Datasource: "t", Dialect: schema.DialectSQLite, Tables: []schema.Table{
		tb("concert", "concert_ID", "Stadium_ID", "Year"),
		tb("singer", "Singer_ID", "Name", "Country"),
		tb("singer_in_concert", "concert_ID", "Singer_ID"),
		tb("stadium", "Stadium_ID", "Name", "Capacity"),
	}}
}

func TestTokenGold(t *testing.T) {
	sql := `SELECT T2.Name, count(*) FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.Singer_ID = T2.Singer_ID
		WHERE country = 'France' AND T2.Name LIKE "%Jo%" GROUP BY T2.Name ORDER BY count(*) DESC`
	g := tokenGold(sql, catalog())
	want := Gold{
		Tables:   []string{"singer", "singer_in_concert"},
		Columns:  []string{"singer.Country", "singer.Name", "singer.Singer_ID", "singer_in_concert.Singer_ID"},
		Literals: []string{"%Jo%", "France"},
		Source:   "tokens",
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("tokenGold =\n%+v\nwant\n%+v", g, want)
	}
	// Comma joins, bare table names as qualifiers, quoted identifiers.
	g = tokenGold(`SELECT "stadium".Name FROM concert, stadium WHERE concert.Stadium_ID = stadium.Stadium_ID AND Year = '2014'`, catalog())
	if want := []string{"concert", "stadium"}; !reflect.DeepEqual(g.Tables, want) {
		t.Errorf("tables = %v", g.Tables)
	}
	if want := []string{"concert.Stadium_ID", "concert.Year", "stadium.Name", "stadium.Stadium_ID"}; !reflect.DeepEqual(g.Columns, want) {
		t.Errorf("columns = %v", g.Columns)
	}
}

func TestLiftGold(t *testing.T) {
	sql := `SELECT T2.Name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.Singer_ID = T2.Singer_ID WHERE T2.Country = 'France'`
	g := goldOf(sql, catalog())
	if g.Source != "lift" {
		t.Skipf("the lifter did not lift %q (falls back to tokens)", sql)
	}
	want := Gold{
		Tables:   []string{"singer", "singer_in_concert"},
		Columns:  []string{"singer.Country", "singer.Name", "singer.Singer_ID", "singer_in_concert.Singer_ID"},
		Literals: []string{"France"},
		Source:   "lift",
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("liftGold =\n%+v\nwant\n%+v", g, want)
	}
}

func TestDDLComments(t *testing.T) {
	snap := catalog()
	ddl := map[string]string{"singer": `CREATE TABLE singer (
-- Unique id of the singer
-- Stats: 0% null 100% unique
Singer_ID integer,
"Name" text, -- stage name
-- Country of birth
Country text,
PRIMARY KEY (Singer_ID)
)`}
	DDLComments(snap, ddl)
	got := []string{snap.Tables[1].Columns[0].Comment, snap.Tables[1].Columns[1].Comment, snap.Tables[1].Columns[2].Comment}
	if want := []string{"Unique id of the singer", "stage name", "Country of birth"}; !reflect.DeepEqual(got, want) {
		t.Errorf("comments = %q, want %q", got, want)
	}
}

// sharedDir is the shared data beside the project root (NL2SQL_SHARED
// overrides). Without it the benchmark slices skip, except under CI.
func sharedDir(t *testing.T) string {
	dir := os.Getenv("NL2SQL_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "eval")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but the shared evaluation data is missing at %s: %v", dir, err)
		}
		t.Skipf("shared evaluation data not found at %s (set NL2SQL_SHARED); skipping", dir)
	}
	return dir
}

// TestSpiderSlice runs the first five questions of every Spider dev
// database and checks the figures stay near the full run's.
func TestSpiderSlice(t *testing.T) {
	dir := sharedDir(t)
	rep, err := Run(context.Background(), Config{Dataset: "spider", Limit: 5,
		Questions: filepath.Join(dir, "eval", "spider", "dev.json"), DBRoot: filepath.Join(dir, "eval", "spider", "database")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ValueRecall == nil || rep.Literals.Stored == 0 {
		t.Fatalf("spider has stored values, yet value_recall is n/a: %+v", rep.Literals)
	}
	t.Logf("spider slice: %d questions, table %.3f column %.3f share %.3f value %.3f tokens %d, gold %v",
		rep.Questions, rep.TableRecall, rep.ColumnRecall, rep.ColumnShare, *rep.ValueRecall, rep.PromptTokens, rep.Gold)
	if rep.Questions < 50 || len(rep.Builds) != 11 {
		t.Fatalf("%d questions over %d databases, want about 55 over 11", rep.Questions, len(rep.Builds))
	}
	if rep.TableRecall < 0.95 || rep.ColumnRecall < 0.93 || rep.ColumnShare > 0.65 {
		t.Errorf("spider slice below its floor: %+v", rep)
	}
}

// TestBIRDSlice does the same on BIRD mini-dev (schema-only databases:
// no value figures).
func TestBIRDSlice(t *testing.T) {
	dir := sharedDir(t)
	rep, err := Run(context.Background(), Config{Dataset: "bird", Limit: 10,
		Questions: filepath.Join(dir, "eval", "bird-minidev", "mini_dev_sqlite.json"), DBRoot: filepath.Join(dir, "eval", "bird-minidev", "database")})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("bird slice: %d questions, table %.3f column %.3f share %.3f tokens %d, gold %v",
		rep.Questions, rep.TableRecall, rep.ColumnRecall, rep.ColumnShare, rep.PromptTokens, rep.Gold)
	if rep.TableRecall < 0.9 || rep.ColumnRecall < 0.88 || rep.ColumnShare > 0.4 {
		t.Errorf("bird slice below its floor: %+v", rep)
	}
	// Nothing is stored in a schema-only database: the value figure is
	// n/a, not 0 (which would read as "no literal found").
	if rep.Literals.Stored != 0 || rep.ValueRecall != nil {
		t.Errorf("bird: %d stored literals, value_recall %v; want 0 and n/a", rep.Literals.Stored, rep.ValueRecall)
	}
	if b, _ := json.Marshal(rep); !strings.Contains(string(b), `"value_recall":null`) {
		t.Errorf("bird JSON: value_recall is not null")
	}
}

// TestReport runs a whole benchmark when NL2SQL_EVAL_REPORT is "spider" or
// "bird" and writes the report (with cases) as JSON to NL2SQL_EVAL_OUT
// (default: the test log gets the summary only); NL2SQL_EVAL_NOCOMMENTS=1
// leaves DDL comments out:
//
//	NL2SQL_EVAL_REPORT=spider NL2SQL_EVAL_OUT=/tmp/spider.json go test ./internal/evalret -run TestReport -v
func TestReport(t *testing.T) {
	ds := os.Getenv("NL2SQL_EVAL_REPORT")
	if ds == "" {
		t.Skip("set NL2SQL_EVAL_REPORT=spider or bird to run a whole benchmark")
	}
	dir := sharedDir(t)
	cfg := Config{Dataset: ds, Cases: true, NoComments: os.Getenv("NL2SQL_EVAL_NOCOMMENTS") != ""}
	switch ds {
	case "spider":
		cfg.Questions, cfg.DBRoot = filepath.Join(dir, "eval", "spider", "dev.json"), filepath.Join(dir, "eval", "spider", "database")
	case "bird":
		cfg.Questions, cfg.DBRoot = filepath.Join(dir, "eval", "bird-minidev", "mini_dev_sqlite.json"), filepath.Join(dir, "eval", "bird-minidev", "database")
	default:
		t.Fatalf("NL2SQL_EVAL_REPORT=%q, want spider or bird", ds)
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("NL2SQL_EVAL_OUT"); out != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := rep.Cases
	rep.Cases = nil
	b, _ := json.Marshal(rep)
	t.Logf("%s (%d cases)", b, len(cases))
}
