package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tbl(cols string, rows ...[]any) *table {
	return &table{cols: strings.Split(cols, ","), rows: rows}
}

func TestCompareTables(t *testing.T) {
	for _, c := range []struct {
		name      string
		gold, got *table
		ordered   bool
		want      string // "" = match, else a substring of the reason
	}{
		{"equal", tbl("a", []any{int64(1)}), tbl("a", []any{int64(1)}), false, ""},
		{"columns permuted", tbl("a,b", []any{int64(1), "x"}, []any{int64(2), "y"}), tbl("b,a", []any{"y", int64(2)}, []any{"x", int64(1)}), false, ""},
		{"rows as a multiset", tbl("a", []any{int64(1)}, []any{int64(2)}), tbl("a", []any{int64(2)}, []any{int64(1)}), false, ""},
		{"duplicates count", tbl("a", []any{int64(1)}, []any{int64(1)}, []any{int64(2)}), tbl("a", []any{int64(1)}, []any{int64(2)}, []any{int64(2)}), false, "no gold column"},
		{"order checked", tbl("a", []any{int64(1)}, []any{int64(2)}), tbl("a", []any{int64(2)}, []any{int64(1)}), true, "another order"},
		{"integer and float", tbl("a", []any{int64(2)}), tbl("a", []any{2.0}), false, ""},
		{"float tolerance", tbl("a", []any{1.0}), tbl("a", []any{1.0000001}), false, ""},
		{"float beyond tolerance", tbl("a", []any{1.0}), tbl("a", []any{1.001}), false, "no gold column"},
		{"NULLs equal", tbl("a,b", []any{nil, int64(1)}), tbl("a,b", []any{nil, int64(1)}), false, ""},
		{"NULL is not 0", tbl("a", []any{nil}), tbl("a", []any{int64(0)}), false, "no gold column"},
		{"decimal text", tbl("a", []any{int64(12)}), tbl("a", []any{"12.00"}), false, ""},
		{"text differs", tbl("a", []any{"x"}), tbl("a", []any{"X"}), false, "no gold column"},
		{"bool as number", tbl("a", []any{int64(1)}), tbl("a", []any{true}), false, ""},
		{"column count", tbl("a,b", []any{int64(1), int64(2)}), tbl("a", []any{int64(1)}), false, "1 columns, the gold 2"},
		{"row count", tbl("a", []any{int64(1)}), tbl("a"), false, "0 rows, the gold 1"},
		{"columns agree, rows do not", tbl("a,b", []any{int64(1), "x"}, []any{int64(2), "y"}), tbl("a,b", []any{int64(1), "y"}, []any{int64(2), "x"}), false, "rows differ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := compareTables(c.gold, c.got, c.ordered)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("compareTables = %q; want %q", got, c.want)
			}
		})
	}
}

func TestTieTolerant(t *testing.T) {
	lim := func(n int64) *int64 { return &n }
	// full: output column, then the sort key
	full := tbl("name,k", []any{"a", int64(1)}, []any{"b", int64(1)}, []any{"c", int64(2)}, []any{"d", int64(2)})
	for _, c := range []struct {
		name   string
		gold   *table
		offset int
		limit  *int64
		want   bool
	}{
		{"tied first row", tbl("name", []any{"b"}), 0, lim(1), true},
		{"not tied", tbl("name", []any{"c"}), 0, lim(1), false},
		{"order within ties", tbl("name", []any{"b"}, []any{"a"}, []any{"d"}, []any{"c"}), 0, nil, true},
		{"order across ties", tbl("name", []any{"c"}, []any{"a"}, []any{"b"}, []any{"d"}), 0, nil, false},
		{"offset into a tie", tbl("name", []any{"d"}), 2, lim(1), true},
		{"too few rows", tbl("name", []any{"a"}), 0, nil, false},
	} {
		if got := tieTolerant(c.gold, full, 1, []int{1}, c.offset, c.limit); got != c.want {
			t.Errorf("%s: tieTolerant = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestSummaryGroups(t *testing.T) {
	r := &Report{Suite: SuiteSpider, Engine: EngineSQLite, Planner: PlannerOracle}
	r.add(Case{ID: "a", Status: StatusPass})
	r.add(Case{ID: "b", Status: StatusFail, Reason: "result: returns 3 rows, the gold 4"})
	r.add(Case{ID: "c", Status: StatusFail, Reason: "result: returns 5 rows, the gold 2"})
	r.add(Case{ID: "d", Status: StatusUnsupported, Reason: `function "INSTR"`})
	r.finish(nil)
	s := r.Summary()
	if !strings.Contains(s, "   2  fail: result: returns N rows, the gold N  [b, c]") {
		t.Errorf("fails not grouped:\n%s", s)
	}
	if !strings.Contains(s, "execution accuracy 0.2500") || !strings.Contains(s, "unsupported: function …") {
		t.Errorf("summary:\n%s", s)
	}
}

func TestLoadQuestions(t *testing.T) {
	qs, err := LoadQuestions(SuiteBird, "testdata/bird_slice.json")
	if err != nil || len(qs) != 22 || qs[0].ID != "bird-1" || qs[0].Evidence == "" || qs[0].Gold == "" {
		t.Fatalf("LoadQuestions = %+v, %v", qs, err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"notjson.json": "{",
		"nogold.json":  `[{"db_id": "x", "question": "q"}]`,
		"object.json":  `{"db_id": "x"}`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadQuestions(SuiteSpider, p); err == nil {
			t.Errorf("%s loaded", name)
		}
	}
}
