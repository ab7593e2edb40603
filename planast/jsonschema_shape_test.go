package planast_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The host schema's promise, tested from the threat: a host validates its
// plan against the schema and sends it, and the server refuses it for its
// shape anyway. Documents are generated from the schema itself (every
// optional field dropped, nulled or filled, every anyOf branch, every enum
// value) and then mutated the ways hosts and hostile clients get plans
// wrong (dropped, nulled and unknown fields, wrong JSON types, NUL
// characters, impossible dates, out-of-range and fractional numbers, case
// and synonym spellings, empty arrays). For every document: if the schema
// accepts it, Decode accepts it; and where Decode accepts what the schema
// refuses, the difference must be one the schema's description documents
// (leniency below), or the schema is stricter than the language for no
// reason.
func TestHostSchemaShapeEquivalence(t *testing.T) {
	_, doc := hostSchema(t)
	g := &gen{r: rand.New(rand.NewPCG(7, 11)), defs: doc["$defs"].(map[string]any), seen: map[string]bool{}, turn: map[string]int{}}
	var seeds []any
	golden := goldenPlanFiles(t)
	for _, name := range sortedKeys(golden) {
		raw := golden[name]
		var v any
		if err := decodeJSON([]byte(raw), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		seeds = append(seeds, v)
	}
	for _, raw := range []string{allKindsPlan, minimal} {
		var v any
		_ = decodeJSON([]byte(raw), &v)
		seeds = append(seeds, v)
	}
	seeds = append(seeds, hostilePlans(t)...)

	generated, missed := 0, 0
	for i := 0; i < 800; i++ {
		v := g.value(doc, 0)
		raw, _ := json.Marshal(v)
		if err := hostAccepts(t, raw); err != nil {
			missed++ // the generator does not solve every constraint; mutations still use it
			seeds = append(seeds, v)
			continue
		}
		generated++
		g.record(v)
		if ok, _, err := decodeShape(raw); !ok {
			t.Errorf("the schema accepts a generated plan Decode refuses: %v\n%s", err, raw)
		}
		seeds = append(seeds, v)
	}
	if generated < 660 {
		t.Fatalf("only %d of 800 generated plans satisfy the schema (%d missed); the generator lost track of it", generated, missed)
	}
	// every enum value of the schema appeared in an accepted plan
	var unseen []string
	for _, key := range g.enums() {
		if !g.seen[key] {
			unseen = append(unseen, key)
		}
	}
	if len(unseen) > 0 {
		t.Errorf("enum values never generated: %v", unseen)
	}

	counts := map[string]int{}
	for i, s := range seeds {
		// the reverse check (Decode accepts, so must the schema) is made
		// from documents the schema accepts; a seed it refuses for a
		// documented reason (a hostile function name) keeps it
		base, _ := json.Marshal(s)
		reverse := hostAccepts(t, base) == nil
		for k := 0; k < 4; k++ {
			m := g.mutate(s)
			if m.doc == nil {
				continue
			}
			raw, _ := json.Marshal(m.doc)
			serr := hostAccepts(t, raw)
			ok, limit, derr := decodeShape(raw)
			if limit {
				counts["over limits"]++
				continue
			}
			switch {
			case serr == nil && !ok:
				counts["schema accepts, Decode refuses"]++
				t.Errorf("seed %d, %s: the schema accepts it but Decode refuses: %v\n%s", i, m.what, derr, clip(raw))
			case serr == nil:
				counts["both accept"]++
			case !ok:
				counts["both refuse"]++
			case !reverse:
				counts["schema refuses (as it refuses the seed), Decode accepts"]++
			default:
				if why := leniency(m); why != "" {
					counts["Decode accepts a spelling the schema omits: "+why]++
				} else {
					counts["schema refuses, Decode accepts"]++
					t.Errorf("seed %d, %s: Decode accepts it but the schema refuses it\n%s", i, m.what, clip(raw))
				}
			}
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%6d  %s", counts[k], k)
	}
	t.Logf("%d generated plans accepted by the schema, %d missed; %d seeds", generated, missed, len(seeds))
	if counts["both refuse"] < 500 || counts["both accept"] < 100 {
		t.Errorf("mutations too weak: %v", counts)
	}
}

func decodeJSON(raw []byte, v any) error {
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	return d.Decode(v)
}

func hostilePlans(t *testing.T) []any {
	f, err := os.Open("testdata/hostile_plans.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Plan json.RawMessage `json:"plan"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || len(line.Plan) == 0 {
			continue
		}
		var v any
		if decodeJSON(line.Plan, &v) == nil {
			out = append(out, v)
		}
	}
	return out
}

// gen builds instances of the host schema.
type gen struct {
	r    *rand.Rand
	defs map[string]any
	seen map[string]bool // "def.prop=value" of enum values in accepted plans
	turn map[string]int  // next value of each enum
}

const maxGenDepth = 4

// leafExpr are the expression kinds that need no further expression.
var leafExpr = map[string]bool{"#/$defs/ColumnExpr": true, "#/$defs/LiteralExpr": true,
	"#/$defs/MetricRefExpr": true, "#/$defs/FilterRefExpr": true}

func (g *gen) resolve(s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		s = g.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	}
}

// patternValues are values for each pattern the schema uses; a pattern the
// generator does not know fails the test, so new ones get examples.
var patternValues = map[string][]string{
	`^[^\x00]*$`:                      {"", "a", "Name", "it's \"quoted\"", "naïve ünïcode", "%A_\\%", "2024-01-01", "select 1; --"},
	`^[+-]?[0-9]{1,18}$`:              {"0", "42", "-7", "+5", "007", "999999999999999999"},
	`^-?[0-9]{1,38}(\.[0-9]{1,38})?$`: {"0", "3.14", "-2.50", "12345678901234567890123456789012345678"},
}

func (g *gen) str(s map[string]any) string {
	p, _ := s["pattern"].(string)
	switch {
	case p == "":
		return "x"
	case strings.Contains(p, "[ T]"):
		return pick(g.r, []string{"2024-02-29 23:59:59", "0001-01-01T00:00:00", "1999-12-31 12:30:45.123456789"})
	case strings.Contains(p, "02-29"):
		return pick(g.r, []string{"2024-02-29", "0001-01-01", "2000-02-29", "1999-12-31", "2023-04-30"})
	}
	vals, ok := patternValues[p]
	if !ok {
		panic("the generator has no values for pattern " + p)
	}
	return pick(g.r, vals)
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// value generates an instance of s.
func (g *gen) value(s map[string]any, depth int) any {
	s = g.resolve(s)
	if e, ok := s["enum"].([]any); ok {
		// each enum takes its values in turn, so that all of them appear
		key := fmt.Sprint(e)
		g.turn[key]++
		return e[g.turn[key]%len(e)]
	}
	if alts, ok := s["anyOf"].([]any); ok && s["properties"] == nil {
		if depth >= maxGenDepth {
			var leaves []any
			for _, a := range alts {
				if ref, _ := a.(map[string]any)["$ref"].(string); leafExpr[ref] || a.(map[string]any)["type"] == "null" {
					leaves = append(leaves, a)
				}
			}
			if len(leaves) > 0 {
				alts = leaves
			}
		}
		return g.value(alts[g.r.IntN(len(alts))].(map[string]any), depth)
	}
	typ := s["type"]
	if ts, ok := typ.([]any); ok {
		typ = ts[g.r.IntN(len(ts))]
		if depth >= maxGenDepth && ts[len(ts)-1] == "null" {
			typ = "null"
		}
	}
	switch typ {
	case "null":
		return nil
	case "boolean":
		return g.r.IntN(2) == 0
	case "string":
		return g.str(s)
	case "integer":
		ints := []string{"0", "1", "3", "10", "1000", "9223372036854775807", "-9223372036854775808", "-4"}
		if m, ok := s["minimum"]; ok && !strings.HasPrefix(fmt.Sprint(m), "-") {
			ints = ints[:len(ints)-2] // a row count: no negatives
		}
		return json.Number(pick(g.r, ints))
	case "number":
		return json.Number(pick(g.r, []string{"0", "1.5", "-2.25", "1e300", "5e-324", "12345678901234567890", "7"}))
	case "array":
		n := g.r.IntN(3)
		if depth >= maxGenDepth {
			n = 0
		}
		if mi, ok := s["minItems"].(float64); ok && n < int(mi) {
			n = int(mi)
		}
		items, _ := s["items"].(map[string]any)
		out := []any{}
		for i := 0; i < n; i++ {
			out = append(out, g.value(items, depth+1))
		}
		return out
	case "object":
		return g.object(s, depth)
	}
	return "x" // an unconstrained value ({}), e.g. a literal's value before its branch
}

func (g *gen) object(s map[string]any, depth int) map[string]any {
	props, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	for _, k := range asStrings(s["required"]) {
		req[k] = true
	}
	// one anyOf branch constrains some properties further
	var branch map[string]any
	if alts, ok := s["anyOf"].([]any); ok {
		branch = alts[g.r.IntN(len(alts))].(map[string]any)
		for _, k := range asStrings(branch["required"]) {
			req[k] = true
		}
	}
	bprops, _ := branch["properties"].(map[string]any)
	out := map[string]any{}
	for _, k := range sortedProps(props) {
		ps := props[k].(map[string]any)
		if bs, ok := bprops[k].(map[string]any); ok {
			switch {
			case bs["type"] == "null":
				if g.r.IntN(2) == 0 {
					out[k] = nil
				}
				continue
			case bs["type"] == "object" || bs["type"] == "array" || (bs["type"] == "string" && bs["minLength"] != nil):
				ps = nonNull(g.resolve(ps))
			default:
				ps = bs
			}
			if !req[k] && g.r.IntN(3) == 0 {
				continue
			}
			out[k] = g.value(ps, depth+1)
			continue
		}
		if !req[k] {
			if depth >= maxGenDepth || g.r.IntN(5) < 2 {
				continue
			}
		}
		out[k] = g.value(ps, depth+1)
	}
	return out
}

// nonNull drops the null alternative of a nullable schema.
func nonNull(s map[string]any) map[string]any {
	if alts, ok := s["anyOf"].([]any); ok {
		for _, a := range alts {
			if a.(map[string]any)["type"] != "null" {
				return a.(map[string]any)
			}
		}
	}
	if ts, ok := s["type"].([]any); ok {
		c := map[string]any{}
		for k, v := range s {
			c[k] = v
		}
		c["type"] = ts[0]
		return c
	}
	return s
}

func asStrings(v any) []string {
	var out []string
	if a, ok := v.([]any); ok {
		for _, x := range a {
			out = append(out, x.(string))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedProps(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// enums lists "def.prop=value" for every enum value of an object property
// in the schema (the null of a nullable enum included).
func (g *gen) enums() []string {
	var out []string
	for name, d := range g.defs {
		props, _ := d.(map[string]any)["properties"].(map[string]any)
		for k, p := range props {
			if e, ok := p.(map[string]any)["enum"].([]any); ok {
				for _, v := range e {
					out = append(out, fmt.Sprintf("%s.%s=%v", defKind(name), k, v))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// defKind names a definition the way record recognises its instances.
func defKind(def string) string { return def }

// record marks the enum values an accepted plan holds, by the definition
// each object instantiates (told apart by kind, or by its keys).
func (g *gen) record(v any) {
	switch x := v.(type) {
	case []any:
		for _, c := range x {
			g.record(c)
		}
	case map[string]any:
		def := instanceDef(x)
		for k, c := range x {
			if c == nil {
				g.seen[fmt.Sprintf("%s.%s=<nil>", def, k)] = true
			} else if s, ok := c.(string); ok {
				g.seen[fmt.Sprintf("%s.%s=%s", def, k, s)] = true
			}
			g.record(c)
		}
	}
}

var kindDefs = map[string]string{"column": "ColumnExpr", "literal": "LiteralExpr", "binary": "BinaryExpr",
	"unary": "UnaryExpr", "in": "InExpr", "exists": "ExistsExpr", "subquery": "SubqueryExpr", "between": "BetweenExpr",
	"like": "LikeExpr", "is_null": "IsNullExpr", "case": "CaseExpr", "cast": "CastExpr", "func": "FuncExpr",
	"window": "WindowExpr", "metric": "MetricRefExpr", "filter": "FilterRefExpr"}

func instanceDef(m map[string]any) string {
	if k, ok := m["kind"].(string); ok {
		return kindDefs[k]
	}
	has := func(k string) bool { _, ok := m[k]; return ok }
	switch {
	case has("select") || has("from") || has("with"):
		return "Query"
	case has("left_column"):
		return "OnPair"
	case has("left") && has("right"):
		return "Join"
	case has("op") && has("query"):
		return "SetOp"
	case has("when"):
		return "When"
	case has("direction") || has("nulls"):
		return "OrderItem"
	case has("alias") && !has("expr"):
		return "From"
	}
	return "?"
}

// mutation is one changed copy of a document and what was changed.
type mutation struct {
	doc   any
	what  string
	op    string // delete, null, unknown, replace
	key   string // the field changed ("" for an array element)
	value any    // the new value (replace)
	old   any    // the value replaced
	def   string // the definition of the object whose field changed
}

// mutateValues are the replacement values: every JSON type, strings that
// break each value rule, numbers that break integer and float rules.
var mutateValues = []any{
	nil, true, false, "", "x\x00y", "x", json.Number("0"), json.Number("1.0"), json.Number("1e3"),
	json.Number("2.5"), json.Number("-1"), json.Number("9223372036854775808"), json.Number("-9223372036854775809"),
	json.Number("1e999"), json.Number("1e-999"), json.Number("15e-1"), json.Number("100e-2"),
	[]any{}, map[string]any{}, []any{map[string]any{}},
	"2024-02-30", "2023-02-29", "2024-02-29", "0000-01-01", "2024-01-01T25:00:00", "2024-01-01 10:00:00",
	"12345678901234567890", "+5", "1e5", " 5", ".5", "NaN", "==", "<>", " = ", "NOT",
	"   ", "nam\u202e", "a\u200bb",
}

var numberValues = []any{json.Number("1.0"), json.Number("1e3"), json.Number("100e-2"), json.Number("15e-1"),
	json.Number("9223372036854775808"), json.Number("-0.0"), json.Number("1E+2"), json.Number("0e5")}

func (g *gen) mutate(doc any) mutation {
	var spots []func() mutation
	var walk func(v any, def string, set func(any) any)
	walk = func(v any, def string, set func(any) any) {
		switch x := v.(type) {
		case map[string]any:
			d := instanceDef(x)
			for _, k := range sortedProps(x) {
				k := k
				old := x[k]
				spots = append(spots, func() mutation {
					switch g.r.IntN(6) {
					case 0:
						delete(x, k)
						return mutation{op: "delete", key: k, old: old, def: d}
					case 1:
						x[k] = nil
						return mutation{op: "null", key: k, old: old, def: d}
					case 2:
						if s, ok := old.(string); ok {
							nv := strings.ToUpper(s)
							if nv == s {
								nv = strings.ToLower(s)
							}
							x[k] = nv
							return mutation{op: "replace", key: k, value: nv, old: old, def: d}
						}
						fallthrough
					default:
						nv := pick(g.r, mutateValues)
						if _, isNum := old.(json.Number); isNum && g.r.IntN(2) == 0 {
							nv = pick(g.r, numberValues) // the integer rules need many tries
						}
						x[k] = nv
						return mutation{op: "replace", key: k, value: nv, old: old, def: d}
					}
				})
				spots = append(spots, func() mutation {
					x["zz_"+k] = old
					return mutation{op: "unknown", key: "zz_" + k, def: d}
				})
				walk(old, d, func(nv any) any { x[k] = nv; return nil })
			}
		case []any:
			for i := range x {
				i := i
				spots = append(spots, func() mutation {
					nv := pick(g.r, mutateValues)
					old := x[i]
					x[i] = nv
					return mutation{op: "replace", value: nv, old: old, def: def}
				})
				walk(x[i], def, func(nv any) any { x[i] = nv; return nil })
			}
		}
	}
	c := deepCopy(doc)
	walk(c, "Query", nil)
	if len(spots) == 0 {
		return mutation{}
	}
	m := spots[g.r.IntN(len(spots))]()
	m.doc = c
	m.what = fmt.Sprintf("%s %s.%s (%v → %v)", m.op, m.def, m.key, short(m.old), short(m.value))
	return m
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = deepCopy(e)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = deepCopy(e)
		}
		return c
	}
	return v
}

// leniency names the documented reason Decode accepts a mutation the
// schema refuses, or "" when there is none.
func leniency(m mutation) string {
	nv, _ := m.value.(string)
	caseEnums := map[string]bool{"direction": true, "nulls": true, "type": true, "op": true}
	switch {
	case m.key == "select" && (m.op == "delete" || m.op == "null" || m.value == nil || isEmptyArray(m.value)),
		m.op == "replace" && isEmptyObject(m.value) && (m.key == "query" || m.key == "subquery" || m.def == "" && m.key == ""):
		return "a query without select (the validator refuses it)"
	case (m.key == "limit" || m.key == "offset") && m.op == "replace" && strings.HasPrefix(strings.TrimSpace(fmt.Sprint(m.value)), "-"):
		return "a negative limit or offset (the validator refuses it: INVALID_LIMIT)"
	case m.key == "select" && m.op == "replace":
		return ""
	case m.key == "name" && (m.def == "FuncExpr" || m.def == "WindowExpr") && m.op == "replace":
		return "function names are the validator's (FUNCTION_NOT_ALLOWED)"
	case m.op == "replace" && caseEnums[m.key] && m.def != "SetOp" && nv != "" && strings.EqualFold(nv, fmt.Sprint(m.old)):
		return "enum values in another case"
	case m.op == "replace" && m.key == "op" && m.def == "BinaryExpr" && (nv == "==" || nv == "<>" || nv == " = "):
		return "operator synonyms == <> and spaces"
	case m.op == "replace" && m.key == "op" && m.def == "UnaryExpr" && nv == "NOT":
		return "enum values in another case"
	case m.op == "replace" && nv == "" && (m.key == "direction" || m.key == "nulls" || m.key == "type" && (m.def == "Join" || m.def == "LiteralExpr")):
		return "an empty enum value means the default"
	case m.op == "replace" && m.def == "LiteralExpr" && m.key == "value" && readsAsNumber(nv):
		return "numeric text in forms strconv reads (decimal or integer literal)"
	case m.op == "replace" && (m.key == "alias" || m.key == "name" && m.def == "?") /* a select item's or from item's alias, a CTE's name */ &&
		(strings.TrimSpace(nv) == "" || strings.ContainsAny(nv, "\u202e\u200b")):
		return "a blank name or one with a hidden character (the validator refuses it: INVALID_VALUE)"
	}
	return ""
}

// readsAsNumber: Decode reads a decimal literal's text with strconv when it
// is not plain digits (+5, 1e5, .5), and 19-digit integer text.
func readsAsNumber(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

func isEmptyObject(v any) bool {
	o, ok := v.(map[string]any)
	return ok && len(o) == 0
}

func isEmptyArray(v any) bool {
	a, ok := v.([]any)
	return ok && len(a) == 0
}
