package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/semantic"
)

// SemanticReader is what describe_schema and search_schema need of the
// engine to show the semantic layer: the datasource's layer as the caller
// may see it, nil when it has none.
type SemanticReader interface {
	Semantic(ctx context.Context, datasource string) (*semantic.Layer, error)
}

// SemanticInfo is the semantic layer's part of a describe_schema or
// search_schema result: descriptions, synonyms and value labels of the
// listed tables, and the metrics and filters that read them (each with its
// expression in the plan language; reference one in a plan as
// {"kind": "metric" | "filter", "name": NAME, "table": ALIAS}).
type SemanticInfo struct {
	Tables      []semantic.Table      `json:"tables,omitempty"`
	Definitions []semantic.Definition `json:"definitions,omitempty"`
}

// semanticFor returns the semantic layer's entries for tables (nil when
// the datasource has none or none concern them).
func semanticFor(ctx context.Context, eng SemanticReader, datasource string, tables []string) (*SemanticInfo, error) {
	l, err := eng.Semantic(ctx, datasource)
	if err != nil || l == nil {
		return nil, err
	}
	ts, ds := l.For(tables)
	if len(ts) == 0 && len(ds) == 0 {
		return nil, nil
	}
	return &SemanticInfo{Tables: ts, Definitions: ds}, nil
}

// Text renders the entries for people, one line each.
func (s *SemanticInfo) Text() string {
	if s == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nsemantic layer\n")
	for _, t := range s.Tables {
		fmt.Fprintf(&b, "  %s%s\n", t.Name, describeText(t.Description, t.Synonyms, nil))
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "    %s%s\n", c.Name, describeText(c.Description, c.Synonyms, c.Values))
		}
	}
	for _, d := range s.Definitions {
		fmt.Fprintf(&b, "  %s %s (on %s)%s\n", d.Kind, d.Name, d.Table, describeText(d.Description, d.Synonyms, nil))
	}
	return b.String()
}

func describeText(desc string, syn []string, vals []semantic.ValueLabel) string {
	var parts []string
	if desc != "" {
		parts = append(parts, desc)
	}
	if len(syn) > 0 {
		parts = append(parts, "also: "+strings.Join(syn, ", "))
	}
	for _, v := range vals {
		parts = append(parts, v.Code+" = "+v.Label)
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, "; ")
}

// definitionsText is the line naming the semantic definitions a result's
// plans used ("" when none), e.g. "definitions used: metric revenue, filter big_order".
func definitionsText(r *engine.Result) string {
	var names []string
	for _, sq := range r.SubQueries {
		for _, d := range sq.Definitions {
			if n := d.Kind + " " + d.Name; !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "definitions used: " + strings.Join(names, ", ") + "\n"
}
