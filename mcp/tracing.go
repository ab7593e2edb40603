package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/nl2sql/nl2sql/tools"
)

// tracerProvider is implemented by an engine that records spans
// (engine.Engine): each tool call's span is the root of its trace and the
// engine's spans for the run nest under it.
type tracerProvider interface {
	TracerProvider() trace.TracerProvider
}

// tracing starts one server span per tool call, "tools/call <tool>" under
// the MCP semantic conventions, and passes it down in the context. A
// result with isError marks the span failed with the result's error code;
// arguments are never recorded.
func tracing(tp trace.TracerProvider) server.ToolHandlerMiddleware {
	tracer := tp.Tracer("github.com/nl2sql/nl2sql/mcp")
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			name := req.Params.Name
			ctx, span := tracer.Start(ctx, "tools/call "+name, trace.WithSpanKind(trace.SpanKindServer),
				trace.WithAttributes(attribute.String("mcp.method.name", "tools/call"), attribute.String("gen_ai.tool.name", name),
					attribute.String("gen_ai.operation.name", "execute_tool")))
			defer span.End()
			res, err := next(ctx, req)
			switch {
			case err != nil:
				span.SetAttributes(attribute.String("error.type", "failed"))
				span.SetStatus(codes.Error, "the tool call failed")
			case res != nil && res.IsError:
				code := resultCode(res)
				span.SetAttributes(attribute.String("error.type", code))
				span.SetStatus(codes.Error, code)
			}
			return res, err
		}
	}
}

// resultCode is the error code of a tool error result ("tool_error" when
// it carries none).
func resultCode(res *mcpgo.CallToolResult) string {
	switch o := res.StructuredContent.(type) {
	case tools.ErrorOutput:
		return string(o.Error.Code)
	case *tools.ErrorOutput:
		return string(o.Error.Code)
	}
	return "tool_error"
}
