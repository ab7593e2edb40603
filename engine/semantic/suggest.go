package semantic

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// MaxLabelledValues is the most distinct values a column may have for
// Suggest to draft value labels for it.
const MaxLabelledValues = 12

// MinOverlap is the share of a column's distinct values that must occur
// in the referenced key for Suggest to propose a relationship.
const MinOverlap = 0.9

// Query runs one read-only statement and returns its rows (the engine's
// source query path). Suggest asks it for value overlaps.
type Query func(ctx context.Context, sql string) ([][]any, error)

// Suggestion is what Suggest drafted, for the caller to report.
type Suggestion struct {
	YAML          []byte
	Tables        int
	Relationships int
	Labelled      int // columns with drafted value labels
}

// Suggest drafts a semantic file from a profiled snapshot: every table and
// column with an empty description for a person to fill in; value labels
// with empty meanings for low-cardinality integer and text codes (at most
// MaxLabelledValues distinct values, all known from the profile, not
// keys); and candidate relationships the database does not declare: a
// column named like another table's single-column primary key
// ("CustomerId", "customer_id" for Customer.Id) whose distinct values are
// at least MinOverlap found in that key (asked through q; nil q keeps name
// matches only). The draft loads as it is (empty descriptions and labels
// are allowed) and says in comments what a person should check.
func Suggest(ctx context.Context, snap *schema.Snapshot, q Query) (*Suggestion, error) {
	out := &Suggestion{}
	tables := seq()
	for _, t := range snap.Tables {
		out.Tables++
		tn := mapping("name", scalar(t.Name), "description", scalar(t.Comment))
		cols := seq()
		for _, c := range t.Columns {
			cn := mapping("name", scalar(c.Name), "description", scalar(c.Comment))
			if vals := labelCandidates(t, c); len(vals) > 0 {
				vm := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
				for _, v := range vals {
					vm.Content = append(vm.Content, scalar(v), scalar(""))
				}
				cn.Content = append(cn.Content, scalar("values"), vm)
				cn.Content[len(cn.Content)-2].HeadComment = "what each stored code means"
				out.Labelled++
			}
			cols.Content = append(cols.Content, cn)
		}
		tn.Content = append(tn.Content, scalar("columns"), cols)
		tables.Content = append(tables.Content, tn)
	}
	rels := seq()
	for _, c := range relationshipCandidates(snap) {
		comment := "candidate from names"
		if q != nil {
			share, err := overlap(ctx, q, c)
			if err != nil {
				return nil, fmt.Errorf("semantic suggest: overlap of %s: %w", c.from, err)
			}
			if share < MinOverlap {
				continue
			}
			comment = fmt.Sprintf("candidate from names; %.0f%% of the distinct values are found in %s", share*100, c.to)
		}
		r := mapping("from", scalar(c.from), "to", scalar(c.to), "cardinality", scalar("many_to_one"))
		r.HeadComment = comment
		rels.Content = append(rels.Content, r)
		out.Relationships++
	}
	root := mapping("tables", tables)
	root.Content = append(root.Content, scalar("metrics"), seq(), scalar("filters"), seq())
	if len(rels.Content) > 0 {
		root.Content = append(root.Content, scalar("relationships"), rels)
	}
	root.HeadComment = fmt.Sprintf("Semantic layer of datasource %q, drafted by nl2sql semantic suggest.\n"+
		"Fill in the descriptions and value meanings, check the candidate relationships, and add\n"+
		"metrics and filters (see the README's \"Semantic layer\"). Empty descriptions are ignored.", snap.Datasource)
	b, err := yaml.Marshal(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}})
	if err != nil {
		return nil, fmt.Errorf("semantic suggest: %w", err)
	}
	out.YAML = b
	return out, nil
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
func seq() *yaml.Node            { return &yaml.Node{Kind: yaml.SequenceNode} }

func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, scalar(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

// labelCandidates are the stored codes of a low-cardinality integer or
// text column (text: short codes such as "A" or "NY", not words) with two
// or more values that repeat, that is no key and not named like one
// ("..._id"), from its profile, in numeric or text order.
func labelCandidates(t schema.Table, c schema.Column) []string {
	p := c.Profile
	if p == nil || !p.AllValues || len(p.SampleValues) == 0 || len(p.SampleValues) > MaxLabelledValues ||
		(c.Type != planast.TypeInteger && c.Type != planast.TypeText) || slices.Contains(t.PrimaryKey, c.Name) ||
		isFKColumn(t, c.Name) || strings.HasSuffix(strings.ToLower(c.Name), "id") ||
		t.RowCount == nil || *t.RowCount <= int64(len(p.SampleValues)) || len(p.SampleValues) < 2 {
		return nil
	}
	if c.Type == planast.TypeInteger && slices.ContainsFunc(lex.SplitWords(c.Name), func(w string) bool { return measureWords[w] }) {
		return nil // a quantity, count or amount that happens to take few values
	}
	if c.Type == planast.TypeText && slices.ContainsFunc(p.SampleValues, func(v any) bool {
		s, _ := v.(string)
		return len(s) > 4 || strings.ContainsAny(s, " ()+-.")
	}) {
		return nil // words and names, not codes
	}
	out := make([]string, len(p.SampleValues))
	for i, v := range p.SampleValues {
		out[i] = fmt.Sprint(v)
	}
	slices.SortFunc(out, func(a, b string) int {
		if fa, fb := toFloat(a), toFloat(b); fa != fb {
			return cmp.Compare(fa, fb)
		}
		return strings.Compare(a, b)
	})
	return out
}

// measureWords name integer columns that count or measure: their few
// values are numbers to compute with, not codes to explain.
var measureWords = map[string]bool{"qty": true, "quantity": true, "count": true, "cnt": true, "num": true, "number": true,
	"amount": true, "amt": true, "total": true, "sum": true, "age": true, "year": true, "years": true, "price": true,
	"cost": true, "size": true, "units": true, "days": true, "hours": true, "minutes": true, "seconds": true,
	"weight": true, "height": true, "length": true, "width": true, "score": true, "points": true, "stock": true}

func isFKColumn(t schema.Table, col string) bool {
	return slices.ContainsFunc(t.ForeignKeys, func(fk schema.ForeignKey) bool { return slices.Contains(fk.Columns, col) })
}

type relCandidate struct {
	table, column, refTable, refColumn string
	from, to                           string
}

// relationshipCandidates pairs columns with the single-column primary key
// of another table they are named after, where no foreign key is declared.
func relationshipCandidates(snap *schema.Snapshot) []relCandidate {
	var out []relCandidate
	norm := func(s string) string { return strings.ToLower(strings.NewReplacer("_", "", " ", "").Replace(s)) }
	for _, t := range snap.Tables {
		for _, c := range t.Columns {
			if isFKColumn(t, c.Name) || (len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name) {
				continue
			}
			for _, r := range snap.Tables {
				if r.Name == t.Name || len(r.PrimaryKey) != 1 {
					continue
				}
				pk := r.PrimaryKey[0]
				rc, _ := r.Column(pk)
				if rc == nil || (rc.Type != c.Type && !(rc.Type.IsNumeric() && c.Type.IsNumeric())) {
					continue
				}
				name := norm(c.Name)
				if name == norm(pk) && norm(pk) != "id" || name == norm(r.Name)+"id" || name == norm(r.Name)+norm(pk) {
					out = append(out, relCandidate{t.Name, c.Name, r.Name, pk, t.Name + "." + c.Name, r.Name + "." + pk})
				}
			}
		}
	}
	return out
}

// overlap is the share of c's distinct non-null values found in its
// candidate key.
func overlap(ctx context.Context, q Query, c relCandidate) (float64, error) {
	id := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	sql := fmt.Sprintf(`SELECT COUNT(DISTINCT a.%s), COUNT(DISTINCT CASE WHEN b.%s IS NOT NULL THEN a.%s END) FROM %s a LEFT JOIN %s b ON a.%s = b.%s`,
		id(c.column), id(c.refColumn), id(c.column), id(c.table), id(c.refTable), id(c.column), id(c.refColumn))
	rows, err := q(ctx, sql)
	if err != nil {
		return 0, err
	}
	if len(rows) != 1 || len(rows[0]) != 2 {
		return 0, fmt.Errorf("overlap query returned %d rows", len(rows))
	}
	all, found := toFloat(rows[0][0]), toFloat(rows[0][1])
	if all == 0 {
		return 0, nil
	}
	return found / all, nil
}

func toFloat(v any) float64 {
	var f float64
	fmt.Sscan(fmt.Sprint(v), &f)
	return f
}
