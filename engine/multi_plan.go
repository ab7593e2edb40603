package engine

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/nl2sql/nl2sql/duckcompute"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// A sub-query of a cross-datasource question is planned by the
// single-datasource path (planValidated) with its intent as the question.
// Two things differ, and both travel in the context so that the path keeps
// one signature: the planner is shown the expected output (a section after
// the schema context, see expectedSection), and every plan it returns, a
// cached plan included, must have exactly the expected output columns
// (validate.Options.ExpectedColumns, through expectColumns).

type expectedKey struct{}

// withExpected marks ctx as planning a sub-query with these output columns.
func withExpected(ctx context.Context, cols []duckcompute.Column) context.Context {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return context.WithValue(ctx, expectedKey{}, names)
}

// expectColumns sets opts.ExpectedColumns to the sub-query's expected
// output columns when ctx plans a sub-query (planValidated
// and cachedPlan validate with it), and returns opts unchanged otherwise.
func expectColumns(ctx context.Context, opts validate.Options) validate.Options {
	if names, ok := ctx.Value(expectedKey{}).([]string); ok {
		opts.ExpectedColumns = names
	}
	return opts
}

// expectedSection is appended to a sub-query's schema context: the columns
// the plan must return, one JSON object a line, in order.
func expectedSection(cols []duckcompute.Column) string {
	var b strings.Builder
	b.WriteString("\n\n[EXPECTED OUTPUT]\nReturn exactly these columns, in this order, each with this alias; the types say what each holds:\n")
	for i, c := range cols {
		line, _ := json.Marshal(c)
		b.Write(line)
		if i < len(cols)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
