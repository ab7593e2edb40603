package mcp

import (
	"context"
	"sort"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// datasourceCompleter completes datasource ids: the "datasource" argument
// of the ask_the_database prompt and {datasource} in the schema resource
// template. It offers only the datasources the caller may reach.
type datasourceCompleter struct{ eng Engine }

func (c datasourceCompleter) complete(ctx context.Context, name, prefix string) *mcpgo.Completion {
	out := &mcpgo.Completion{Values: []string{}}
	if name != "datasource" {
		return out
	}
	for _, d := range c.eng.ListDatasources(ctx) {
		if strings.HasPrefix(strings.ToLower(d.ID), strings.ToLower(prefix)) {
			out.Values = append(out.Values, d.ID)
		}
	}
	sort.Strings(out.Values)
	if len(out.Values) > 100 {
		out.Total, out.HasMore, out.Values = len(out.Values), true, out.Values[:100]
	}
	return out
}

func (c datasourceCompleter) CompletePromptArgument(ctx context.Context, _ string, arg mcpgo.CompleteArgument, _ mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return c.complete(ctx, arg.Name, arg.Value), nil
}

func (c datasourceCompleter) CompleteResourceArgument(ctx context.Context, _ string, arg mcpgo.CompleteArgument, _ mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return c.complete(ctx, arg.Name, arg.Value), nil
}
