package mcp

import (
	"context"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/tools"
)

// semanticURI is the resource address of a datasource's semantic file.
func semanticURI(ds string) string { return "nl2sql://" + ds + "/semantic" }

// semanticSource is what the semantic resources need: which datasources
// have a semantic file, and the layer as the caller may see it.
type semanticSource interface {
	tools.SemanticReader
	HasSemantic(id string) bool
}

// addSemanticResources registers nl2sql://{datasource}/semantic for each
// datasource configured with a semantic file (engine/semantic): the file
// as written, in YAML.
func addSemanticResources(s *server.MCPServer, eng semanticSource, ids []string) {
	for _, id := range ids {
		if !eng.HasSemantic(id) {
			continue
		}
		s.AddResource(mcpgo.NewResource(semanticURI(id), id+" semantic layer",
			mcpgo.WithResourceDescription("The semantic file of datasource "+id+": descriptions, synonyms, value labels, metrics, filters, relationships and fiscal calendar (YAML)."),
			mcpgo.WithMIMEType("application/yaml")), semanticResource(eng))
	}
}

func semanticResource(eng semanticSource) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		uri := req.Params.URI
		ds, ok := strings.CutPrefix(uri, "nl2sql://")
		ds, ok2 := strings.CutSuffix(ds, "/semantic")
		if !ok || !ok2 || ds == "" || strings.Contains(ds, "/") {
			return nil, invalidParams("unknown resource %q: semantic resources are nl2sql://{datasource}/semantic", uri)
		}
		l, err := eng.Semantic(ctx, ds)
		if err != nil {
			return nil, asInvalidParams(err)
		}
		if l == nil {
			return nil, invalidParams("datasource %q has no semantic file", ds)
		}
		if l.Raw() == nil {
			return nil, fmt.Errorf("ACCESS_DENIED: the semantic file of %q names tables or columns you may not read; describe_schema shows the definitions you may see", ds)
		}
		return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: uri, MIMEType: "application/yaml", Text: tools.FitText(eng, string(l.Raw()), "#")}}, nil
	}
}
