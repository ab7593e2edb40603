package planast_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/planschema"
)

var hostOnce struct {
	sync.Once
	sch *jsonschema.Schema
	doc map[string]any
	err error
}

// hostSchema compiles planschema.Host with a validator hosts use
// (github.com/santhosh-tekuri/jsonschema, draft 2020-12).
func hostSchema(t testing.TB) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	hostOnce.Do(func() {
		raw := planschema.Host()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			hostOnce.err = err
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource("plan.json", doc); err != nil {
			hostOnce.err = err
			return
		}
		hostOnce.sch, hostOnce.err = c.Compile("plan.json")
		_ = json.Unmarshal(raw, &hostOnce.doc)
	})
	if hostOnce.err != nil {
		t.Fatalf("host schema does not compile: %v", hostOnce.err)
	}
	return hostOnce.sch, hostOnce.doc
}

// hostAccepts validates raw against the host schema.
func hostAccepts(t testing.TB, raw []byte) error {
	t.Helper()
	sch, _ := hostSchema(t)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// decodeShape reports whether Decode accepts raw as to shape: limits (size,
// nodes, depth) are not part of the schema.
func decodeShape(raw []byte) (ok, limit bool, err error) {
	_, err = planast.Decode(raw, planast.DefaultLimits)
	var pe *planast.Error
	if errors.As(err, &pe) && pe.FirstCode() == planast.CodeTooLarge {
		return false, true, err
	}
	return err == nil, false, err
}

func goldenPlanFiles(t *testing.T) map[string][]byte {
	files, err := filepath.Glob("../render/testdata/golden/*.plan.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden plans under render/testdata/golden: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	return out
}

// A host that checks its plan against the schema before sending it must
// not reject the plans the project itself writes: every golden plan and
// the plans of this package's tests (TestValidateAccepts checks its own
// through assertHostAccepts).
func TestHostSchemaAcceptsPlans(t *testing.T) {
	plans := goldenPlanFiles(t)
	plans["allKindsPlan"] = []byte(allKindsPlan)
	plans["minimal"] = []byte(minimal)
	for name, raw := range plans {
		if err := hostAccepts(t, raw); err != nil {
			t.Errorf("%s: the host schema refuses it: %v", name, err)
		}
	}
}

func assertHostAccepts(t *testing.T, plan string) {
	t.Helper()
	if err := hostAccepts(t, []byte(plan)); err != nil {
		t.Errorf("the host schema refuses a plan the validator accepts: %v", err)
	}
}

// The host form differs from the strict form where it must: fewer required
// properties, never an extra property, and the same enums.
func TestHostSchemaForm(t *testing.T) {
	_, host := hostSchema(t)
	var strict map[string]any
	if err := json.Unmarshal(planschema.Strict(), &strict); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(host["required"]) != "[select]" {
		t.Errorf("a query requires %v; only select is required", host["required"])
	}
	hdefs, sdefs := host["$defs"].(map[string]any), strict["$defs"].(map[string]any)
	for name, sd := range sdefs {
		hd, ok := hdefs[name].(map[string]any)
		if !ok {
			t.Errorf("$defs/%s is missing from the host form", name)
			continue
		}
		sp, _ := sd.(map[string]any)["properties"].(map[string]any)
		hp, _ := hd["properties"].(map[string]any)
		if len(sp) != len(hp) {
			t.Errorf("%s: %d properties in the strict form, %d in the host form", name, len(sp), len(hp))
		}
		if sp != nil && hd["additionalProperties"] != false {
			t.Errorf("%s: the host form allows additional properties", name)
		}
	}
	if !bytes.Equal(planschema.Host(), planschema.Host()) {
		t.Error("the host schema is not deterministic")
	}
}

// The date and timestamp patterns hosts check are exactly Decode's
// calendar: every day of the years around the edge cases (year 1, leap
// centuries, 9999) and impossible days and times.
func TestHostSchemaCalendarMatchesDecode(t *testing.T) {
	years := []int{0, 1, 4, 100, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999}
	n := 0
	for _, y := range years {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				date := fmt.Sprintf("%04d-%02d-%02d", y, m, d)
				for _, lit := range []string{
					`{"kind":"literal","type":"date","value":"` + date + `"}`,
					`{"kind":"literal","type":"timestamp","value":"` + date + ` 23:59:59.5"}`,
				} {
					n++
					compareShape(t, planWith(lit), "calendar "+date)
				}
			}
		}
	}
	for _, ts := range []string{"2024-01-01 24:00:00", "2024-01-01 23:60:00", "2024-01-01 23:59:60",
		"2024-01-01T10:00:00", "2024-01-01 10:00:00.1234567891", "2024-01-01 10:00", "2024-01-01  10:00:00"} {
		compareShape(t, planWith(`{"kind":"literal","type":"timestamp","value":"`+ts+`"}`), "timestamp "+ts)
	}
	if n < 5000 {
		t.Fatalf("only %d calendar cases", n)
	}
}

func planWith(e string) []byte {
	return []byte(`{"select":[{"expr":` + e + `,"alias":"x"}]}`)
}

// compareShape demands that schema and Decode agree on raw exactly.
func compareShape(t *testing.T, raw []byte, what string) {
	t.Helper()
	serr := hostAccepts(t, raw)
	ok, _, derr := decodeShape(raw)
	if (serr == nil) != ok {
		t.Errorf("%s: schema error %v, Decode error %v\n%s", what, serr, derr, raw)
	}
}

// JSON Schema counts 10.0 and 1e3 as integers; so must Decode, for limit,
// offset and integer literals, and both refuse what leaves 64 bits.
func TestHostSchemaIntegersMatchDecode(t *testing.T) {
	for _, n := range []string{"0", "10", "10.0", "1e3", "1E+2", "100e-2", "15e-1", "2.5", "-0.0", "0e5",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"9.223372036854775807e18", "1e19", "1e999", "1e-999"} {
		for _, key := range []string{"limit", "offset"} {
			raw := []byte(`{"select":[{"expr":{"kind":"column","column":"a"}}],"` + key + `":` + n + `}`)
			if strings.HasPrefix(n, "-") && n != "-0.0" {
				// the schema states the validator's rule (INVALID_LIMIT)
				if hostAccepts(t, raw) == nil {
					t.Errorf("%s %s: the host schema accepts a negative row count the validator refuses", key, n)
				}
				continue
			}
			compareShape(t, raw, key+" "+n)
		}
		compareShape(t, planWith(`{"kind":"literal","type":"integer","value":`+n+`}`), "integer literal "+n)
	}
}
