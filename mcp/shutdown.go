package mcp

import (
	"context"
	"errors"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/tools"
)

// ErrShuttingDown is the cause with which a stopping server cancels the
// calls still running: each is answered, at once, as retryable, instead
// of holding the shutdown for its whole statement timeout and then losing
// its connection.
var ErrShuttingDown = errors.New("the server is shutting down")

// shutdownKey holds, in a request's context, the context a shutdown
// cancels (ServeHTTP, ServeStdioLimited).
type shutdownKey struct{}

// shutdownAnswer runs a tool call under the server's shutdown context too,
// when the transport set one, and answers a call the shutdown stopped with
// a retryable CANCELLED error that says so (a client cancelling its own
// call gets the ordinary answer). The shutdown is read from that context's
// cause, not the call's: over stdio mcp-go cancels the call's own context
// right after the shutdown context, and that may reach the call first.
func shutdownAnswer() server.ServerOption {
	return server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			calls, ok := ctx.Value(shutdownKey{}).(context.Context)
			if !ok {
				return next(ctx, req)
			}
			ctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			defer context.AfterFunc(calls, func() { cancel(context.Cause(calls)) })()
			res, err := next(ctx, req)
			if ctx.Err() != nil && errors.Is(context.Cause(calls), ErrShuttingDown) {
				return tools.ErrorResult(&engine.Error{Code: engine.CodeCancelled, Retryable: true,
					Msg:  "the server is shutting down: the call was stopped before it finished",
					Hint: "send the same request again once the server is back"}), nil
			}
			return res, err
		}
	})
}
