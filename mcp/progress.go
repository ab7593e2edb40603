package mcp

import (
	"context"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
)

// waitProgress lets a tool call whose client sent a progress token wait
// for a datasource still opening (being profiled and indexed) instead of
// getting DATASOURCE_INDEXING after the server's short open wait: the
// engine reports how far the open got about every half second, and each
// report goes to the client as notifications/progress with that token.
// Progress counts the reports (it must increase with each one, and the
// open's own counts restart with each stage); the message says what the
// open is doing ("datasource big: indexing: table 812 of 2000"). A client
// without a token keeps the retryable error, as before.
func waitProgress() server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
				return next(ctx, req)
			}
			srv := server.ServerFromContext(ctx)
			if srv == nil {
				return next(ctx, req)
			}
			token := req.Params.Meta.ProgressToken
			var mu sync.Mutex
			sent := 0
			ctx = engine.WithWaitProgress(ctx, func(message string, _, _ int) {
				mu.Lock()
				sent++
				n := sent
				mu.Unlock()
				// Never blocks: a full channel drops the report.
				_ = srv.SendNotificationToClient(ctx, string(mcpgo.MethodNotificationProgress),
					map[string]any{"progressToken": token, "progress": n, "message": message})
			})
			return next(ctx, req)
		}
	}
}
