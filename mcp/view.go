package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/internal/viewer"
)

// addView registers the result view of ask, run_plan and
// run_verified_query (package viewer) as the MCP Apps resource their tools
// link: ui://nl2sql/result.html, text/html;profile=mcp-app, with its
// Content Security Policy in _meta.ui (on the list entry and on the
// contents, where hosts read it). The page (about 230 KB, most of it
// Chart.js) is what a host renders in a frame, never model context, so it
// is not cut to the result token budget the way results and the schema
// resources are.
func addView(s *server.MCPServer) {
	r := mcpgo.NewResource(viewer.URI, "nl2sql result view",
		mcpgo.WithResourceDescription("Interactive view of a query result (table, chart, SQL and plan) for hosts that support MCP Apps."),
		mcpgo.WithMIMEType(viewer.MIMEType))
	r.Meta = mcpgo.NewMetaFromMap(viewer.ResourceMeta())
	s.AddResource(r, func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		return []mcpgo.ResourceContents{mcpgo.TextResourceContents{
			URI: viewer.URI, MIMEType: viewer.MIMEType, Text: viewer.HTML(), Meta: viewer.ResourceMeta(),
		}}, nil
	})
}
