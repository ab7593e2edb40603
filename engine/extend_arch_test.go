package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine/hooks"
)

// goFiles parses the module's non-test Go files under root (skipping
// testdata, node_modules and hidden folders) and calls f for each.
func goFiles(t *testing.T, root string, f func(rel string, fset *token.FileSet, file *ast.File)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil // someone's half-written file; the build catches it
		}
		rel, _ := filepath.Rel(root, path)
		f(filepath.ToSlash(rel), fset, file)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// hookRunners are the functions that run hooks; their second argument is
// the point.
var hookRunners = map[string]bool{"hook": true, "resultHook": true, "hookStep": true, "Hook": true}

// Every place that runs hooks names its point as a literal hooks.<Point>
// constant (never a variable a caller could choose), and every point is
// run somewhere in the engine.
func TestHookCallSitesNamePoints(t *testing.T) {
	names := map[string]hooks.Point{"BeforeRun": hooks.BeforeRun, "AfterResolution": hooks.AfterResolution, "AfterPlanning": hooks.AfterPlanning,
		"BeforeExecution": hooks.BeforeExecution, "AfterExecution": hooks.AfterExecution, "AfterAnswer": hooks.AfterAnswer}
	used := map[hooks.Point]bool{}
	goFiles(t, ".", func(rel string, fset *token.FileSet, file *ast.File) {
		if strings.Contains(rel, "/") && !strings.HasPrefix(rel, "verified/") && !strings.HasPrefix(rel, "extend/") && !strings.HasPrefix(rel, "multi/") { // the engine package itself, the verified gate it hands its hook step, the extension gate and the walk across datasources
			return
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if fn, isFn := n.(*ast.FuncDecl); isFn && hookRunners[fn.Name.Name] {
				return false // the runners themselves pass their point on
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, isID := call.Fun.(*ast.Ident); isID && hookRunners[id.Name] && len(call.Args) >= 2 {
				call.Fun = &ast.SelectorExpr{X: ast.NewIdent("_"), Sel: id} // a Hook handed in: checked as e.hook is
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !hookRunners[sel.Sel.Name] || len(call.Args) < 2 {
				if ok && sel.Sel.Name == "Run" && isIdent(sel.X, "Hooks") {
					t.Errorf("%s: %s: the runner is called directly; go through e.hook", rel, fset.Position(call.Pos()))
				}
				return true
			}
			p, ok := call.Args[1].(*ast.SelectorExpr)
			if !ok || !isIdent(p.X, "hooks") || names[p.Sel.Name] == "" {
				t.Errorf("%s: %s: hook point is not a hooks.<Point> literal", rel, fset.Position(call.Pos()))
				return true
			}
			used[names[p.Sel.Name]] = true
			return true
		})
	})
	for _, p := range hooks.Points {
		if !used[p] {
			t.Errorf("point %s is never run", p)
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == name
	case *ast.SelectorExpr:
		return x.Sel.Name == name
	}
	return false
}

// validators are the calls whose result's .Plan is a validated plan.
var validators = []string{"validate.Plan", "validateFor", "decodeValidate", "validateDoc"}

// Every path from planning to rendering passes validation: across the
// module, the plan handed to render.SQL, and every plan stored in the
// engine's planned value, is the .Plan of a variable assigned (in the same
// function) from a validator call; only engine/render.go renders a
// planned's plan, which holds nothing else.
func TestRenderOnlyValidatedPlans(t *testing.T) {
	checked := 0
	goFiles(t, "..", func(rel string, fset *token.FileSet, file *ast.File) {
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			validated := validatedVars(fn)
			fromValidator := func(e ast.Expr) bool {
				found := false
				ast.Inspect(e, func(n ast.Node) bool {
					if s, isSel := n.(*ast.SelectorExpr); isSel && s.Sel.Name == "Plan" {
						if id, isID := s.X.(*ast.Ident); isID && validated[id.Name] {
							found = true
						}
					}
					return !found
				})
				return found
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CallExpr:
					if s, isSel := x.Fun.(*ast.SelectorExpr); isSel && s.Sel.Name == "SQL" && isIdent(s.X, "render") && len(x.Args) > 0 {
						checked++
						if rel == "engine/render.go" && isIdent(x.Args[0], "plan") {
							return true // a planned's plan: checked below
						}
						if !fromValidator(x.Args[0]) {
							t.Errorf("%s: %s renders a plan that is not the .Plan of a validator's result", rel, fset.Position(x.Pos()))
						}
					}
				case *ast.CompositeLit:
					if id, isID := x.Type.(*ast.Ident); isID && id.Name == "planned" {
						for _, el := range x.Elts {
							if kv, isKV := el.(*ast.KeyValueExpr); isKV && isIdent(kv.Key, "plan") {
								checked++
								if !fromValidator(kv.Value) {
									t.Errorf("%s: %s stores an unvalidated plan in planned", rel, fset.Position(kv.Pos()))
								}
							}
						}
					}
				case *ast.AssignStmt:
					for i, l := range x.Lhs {
						if s, isSel := l.(*ast.SelectorExpr); isSel && s.Sel.Name == "plan" && i < len(x.Rhs) && strings.HasPrefix(rel, "engine/") && !strings.Contains(strings.TrimPrefix(rel, "engine/"), "/") {
							checked++
							if !fromValidator(x.Rhs[i]) {
								t.Errorf("%s: %s assigns an unvalidated plan to .plan", rel, fset.Position(x.Pos()))
							}
						}
					}
				}
				return true
			})
		}
	})
	if checked < 8 {
		t.Errorf("only %d sites checked; the test no longer sees the code", checked)
	}
}

// validatedVars lists the variables fn assigns from a validator call.
func validatedVars(fn *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			return true
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok {
			return true
		}
		name := ""
		switch f := call.Fun.(type) {
		case *ast.SelectorExpr:
			name = f.Sel.Name
			if isIdent(f.X, "validate") {
				name = "validate." + name
			}
		case *ast.Ident:
			name = f.Name
		}
		if slices.Contains(validators, name) {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}
