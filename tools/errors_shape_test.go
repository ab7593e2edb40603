package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Threat: a host switches on error.code and retries when retryable; a
// tool error built as bare text (mcp-go's NewToolResultError) carries no
// structured {"error": …} and leaves it parsing prose, as get_plan_schema's
// refusal of an unknown form once did. Every tool error result of the
// server is built by errorResult, the one place that gives both.
func TestToolErrorsAreBuiltInOnePlace(t *testing.T) {
	for _, dir := range []string{".", filepath.Join("..", "mcp")} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, en := range entries {
			name := en.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || dir == "." && name == "errors.go" {
				continue
			}
			path := filepath.Join(dir, name)
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok && strings.HasPrefix(s.Sel.Name, "NewToolResultError") {
					t.Errorf("%s: a tool error built without its structured error (use errorResult or invalidRequest)", fset.Position(s.Pos()))
				}
				return true
			})
		}
	}
}

// The refusal of an unknown schema form is such an error.
func TestGetPlanSchemaRefusalIsStructured(t *testing.T) {
	res, err := GetPlanSchemaHandler()(t.Context(), mcpCall(map[string]any{"form": "everything"}))
	if err != nil {
		t.Fatal(err)
	}
	out, ok := res.StructuredContent.(ErrorOutput)
	if !res.IsError || !ok || out.Error.Code != "INVALID_REQUEST" || out.Error.Hint == "" {
		t.Errorf("result %+v: want an INVALID_REQUEST error with a hint in the structured content", res)
	}
}
