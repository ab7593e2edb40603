package multi

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/planast"
)

// layers sorts sub-queries and groups topologically: each layer holds the
// nodes whose inputs are all in earlier layers, sorted by id, so the same
// decomposition always gives the same layers. Sub-queries read nothing and
// form the first layer. It returns the groups in layer order.
func (c *checker) layers(subs []Sub, groups map[string]duckcompute.Group, inputs map[string][]string) ([][]string, []duckcompute.Group, bool) {
	indeg := map[string]int{}
	readers := map[string][]string{}
	for _, s := range subs {
		indeg[s.ID] = 0
	}
	for id, ins := range inputs {
		seen := map[string]bool{}
		indeg[id] += 0
		for _, in := range ins {
			if !seen[in] {
				seen[in] = true
				indeg[id]++
				readers[in] = append(readers[in], id)
			}
		}
	}
	var ready []string
	for id, n := range indeg {
		if n == 0 {
			ready = append(ready, id)
		}
	}
	var layers [][]string
	var order []duckcompute.Group
	done := 0
	for len(ready) > 0 {
		sort.Strings(ready)
		layers = append(layers, ready)
		var next []string
		for _, id := range ready {
			done++
			if g, ok := groups[id]; ok {
				order = append(order, g)
			}
			for _, r := range readers[id] {
				if indeg[r]--; indeg[r] == 0 {
					next = append(next, r)
				}
			}
		}
		ready = next
	}
	if done != len(indeg) {
		var left []string
		for id, n := range indeg {
			if n > 0 {
				left = append(left, id)
			}
		}
		sort.Strings(left)
		c.add(IssueCycle, "combine", "the combine groups %s read each other in a cycle", strings.Join(left, ", "))
		return nil, nil, false
	}
	return layers, order, true
}

// post decodes the post plan and renames every table it reads from a
// sub-query ref or group name to that result's id. It returns nil for a
// null plan, and the ids the plan reads in refs.
func (c *checker) post(raw json.RawMessage, names map[string]string) (*planast.Query, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	q, err := planast.Decode(raw, planast.DefaultLimits)
	if err != nil {
		c.errIssue("post", err)
		return nil, false
	}
	ids := map[string]bool{}
	for _, id := range names {
		ids[id] = true
	}
	ctes := map[string]bool{}
	planast.Inspect(q, func(n planast.Node) bool {
		if sub, ok := n.(*planast.Query); ok {
			for _, cte := range sub.With {
				if _, clash := names[strings.ToLower(cte.Name)]; clash {
					c.add(IssueDuplicate, "post", "the CTE %q has the name of a sub-query or combine group", cte.Name)
				}
				ctes[strings.ToLower(cte.Name)] = true
			}
		}
		return true
	})
	planast.Inspect(q, func(n planast.Node) bool {
		sub, ok := n.(*planast.Query)
		if !ok {
			return true
		}
		for i := range sub.From {
			f := &sub.From[i]
			if f.Subquery != nil || f.Table == "" {
				continue
			}
			id, named := names[strings.ToLower(f.Table)]
			switch {
			case f.Schema != "":
				c.add(IssueUnresolved, "post", "%s.%s: results have no schema; name a sub-query ref or combine group alone", f.Schema, f.Table)
			case named:
				f.Table = id
			case ctes[strings.ToLower(f.Table)] || ids[f.Table]:
			default:
				c.add(IssueUnresolved, "post", "the table %q names no sub-query ref, combine group or CTE of the plan", f.Table)
			}
		}
		return true
	})
	return q, len(c.issues) == 0
}

// unused refuses results nothing reads: every sub-query and group must
// reach the post plan (or, with no post plan, the one final group, which
// is moved last so that duckcompute selects from it).
func (c *checker) unused(d *Decomposition, inputs map[string][]string, post *planast.Query) {
	var roots []string
	if post != nil {
		planast.Inspect(post, func(n planast.Node) bool {
			if q, ok := n.(*planast.Query); ok {
				for _, f := range q.From {
					roots = append(roots, f.Table)
				}
			}
			return true
		})
	} else {
		read := map[string]bool{}
		for _, ins := range inputs {
			for _, in := range ins {
				read[in] = true
			}
		}
		var finals []int
		for i, g := range d.Groups {
			if !read[g.Name] {
				finals = append(finals, i)
			}
		}
		switch len(finals) {
		case 0:
			c.add(IssueUnused, "post", "post is null but there is no combine group to select from; give a post plan over the sub-queries")
			return
		case 1:
			g := d.Groups[finals[0]]
			d.Groups = append(append(d.Groups[:finals[0]:finals[0]], d.Groups[finals[0]+1:]...), g)
			roots = []string{g.Name}
		default:
			c.add(IssueUnused, "post", "post is null but %d combine groups are final; give a post plan that reads them, or combine them", len(finals))
			return
		}
	}
	reached := map[string]bool{}
	for len(roots) > 0 {
		id := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if !reached[id] {
			reached[id] = true
			roots = append(roots, inputs[id]...)
		}
	}
	for _, s := range d.Subs {
		if !reached[s.ID] {
			c.add(IssueUnused, "sub_queries", "the result of sub-query %q is read by no combine group and not by post", s.Ref)
		}
	}
	for _, g := range d.Groups {
		if !reached[g.Name] {
			c.add(IssueUnused, "combine", "the result of combine group %s is read by no later group and not by post", labelOf(g))
		}
	}
}

func labelOf(g duckcompute.Group) string {
	var ins []string
	for _, in := range g.Inputs {
		ins = append(ins, in.Label)
	}
	return fmt.Sprintf("%s(%s)", g.Op, strings.Join(ins, ", "))
}

var withRe = regexp.MustCompile(`^with\[(\d+)\]`)

// prepare checks the combination with duckcompute: key types, the groups
// compiled to plans, and the post plan, all validated by planast against
// the sub-query tables as their expected schemas declare them.
func (c *checker) prepare(d *Decomposition, post *planast.Query) {
	shapes := make([]duckcompute.Shape, len(d.Subs))
	for i, s := range d.Subs {
		shapes[i] = duckcompute.Shape{Name: s.ID, Columns: s.Expected}
	}
	comb, err := duckcompute.Prepare(shapes, d.Groups, post)
	if err == nil {
		d.Comb = comb
		return
	}
	var ge *duckcompute.GroupError
	if errors.As(err, &ge) {
		path := "combine"
		if k, ok := d.GroupIndex[ge.Group]; ok {
			path = fmt.Sprintf("combine[%d]", k)
		}
		c.add(IssueCombine, path, "%s", ge.Err.Error())
		return
	}
	var pe *planast.Error
	if errors.As(err, &pe) {
		for _, is := range pe.Issues {
			is.Path = withRe.ReplaceAllStringFunc(is.Path, func(m string) string {
				n, _ := strconv.Atoi(m[5 : len(m)-1])
				return fmt.Sprintf("with[%d]", n-len(d.Groups))
			})
			is.Path = strings.TrimSuffix("post."+is.Path, ".")
			c.issues = append(c.issues, is)
		}
		return
	}
	c.add(IssueCombine, "post", "%s", err.Error())
}
