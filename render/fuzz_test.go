package render_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/render"
)

// fuzzCatalog holds the golden tables and the hostile plans' t, u and
// secrets (denied by fuzzOpts), so that both seed sets reach the renderer.
var fuzzCatalog = append(memCatalog{
	table("t", []string{"id integer", "x text", "created_at date"}),
	table("u", []string{"x text"}),
	table("secrets", []string{"id integer", "token text"}),
}, goldenCatalog...)

type denyTables map[string]bool

func (d denyTables) AllowTable(_, table string) bool     { return !d[table] }
func (d denyTables) AllowColumn(_, table, _ string) bool { return !d[table] }

var fuzzOpts = validate.Options{Access: denyTables{"secrets": true}}

// knownPrepareGaps lists SQLite preparation errors (other than syntax
// errors) that a validated plan may still meet, each a documented gap of the
// validator. It is empty: every accepted plan so far prepares.
var knownPrepareGaps = []string{}

// FuzzDecodeValidateRender feeds arbitrary bytes through Decode, Validate
// and SQL for every dialect. Nothing may panic; a plan Validate accepts must
// render on every dialect, validate again to the same plan, and its SQLite
// rendering must prepare on a database holding the catalog's tables.
func FuzzDecodeValidateRender(f *testing.F) {
	db := openSQLite(f, fuzzCatalog, goldenRows)
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := planast.Decode(data, planast.DefaultLimits)
		if err != nil {
			mustPlanError(t, err)
			return
		}
		v, err := validate.Plan(q, fuzzCatalog, fuzzOpts)
		if err != nil {
			mustPlanError(t, err)
			return
		}
		again, err := validate.Plan(v.Plan, fuzzCatalog, fuzzOpts)
		if err != nil {
			t.Fatalf("a validated plan does not validate again: %v\n%s", err, v.Plan.Canonical())
		}
		if !bytes.Equal(again.Plan.Canonical(), v.Plan.Canonical()) {
			t.Fatalf("validation is not idempotent:\n%s\n%s", v.Plan.Canonical(), again.Plan.Canonical())
		}
		var lite string
		for _, d := range dialects() {
			sql, err := render.SQL(v.Plan, d, goldenOpts)
			if err != nil {
				t.Fatalf("validated but not rendered for %s: %v\n%s", d.Name(), err, v.Plan.Canonical())
			}
			if d.Name() == "sqlite" {
				lite = sql
			}
		}
		if lite == "" {
			return
		}
		stmt, err := db.Prepare(lite)
		if err != nil {
			msg := err.Error()
			known := !strings.Contains(msg, "syntax error")
			if known {
				known = false
				for _, gap := range knownPrepareGaps {
					if strings.Contains(msg, gap) {
						known = true
					}
				}
			}
			if !known {
				t.Fatalf("SQLite cannot prepare a validated plan: %v\nplan: %s\nsql:\n%s", err, v.Plan.Canonical(), lite)
			}
			return
		}
		stmt.Close()
	})
}

func mustPlanError(t *testing.T, err error) {
	var pe *planast.Error
	if !errors.As(err, &pe) || len(pe.Issues) == 0 {
		t.Fatalf("error is not a *planast.Error with issues: %v (%T)", err, err)
	}
}

const corpusDir = "testdata/fuzz/FuzzDecodeValidateRender"

// seedPlans returns the golden plans and the stored hostile plans, by name.
func seedPlans(t *testing.T) map[string][]byte {
	seeds := map[string][]byte{}
	for _, g := range goldenPlans(t) {
		var buf bytes.Buffer
		if err := json.Compact(&buf, g.raw); err != nil {
			t.Fatal(err)
		}
		seeds["golden-"+g.name] = buf.Bytes()
	}
	f, err := os.Open("../planast/testdata/hostile_plans.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var hc struct {
			Case string          `json:"case"`
			Plan json.RawMessage `json:"plan"`
		}
		if err := json.Unmarshal(sc.Bytes(), &hc); err != nil {
			t.Fatal(err)
		}
		if len(hc.Plan) > 0 {
			sum := sha256.Sum256([]byte(hc.Case))
			seeds[fmt.Sprintf("hostile-%x", sum[:6])] = hc.Plan
		}
	}
	return seeds
}

// TestFuzzSeedCorpus keeps the committed seed corpus in step with the golden
// and hostile plans (-update rewrites it); crashers found by fuzzing are
// committed beside them under other names and left alone.
func TestFuzzSeedCorpus(t *testing.T) {
	for name, data := range seedPlans(t) {
		want := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		path := filepath.Join(corpusDir, name)
		if *update {
			if err := os.MkdirAll(corpusDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s is missing or stale; run go test ./render -update", path)
		}
	}
}
