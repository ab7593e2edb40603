package multi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/planast"
)

// PlannedQuery is a question across datasources planned by the client
// (run_combined_plan): one plan per source, each validated and run on its
// own datasource like run_plan's, and the combine plan over their results
// by name, run in DuckDB. No model is involved: the host that wrote the
// plans is the planner.
type PlannedQuery struct {
	Sources []PlannedSource `json:"sources"`
	// Combine is a plan (planast.Query) whose from items name sources.
	Combine json.RawMessage `json:"combine"`
}

// PlannedSource is one source of a PlannedQuery: its name in the combine
// plan, its datasource, and its plan in the plan language.
type PlannedSource struct {
	Name       string          `json:"name"`
	Datasource string          `json:"datasource"`
	Plan       json.RawMessage `json:"plan"`
}

// DecodePlanned parses a PlannedQuery strictly (unknown fields refused)
// and checks its frame: 1 to 8 sources, each named, with a datasource and
// a plan, and a combine plan. Errors are *planast.Error with paths.
func DecodePlanned(doc []byte) (*PlannedQuery, error) {
	var pq PlannedQuery
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pq); err != nil {
		return nil, &planast.Error{Issues: []planast.Issue{{Code: planast.CodeMalformed,
			Message: `send {"sources": [{"name", "datasource", "plan"}, …], "combine": plan over the names}: ` + err.Error()}}}
	}
	c := &checker{}
	if n := len(pq.Sources); n == 0 || n > maxSubQueries {
		c.add(planast.CodeBadValue, "sources", "give 1 to %d sources, got %d", maxSubQueries, n)
	}
	names := map[string]bool{}
	for i, s := range pq.Sources {
		p := fmt.Sprintf("sources[%d]", i)
		c.name(p+".name", s.Name)
		if names[strings.ToLower(s.Name)] {
			c.add(IssueDuplicate, p+".name", "the name %q is used twice", s.Name)
		}
		names[strings.ToLower(s.Name)] = true
		if strings.TrimSpace(s.Datasource) == "" {
			c.add(planast.CodeMalformed, p+".datasource", "is empty: name the datasource this plan runs on (list_datasources)")
		}
		if len(s.Plan) == 0 || string(s.Plan) == "null" {
			c.add(planast.CodeMalformed, p+".plan", "is missing: a plan in the plan language (get_plan_schema)")
		}
	}
	if len(pq.Combine) == 0 || string(pq.Combine) == "null" {
		c.add(planast.CodeMalformed, "combine", "is missing: a plan whose from items name the sources, run over their rows")
	}
	if len(c.issues) > 0 {
		return nil, &planast.Error{Issues: c.issues}
	}
	return &pq, nil
}

// CheckPlanned builds the decomposition of a PlannedQuery whose source
// plans the caller validated: cols[i] are the output columns of source i's
// plan, plans[i] its validated plan. Each source becomes a sub-query whose
// id hashes its datasource, plan and columns; the combine plan is checked
// exactly as a decomposer's post plan (every source read, names resolved,
// validated against the sources' columns by duckcompute) before anything
// runs. Issues name paths in the PlannedQuery (sources[i], combine.…).
func CheckPlanned(pq *PlannedQuery, plans []*planast.Query, cols [][]duckcompute.Column) (*Decomposition, []planast.Issue) {
	c := &checker{}
	d := &Decomposition{GroupIndex: map[string]int{}}
	names := map[string]string{}
	seen := map[string]int{}
	for i, s := range pq.Sources {
		for k, col := range cols[i] {
			if !duckcompute.ValidName(col.Name) {
				c.add(planast.CodeBadValue, fmt.Sprintf("sources[%d].plan.select[%d].alias", i, k),
					"the output column %q must be an identifier to be read by the combine plan: alias it with letters, digits and _", col.Name)
			}
			if !duckcompute.Loadable(col.Type) || col.Type == planast.TypeBlob {
				c.add(planast.CodeBadValue, fmt.Sprintf("sources[%d].plan.select[%d]", i, k),
					"the output column %q is of type %s, which the combination cannot hold: cast it to text, or leave it out", col.Name, col.Type)
			}
		}
		canon, _ := json.Marshal(plans[i]) // the plan language's canonical encoding
		id := uniqueID(seen, contentID("sq_", struct {
			Datasource string               `json:"datasource"`
			Columns    []duckcompute.Column `json:"columns"`
			Plan       json.RawMessage      `json:"plan"`
		}{s.Datasource, cols[i], canon}))
		names[strings.ToLower(s.Name)] = id
		d.Subs = append(d.Subs, Sub{ID: id, Ref: s.Name, Datasource: s.Datasource, Expected: cols[i], Plan: canon})
	}
	if len(c.issues) > 0 {
		return nil, c.issues
	}
	sortSubs(d.Subs)
	if !c.combination(d, nil, nil, pq.Combine, names) {
		// the decomposer's paths, in the client's words
		for i := range c.issues {
			p := &c.issues[i].Path
			switch {
			case strings.HasPrefix(*p, "post"):
				*p = "combine" + strings.TrimPrefix(*p, "post")
			case strings.HasPrefix(*p, "sub_queries"):
				*p = "sources" + strings.TrimPrefix(*p, "sub_queries")
			}
			c.issues[i].Message = clientWords.Replace(c.issues[i].Message)
			if strings.Contains(c.issues[i].Message, "names no source name") {
				// which names there are, so the fix is one edit
				var refs []string
				for _, s := range pq.Sources {
					refs = append(refs, strconv.Quote(s.Name))
				}
				c.issues[i].Message += "; the sources are named " + strings.Join(refs, ", ")
			}
		}
		return nil, c.issues
	}
	return d, nil
}

// clientWords says the decomposer's terms in run_combined_plan's.
var clientWords = strings.NewReplacer("sub-query ref, combine group or CTE", "source name or CTE", "sub-query ref", "source name",
	"sub-query", "source", "is read by no combine group and not by post", "is not read by the combine plan")
