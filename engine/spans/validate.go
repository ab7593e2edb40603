package spans

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// Validate runs one validation of a plan for datasource as a "validate"
// span; a refused plan's span counts its issues and names the first
// issue's code.
func Validate(ctx context.Context, datasource string, run func(ctx context.Context) (*validate.Result, error)) (v *validate.Result, err error) {
	ctx, sp := Start(ctx, "validate", trace.WithAttributes(attribute.String("nl2sql.datasource", datasource)))
	defer func() {
		var pe *planast.Error
		if errors.As(err, &pe) {
			sp.SetAttributes(attribute.Int("nl2sql.issues", len(pe.Issues)), attribute.String("nl2sql.first_issue", string(pe.FirstCode())))
		}
		End(sp, err)
	}()
	return run(ctx)
}

// SubQuery starts the span of one sub-query of a question across
// datasources, under which its steps run.
func SubQuery(ctx context.Context, id, datasource string) (context.Context, trace.Span) {
	return Start(ctx, "subquery", trace.WithAttributes(attribute.String("nl2sql.subquery_id", id), attribute.String("nl2sql.datasource", datasource)))
}
