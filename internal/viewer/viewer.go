package viewer

import (
	_ "embed"
	"slices"
)

//go:generate sh -c "cd web && npm ci --no-audit --no-fund && node build.mjs"

//go:embed view.html
var page string

// The MCP Apps extension's names (@modelcontextprotocol/ext-apps 2.0.4:
// RESOURCE_MIME_TYPE, EXTENSION_ID, RESOURCE_URI_META_KEY).
const (
	// URI is the view's resource address.
	URI = "ui://nl2sql/result.html"
	// MIMEType marks an HTML resource as an MCP App view.
	MIMEType = "text/html;profile=mcp-app"
	// ExtensionID is the key under which a client advertises MCP Apps in
	// its capabilities' extensions.
	ExtensionID = "io.modelcontextprotocol/ui"
	// legacyURIKey is the flat tool _meta key older hosts read.
	legacyURIKey = "ui/resourceUri"
	// MetaKey is the tool result _meta key of what the view shows (View).
	MetaKey = "nl2sql/view"
)

// HTML is the view page, as served in the resource.
func HTML() string { return page }

// ToolMeta is the _meta of a tool whose results the view shows: the
// resource address under ui.resourceUri, and under the flat legacy key for
// hosts that read only that (the SDK's registerAppTool sets both).
func ToolMeta() map[string]any {
	return map[string]any{
		"ui":         map[string]any{"resourceUri": URI},
		legacyURIKey: URI,
	}
}

// ResourceMeta is the _meta of the view's resource: a Content Security
// Policy with no domain at all (the page loads nothing and connects
// nowhere) and a visible border.
func ResourceMeta() map[string]any {
	return map[string]any{
		"ui": map[string]any{
			"csp": map[string]any{
				"connectDomains":  []string{},
				"resourceDomains": []string{},
				"frameDomains":    []string{},
				"baseUriDomains":  []string{},
			},
			"prefersBorder": true,
		},
	}
}

// Supports reports whether a client's capability extensions advertise MCP
// Apps with HTML views: extensions["io.modelcontextprotocol/ui"] with
// "text/html;profile=mcp-app" among its mimeTypes.
func Supports(extensions map[string]any) bool {
	ui, ok := extensions[ExtensionID].(map[string]any)
	if !ok {
		return false
	}
	types, _ := ui["mimeTypes"].([]any)
	return slices.ContainsFunc(types, func(t any) bool { return t == MIMEType })
}
