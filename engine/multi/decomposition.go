package multi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/planast"
)

// Answer is the decomposer's answer (step "decompose"): the
// sub-queries, each bound to one datasource with a semantic intent (never
// SQL) and an expected output schema; the combine groups; and the plan
// after the combine, over the results by name.
type Answer struct {
	Reasoning  string         `json:"reasoning"`
	SubQueries []SubQuerySpec `json:"sub_queries"`
	Combine    []CombineSpec  `json:"combine"`
	// Post is a plan (planast.Query) whose from items name sub-query refs
	// and combine group names; null selects every column of the one group
	// no other group reads.
	Post json.RawMessage `json:"post"`
}

// SubQuerySpec is one sub-query as the decomposer writes it.
type SubQuerySpec struct {
	Ref            string               `json:"ref"`
	Datasource     string               `json:"datasource"`
	Intent         string               `json:"intent"`
	ExpectedSchema []duckcompute.Column `json:"expected_schema"`
}

// CombineSpec is one combine group: op "join" (join_type inner, left or
// full), "compare" (a full join) or "union" (label_column optional).
type CombineSpec struct {
	Name        string            `json:"name"`
	Op          string            `json:"op"`
	Inputs      []InputSpec       `json:"inputs"`
	Keys        []duckcompute.Key `json:"keys"`
	JoinType    *string           `json:"join_type"`
	LabelColumn *string           `json:"label_column"`
}

// InputSpec names a group's input (a sub-query ref or a group name) and
// its role.
type InputSpec struct {
	Ref  string `json:"ref"`
	Role string `json:"role"`
}

// Issue codes of a refused decomposition (with planast's own for the post
// plan, reported under "post").
const (
	IssueSQL          planast.Code = "SQL_IN_TEXT"          // a text field holds SQL
	IssueUnresolved   planast.Code = "UNRESOLVED_REFERENCE" // a name no sub-query or group has
	IssueCycle        planast.Code = "CYCLE"                // combine groups that read each other
	IssueCombine      planast.Code = "INVALID_COMBINE"      // roles, keys, key types, union widths
	IssueUnused       planast.Code = "UNUSED_RESULT"        // a result nothing reads
	IssueDatasource   planast.Code = "DATASOURCE_NOT_OFFERED"
	IssueDuplicate    planast.Code = "DUPLICATE_NAME"
	maxSubQueries                  = 8
	maxGroups                      = 8
	maxIntentBytes                 = 500
	maxExpectedColumn              = 32
)

// decomposition is a checked Answer.
type Decomposition struct {
	Reasoning string
	Subs      []Sub               // sorted by id
	Groups    []duckcompute.Group // in layer order; names are group ids
	Layers    [][]string          // sub-query and group ids, each layer sorted
	// GroupIndex maps a group id to its index in the answer's combine list.
	GroupIndex map[string]int
	// Comb is the prepared combination (duckcompute.Prepare) the results
	// are loaded into.
	Comb *duckcompute.Combination
}

// Sub is a checked sub-query: content-hash id, the decomposer's ref.
type Sub struct {
	ID, Ref, Datasource, Intent string
	Expected                    []duckcompute.Column
	// Plan is the client's validated plan (PlannedQuery), run as it is;
	// nil when the planner plans the sub-query from its intent.
	Plan json.RawMessage
}

// sortSubs sorts sub-queries by id: the order they run, load and report in.
func sortSubs(subs []Sub) {
	sort.Slice(subs, func(i, j int) bool { return subs[i].ID < subs[j].ID })
}

// sqlRe and sqlMarks find SQL in a text field: one that opens with
// SELECT … FROM, or holds a statement terminator or a comment marker.
// English words that are SQL keywords ("customers from Brazil") are fine.
var (
	sqlRe    = regexp.MustCompile(`(?is)^\W*select\b.*\bfrom\b`)
	sqlMarks = []string{";", "--", "/*", "*/"}
)

// semanticOnly reports whether s holds no SQL.
func semanticOnly(s string) bool {
	if sqlRe.MatchString(s) {
		return false
	}
	for _, m := range sqlMarks {
		if strings.Contains(s, m) {
			return false
		}
	}
	return true
}

// Decode parses an answer strictly (unknown fields refused).
func Decode(b []byte) (*Answer, error) {
	var ans Answer
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ans); err != nil {
		return nil, &planast.Error{Issues: []planast.Issue{{Code: planast.CodeMalformed,
			Message: "the answer must be a JSON object {reasoning, sub_queries, combine, post}: " + err.Error()}}}
	}
	return &ans, nil
}

// contentID is "PREFIX" + the first 12 hex digits of sha256(canonical JSON).
func contentID(prefix string, v any) string {
	b, _ := json.Marshal(v) // struct fields in a fixed order: canonical
	h := sha256.Sum256(b)
	return prefix + hex.EncodeToString(h[:])[:12]
}

// subQueryContentID is the id of a sub-query: a hash of its datasource,
// normalised intent (as replay keys it) and expected schema.
func subQueryContentID(datasource, intent string, schema []duckcompute.Column) string {
	return contentID("sq_", struct {
		Datasource     string               `json:"datasource"`
		ExpectedSchema []duckcompute.Column `json:"expected_schema"`
		Intent         string               `json:"intent"`
	}{datasource, schema, llm.Normalize(intent)})
}

// uniqueID gives a repeated id an ordinal suffix: id, id_2, id_3…
func uniqueID(seen map[string]int, id string) string {
	seen[id]++
	if n := seen[id]; n > 1 {
		return fmt.Sprintf("%s_%d", id, n)
	}
	return id
}

// checker collects the issues of one decomposition.
type checker struct{ issues []planast.Issue }

func (c *checker) add(code planast.Code, path, format string, args ...any) {
	c.issues = append(c.issues, planast.Issue{Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
}

// text checks one text field: present, short, semantic only.
func (c *checker) text(path, s string, max int) {
	switch {
	case strings.TrimSpace(s) == "":
		c.add(planast.CodeMalformed, path, "is empty")
	case len(s) > max:
		c.add(planast.CodeBadValue, path, "is %d bytes; the limit is %d", len(s), max)
	case !semanticOnly(s):
		c.add(IssueSQL, path, "contains SQL syntax (SELECT … FROM, ';', '--' or a comment); describe what you need in words")
	}
}

// name checks an identifier field: a name that is no identifier is said
// to be one whatever it holds ('tk; drop' is a bad name, not a question
// to put in words).
func (c *checker) name(path, s string) {
	switch {
	case strings.TrimSpace(s) == "":
		c.add(planast.CodeMalformed, path, "is empty")
	case len(s) > 63:
		c.add(planast.CodeBadValue, path, "is %d bytes; the limit is 63", len(s))
	case !duckcompute.ValidName(s):
		c.add(planast.CodeBadValue, path, "%q must be an identifier: a letter or _, then letters, digits or _", s)
	}
}

// Check checks an answer against the datasources offered and
// builds the decomposition: ids, layers, and the combination prepared
// with duckcompute (so every reference, key type and the post plan are
// validated before any sub-query runs). It returns the issues otherwise.
func Check(ans *Answer, offered []string) (*Decomposition, []planast.Issue) {
	c := &checker{}
	if len(ans.Reasoning) > 4000 { // free text the engine never interprets: no SQL check
		c.add(planast.CodeBadValue, "reasoning", "is %d bytes; the limit is 4000", len(ans.Reasoning))
	}
	if n := len(ans.SubQueries); n == 0 || n > maxSubQueries {
		c.add(planast.CodeBadValue, "sub_queries", "give 1 to %d sub-queries, got %d", maxSubQueries, n)
	}
	if len(ans.Combine) > maxGroups {
		c.add(planast.CodeBadValue, "combine", "give at most %d combine groups, got %d", maxGroups, len(ans.Combine))
	}
	if len(c.issues) > 0 {
		return nil, c.issues
	}
	isOffered := map[string]bool{}
	for _, id := range offered {
		isOffered[id] = true
	}
	names := map[string]string{} // lower-cased ref or group name → id
	d := &Decomposition{Reasoning: ans.Reasoning}
	seen := map[string]int{}
	for i, sq := range ans.SubQueries {
		p := fmt.Sprintf("sub_queries[%d]", i)
		c.name(p+".ref", sq.Ref)
		c.text(p+".intent", sq.Intent, maxIntentBytes)
		if !isOffered[sq.Datasource] {
			c.add(IssueDatasource, p+".datasource", "%q is not one of the datasources offered: %s", sq.Datasource, strings.Join(offered, ", "))
		}
		if n := len(sq.ExpectedSchema); n == 0 || n > maxExpectedColumn {
			c.add(planast.CodeBadValue, p+".expected_schema", "list 1 to %d output columns, got %d", maxExpectedColumn, n)
		}
		cols := map[string]bool{}
		for k, col := range sq.ExpectedSchema {
			cp := fmt.Sprintf("%s.expected_schema[%d]", p, k)
			c.name(cp+".name", col.Name)
			if cols[strings.ToLower(col.Name)] {
				c.add(IssueDuplicate, cp+".name", "two columns are named %q (names differing only in case clash)", col.Name)
			}
			cols[strings.ToLower(col.Name)] = true
			if !duckcompute.Loadable(col.Type) || col.Type == planast.TypeBlob {
				c.add(planast.CodeBadValue, cp+".type", "type %q is not one of integer, decimal, float, text, boolean, date, timestamp", col.Type)
			}
		}
		id := uniqueID(seen, subQueryContentID(sq.Datasource, sq.Intent, sq.ExpectedSchema))
		if _, dup := names[strings.ToLower(sq.Ref)]; dup {
			c.add(IssueDuplicate, p+".ref", "the name %q is used twice", sq.Ref)
		}
		names[strings.ToLower(sq.Ref)] = id
		d.Subs = append(d.Subs, Sub{ID: id, Ref: sq.Ref, Datasource: sq.Datasource, Intent: strings.TrimSpace(sq.Intent), Expected: sq.ExpectedSchema})
	}
	groups, inputs, index := c.groups(ans.Combine, names, seen)
	d.GroupIndex = index
	if len(c.issues) > 0 {
		return nil, c.issues
	}
	sortSubs(d.Subs)
	if !c.combination(d, groups, inputs, ans.Post, names) {
		return nil, c.issues
	}
	return d, nil
}

// combination checks what d's sub-queries feed, once they are checked and
// sorted: the layers of sub-queries and groups, the post plan with its
// names resolved, that every result is read, and the whole prepared with
// duckcompute (d.Comb). It reports whether no issue was found.
func (c *checker) combination(d *Decomposition, groups map[string]duckcompute.Group, inputs map[string][]string, rawPost json.RawMessage, names map[string]string) bool {
	var ok bool
	if d.Layers, d.Groups, ok = c.layers(d.Subs, groups, inputs); !ok {
		return false
	}
	post, ok := c.post(rawPost, names)
	if !ok {
		return false
	}
	c.unused(d, inputs, post)
	if len(c.issues) > 0 {
		return false
	}
	c.prepare(d, post)
	return len(c.issues) == 0
}

// groups checks the combine groups and gives each its content id; inputs
// maps each group id to the ids it reads.
func (c *checker) groups(specs []CombineSpec, names map[string]string, seen map[string]int) (map[string]duckcompute.Group, map[string][]string, map[string]int) {
	out := map[string]duckcompute.Group{}
	inputs := map[string][]string{}
	index := map[string]int{}
	var pending []struct {
		i   int
		grp duckcompute.Group
	}
	for i, g := range specs {
		p := fmt.Sprintf("combine[%d]", i)
		c.name(p+".name", g.Name)
		if _, dup := names[strings.ToLower(g.Name)]; dup {
			c.add(IssueDuplicate, p+".name", "the name %q is used twice", g.Name)
		}
		grp := duckcompute.Group{Op: duckcompute.Op(g.Op)}
		switch grp.Op {
		case duckcompute.OpJoin, duckcompute.OpCompare, duckcompute.OpUnion:
		default:
			c.add(planast.CodeBadValue, p+".op", "op %q is not join, compare or union", g.Op)
		}
		if g.JoinType != nil {
			grp.JoinType = planast.JoinType(*g.JoinType)
		}
		if g.LabelColumn != nil {
			grp.LabelColumn = *g.LabelColumn
			c.name(p+".label_column", grp.LabelColumn)
		}
		for k, key := range g.Keys {
			c.name(fmt.Sprintf("%s.keys[%d].left", p, k), key.Left)
			c.name(fmt.Sprintf("%s.keys[%d].right", p, k), key.Right)
		}
		grp.Keys = g.Keys
		for k, in := range g.Inputs {
			if duckcompute.RoleRank(in.Role) < 0 {
				c.add(IssueCombine, fmt.Sprintf("%s.inputs[%d].role", p, k), "role %q is not left, base, primary, right, compare, secondary or member", in.Role)
			}
			grp.Inputs = append(grp.Inputs, duckcompute.Input{Table: in.Ref, Label: in.Ref, Role: in.Role})
		}
		names[strings.ToLower(g.Name)] = "" // filled in below
		pending = append(pending, struct {
			i   int
			grp duckcompute.Group
		}{i, grp})
	}
	for _, pg := range pending {
		for k, in := range specs[pg.i].Inputs {
			if _, ok := names[strings.ToLower(in.Ref)]; !ok {
				c.add(IssueUnresolved, fmt.Sprintf("combine[%d].inputs[%d].ref", pg.i, k), "%q names no sub-query or combine group", in.Ref)
			}
		}
	}
	if len(c.issues) > 0 {
		return out, inputs, index
	}
	// Ids hash the group with its inputs' ids, which may be other groups'
	// ids: resolve in passes until every group's inputs are known.
	for progress := true; progress && len(pending) > 0; {
		progress = false
		rest := pending[:0]
		for _, pg := range pending {
			spec := specs[pg.i]
			ids := make([]string, len(spec.Inputs))
			known := true
			for k, in := range spec.Inputs {
				id := names[strings.ToLower(in.Ref)]
				if id == "" {
					known = false
				}
				ids[k] = id
			}
			if !known {
				rest = append(rest, pg)
				continue
			}
			progress = true
			grp := pg.grp
			for k := range grp.Inputs {
				grp.Inputs[k].Table = ids[k]
			}
			id := uniqueID(seen, groupContentID(grp))
			grp.Name = id
			names[strings.ToLower(spec.Name)] = id
			out[id] = grp
			inputs[id] = ids
			index[id] = pg.i
		}
		pending = rest
	}
	if len(pending) > 0 {
		var cyc []string
		for _, pg := range pending {
			cyc = append(cyc, specs[pg.i].Name)
		}
		sort.Strings(cyc)
		c.add(IssueCycle, "combine", "the combine groups %s read each other in a cycle", strings.Join(cyc, ", "))
	}
	return out, inputs, index
}

// groupContentID hashes a group: op, join type, label column, keys, and its
// inputs (id and role) in role order, so listing inputs in another order
// gives the same id.
func groupContentID(g duckcompute.Group) string {
	type in struct {
		ID   string `json:"id"`
		Role string `json:"role"`
	}
	ins := make([]in, len(g.Inputs))
	for i, x := range g.Inputs {
		ins[i] = in{x.Table, x.Role}
	}
	sort.SliceStable(ins, func(i, j int) bool {
		ri, rj := duckcompute.RoleRank(ins[i].Role), duckcompute.RoleRank(ins[j].Role)
		return ri < rj || ri == rj && ins[i].ID < ins[j].ID
	})
	return contentID("cg_", struct {
		Inputs      []in              `json:"inputs"`
		JoinType    string            `json:"join_type"`
		Keys        []duckcompute.Key `json:"keys"`
		LabelColumn string            `json:"label_column"`
		Op          string            `json:"op"`
	}{ins, string(g.JoinType), g.Keys, g.LabelColumn, string(g.Op)})
}

// errIssue turns a duckcompute or planast error into issues under path.
func (c *checker) errIssue(path string, err error) {
	var pe *planast.Error
	if errors.As(err, &pe) {
		for _, is := range pe.Issues {
			is.Path = strings.TrimSuffix(path+"."+is.Path, ".")
			c.issues = append(c.issues, is)
		}
		return
	}
	c.add(IssueCombine, path, "%s", err.Error())
}
