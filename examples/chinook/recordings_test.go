package chinook_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

const (
	dbFile        = "chinook.sqlite"
	questionsFile = "questions.json"
	recordingsDir = "recordings"
)

// question is one entry of questions.json.
type question struct {
	Question string `json:"question"`
	GoldSQL  string `json:"gold_sql"`
}

// recording is a hand-written planner answer, in the shape the planner's
// replay reads.
type recording struct {
	Step         string `json:"step"`
	Datasource   string `json:"datasource"`
	Question     string `json:"question"`
	Sample       int    `json:"sample"`
	Note         string `json:"note"`
	PromptSHA256 string `json:"prompt_sha256"`
	Answer       struct {
		Reasoning string          `json:"reasoning"`
		Plan      json.RawMessage `json:"plan"`
	} `json:"answer"`
}

// orderKeys names, for the questions whose plans use order_by + limit, the
// output columns (0-based) the order is by. Rows must come back in the same
// order; rows that tie on these columns (after rounding) may come in any
// order among themselves.
var orderKeys = map[string][]int{
	"Who are the five customers who spent the most in total?":   {2},
	"Which artist has released the most albums?":                {1},
	"Which genre has sold the most tracks?":                     {1},
	"Which media type has the most tracks?":                     {1},
	"What are the ten longest tracks, with their album titles?": {2},
}

// facts are checked directly on the rows the recorded plan returns.
var facts = map[string]func(t *testing.T, rows [][]any){
	"How many customers are there in each country?": func(t *testing.T, rows [][]any) {
		for _, r := range rows {
			if r[0] == "USA" {
				if norm(r[1]) != norm(int64(13)) {
					t.Errorf("USA has %v customers, want 13", r[1])
				}
				return
			}
		}
		t.Errorf("no row for USA in %v", rows)
	},
	"Which artist has released the most albums?": func(t *testing.T, rows [][]any) {
		wantRows(t, rows, [][]any{{"Iron Maiden", int64(21)}})
	},
	"Which genre has sold the most tracks?": func(t *testing.T, rows [][]any) {
		wantRows(t, rows, [][]any{{"Rock", int64(835)}})
	},
	"Which media type has the most tracks?": func(t *testing.T, rows [][]any) {
		if len(rows) != 1 || rows[0][0] != "MPEG audio file" {
			t.Errorf("got %v, want one row for MPEG audio file", rows)
		}
	},
}

func wantRows(t *testing.T, got, want [][]any) {
	t.Helper()
	if fmt.Sprint(normRows(got)) != fmt.Sprint(normRows(want)) {
		t.Errorf("got rows %v, want %v", got, want)
	}
}

func TestRecordings(t *testing.T) {
	qs := loadQuestions(t)
	conn := openDB(t)
	cat := introspect(t, conn)

	for _, q := range qs {
		t.Run(slug(q.Question), func(t *testing.T) {
			rec := loadRecording(t, q.Question)
			plan, err := planast.Decode(rec.Answer.Plan, planast.DefaultLimits)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			vd, err := validate.Plan(plan, cat, validate.Options{Joins: validate.JoinDeclared})
			if err != nil {
				t.Fatalf("validate: %v", err)
			}
			text, err := render.SQL(vd.Plan, render.SQLite{}, render.Options{MaxRows: 1000})
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			gotCols, got := query(t, conn, text)
			wantCols, want := query(t, conn, q.GoldSQL)
			if len(gotCols) != len(wantCols) {
				t.Fatalf("plan returns %d columns %q, gold %d columns %q\nSQL:\n%s", len(gotCols), gotCols, len(wantCols), wantCols, text)
			}
			if strings.Join(gotCols, ",") != strings.Join(vd.Columns, ",") {
				t.Errorf("rendered SQL returns columns %q, validator says %q", gotCols, vd.Columns)
			}
			if strings.Join(gotCols, ",") != strings.Join(wantCols, ",") {
				t.Errorf("plan columns %q differ from gold columns %q", gotCols, wantCols)
			}
			if len(got) == 0 {
				t.Errorf("plan returns no rows")
			}

			keys, ordered := orderKeys[q.Question]
			limited := plan.Limit != nil && len(plan.OrderBy) > 0
			if ordered != limited {
				t.Fatalf("orderKeys entry present=%v but plan has order_by+limit=%v", ordered, limited)
			}
			if ordered {
				if msg := compareOrdered(got, want, keys); msg != "" {
					t.Errorf("ordered rows differ: %s\nSQL:\n%s", msg, text)
				}
			} else if msg := compareBags(got, want); msg != "" {
				t.Errorf("rows differ as multisets: %s\nSQL:\n%s", msg, text)
			}
			if f, ok := facts[q.Question]; ok {
				f(t, got)
			}
		})
	}
}

// TestFactsCovered makes sure every fact and order entry names a real question.
func TestFactsCovered(t *testing.T) {
	known := map[string]bool{}
	for _, q := range loadQuestions(t) {
		known[q.Question] = true
	}
	for q := range facts {
		if !known[q] {
			t.Errorf("facts names an unknown question %q", q)
		}
	}
	for q := range orderKeys {
		if !known[q] {
			t.Errorf("orderKeys names an unknown question %q", q)
		}
	}
	if len(facts) != 4 {
		t.Errorf("want 4 fact checks, have %d", len(facts))
	}
}

// TestRecordingFiles checks that each question has exactly one recording and
// that the directory holds nothing else.
func TestRecordingFiles(t *testing.T) {
	qs := loadQuestions(t)
	if len(qs) != 12 {
		t.Errorf("questions.json has %d questions, want 12", len(qs))
	}
	want := map[string]string{}
	for _, q := range qs {
		name := recordingName(q.Question)
		if prev, dup := want[name]; dup {
			t.Errorf("questions %q and %q share the recording name %s", prev, q.Question, name)
		}
		want[name] = q.Question
	}
	entries, err := os.ReadDir(recordingsDir)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "verified_params--") {
			continue // parameter fills for the verified queries (curated.yaml), not planner answers
		}
		if _, ok := want[e.Name()]; !ok || e.IsDir() {
			t.Errorf("unexpected entry in %s: %s", recordingsDir, e.Name())
			continue
		}
		have[e.Name()] = true
	}
	for name, q := range want {
		if !have[name] {
			t.Errorf("no recording %s for %q", name, q)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"How many tracks does each album by AC/DC have?":            "how-many-tracks-does-each-album-by-ac-dc-have",
		"What are the ten longest tracks, with their album titles?": "what-are-the-ten-longest-tracks-with-their-album-titles",
		"  --Top 5!! ": "top-5",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

func slug(q string) string {
	return strings.Trim(nonAlnum.ReplaceAllString(strings.ToLower(q), "-"), "-")
}

func recordingName(q string) string { return "plan--chinook--" + slug(q) + ".json" }

func loadQuestions(t *testing.T) []question {
	t.Helper()
	b, err := os.ReadFile(questionsFile)
	if err != nil {
		t.Fatal(err)
	}
	var qs []question
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&qs); err != nil {
		t.Fatalf("%s: %v", questionsFile, err)
	}
	for i, q := range qs {
		if q.Question == "" || q.GoldSQL == "" {
			t.Fatalf("%s[%d]: question and gold_sql are required", questionsFile, i)
		}
	}
	return qs
}

func loadRecording(t *testing.T, q string) recording {
	t.Helper()
	path := filepath.Join(recordingsDir, recordingName(q))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec recording
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if rec.Step != "plan" || rec.Datasource != "chinook" || rec.Sample != 0 {
		t.Errorf("%s: step/datasource/sample = %q/%q/%d, want plan/chinook/0", path, rec.Step, rec.Datasource, rec.Sample)
	}
	if rec.Question != q {
		t.Errorf("%s: question %q, want %q", path, rec.Question, q)
	}
	if rec.Note == "" || strings.TrimSpace(rec.Answer.Reasoning) == "" {
		t.Errorf("%s: note and answer.reasoning must be filled in", path)
	}
	if len(rec.Answer.Plan) == 0 || string(rec.Answer.Plan) == "null" {
		t.Fatalf("%s: answer.plan is missing", path)
	}
	return rec
}

// openDB opens the bundled database read-only on one connection with
// case-sensitive LIKE, as the SQLite adapter does.
func openDB(t *testing.T) *sql.Conn {
	t.Helper()
	abs, err := filepath.Abs(dbFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(abs)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.ExecContext(ctx, "PRAGMA case_sensitive_like=ON"); err != nil {
		t.Fatal(err)
	}
	return conn
}

// catalog is a planast.Catalog over the introspected tables of schema "main".
type catalog struct {
	tables []*planast.TableInfo
}

func (c *catalog) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if schema != "" && !strings.EqualFold(schema, "main") {
		return nil, false
	}
	for _, t := range c.tables {
		if t.Name == name {
			return t, true
		}
	}
	var hit *planast.TableInfo
	n := 0
	for _, t := range c.tables {
		if strings.EqualFold(t.Name, name) {
			hit, n = t, n+1
		}
	}
	return hit, n == 1
}

// portableType maps Chinook's declared column types onto planast types.
func portableType(decl string) (planast.Type, bool) {
	base := strings.ToUpper(strings.TrimSpace(decl))
	if i := strings.IndexByte(base, '('); i >= 0 {
		base = strings.TrimSpace(base[:i])
	}
	switch base {
	case "INTEGER":
		return planast.TypeInteger, true
	case "NVARCHAR":
		return planast.TypeText, true
	case "NUMERIC":
		return planast.TypeDecimal, true
	case "DATETIME":
		return planast.TypeTimestamp, true
	}
	return "", false
}

func introspect(t *testing.T, conn *sql.Conn) *catalog {
	t.Helper()
	ctx := context.Background()
	rows, err := conn.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	cat := &catalog{}
	for _, name := range names {
		ti := &planast.TableInfo{Schema: "main", Name: name}
		type pkCol struct {
			pos  int
			name string
		}
		var pks []pkCol
		rows, err := conn.QueryContext(ctx, "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid", name)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var col, decl string
			var pk int
			if err := rows.Scan(&col, &decl, &pk); err != nil {
				t.Fatal(err)
			}
			typ, ok := portableType(decl)
			if !ok {
				t.Fatalf("%s.%s: no portable type for declared type %q", name, col, decl)
			}
			ti.Columns = append(ti.Columns, planast.ColumnInfo{Name: col, Type: typ})
			if pk > 0 {
				pks = append(pks, pkCol{pk, col})
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		sort.Slice(pks, func(i, j int) bool { return pks[i].pos < pks[j].pos })
		for _, p := range pks {
			ti.PrimaryKey = append(ti.PrimaryKey, p.name)
		}
		rows, err = conn.QueryContext(ctx, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[int]*planast.ForeignKeyInfo{}
		var ids []int
		for rows.Next() {
			var id int
			var ref, from string
			var to sql.NullString
			if err := rows.Scan(&id, &ref, &from, &to); err != nil {
				t.Fatal(err)
			}
			fk, ok := byID[id]
			if !ok {
				fk = &planast.ForeignKeyInfo{RefSchema: "main", RefTable: ref}
				byID[id] = fk
				ids = append(ids, id)
			}
			fk.Columns = append(fk.Columns, from)
			fk.RefColumns = append(fk.RefColumns, to.String)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			ti.ForeignKeys = append(ti.ForeignKeys, *byID[id])
		}
		cat.tables = append(cat.tables, ti)
	}
	if len(cat.tables) != 11 {
		t.Fatalf("introspected %d tables, want the 11 Chinook tables", len(cat.tables))
	}
	return cat
}

func query(t *testing.T, conn *sql.Conn, text string) ([]string, [][]any) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), text)
	if err != nil {
		t.Fatalf("query failed: %v\nSQL:\n%s", err, text)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("query failed: %v\nSQL:\n%s", err, text)
	}
	return cols, out
}

// norm renders one value for comparison: numbers rounded to 2 decimals,
// with a prefix so that the number 1 and the text "1" differ.
func norm(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case int64:
		return numStr(float64(x))
	case float64:
		return numStr(x)
	case bool:
		return fmt.Sprintf("b:%v", x)
	case []byte:
		return "s:" + string(x)
	case string:
		return "s:" + x
	case time.Time:
		return "s:" + x.UTC().Format("2006-01-02 15:04:05")
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func numStr(f float64) string {
	r := math.Round(f*100) / 100
	if r == 0 {
		r = 0 // no "-0.00"
	}
	return fmt.Sprintf("n:%.2f", r)
}

func normRow(r []any) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = norm(v)
	}
	return strings.Join(parts, "\x1f")
}

func normRows(rows [][]any) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = normRow(r)
	}
	return out
}

// compareBags compares two results as multisets of normalised rows.
func compareBags(got, want [][]any) string {
	g, w := normRows(got), normRows(want)
	sort.Strings(g)
	sort.Strings(w)
	if strings.Join(g, "\n") == strings.Join(w, "\n") {
		return ""
	}
	return fmt.Sprintf("plan rows (%d):\n  %s\ngold rows (%d):\n  %s", len(g), pretty(g), len(w), pretty(w))
}

// compareOrdered compares two results in order, except that consecutive rows
// equal on the key columns form one block compared as a multiset.
func compareOrdered(got, want [][]any, keys []int) string {
	if len(got) != len(want) {
		return fmt.Sprintf("plan returns %d rows, gold %d:\n  %s\nvs\n  %s", len(got), len(want), pretty(normRows(got)), pretty(normRows(want)))
	}
	key := func(r []any) string {
		parts := make([]string, len(keys))
		for i, k := range keys {
			if k < len(r) {
				parts[i] = norm(r[k])
			}
		}
		return strings.Join(parts, "\x1f")
	}
	for i := 0; i < len(got); {
		j := i + 1
		for j < len(got) && key(got[j]) == key(got[i]) {
			j++
		}
		for k := i; k < j; k++ {
			if key(want[k]) != key(got[i]) {
				return fmt.Sprintf("row %d: plan %s, gold %s", k, normRow(got[k]), normRow(want[k]))
			}
		}
		if j < len(want) && key(want[j]) == key(got[i]) {
			return fmt.Sprintf("row %d: gold has one more row in the tie block %s", j, key(got[i]))
		}
		if msg := compareBags(got[i:j], want[i:j]); msg != "" {
			return fmt.Sprintf("rows %d-%d: %s", i, j-1, msg)
		}
		i = j
	}
	return ""
}

func pretty(rows []string) string {
	return strings.ReplaceAll(strings.Join(rows, "\n  "), "\x1f", " | ")
}
