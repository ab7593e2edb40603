package scope_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Only package scope decides access. TestNoOtherPackageMatchesAccess reads
// every non-test Go file of the module outside scope/ and fails on:
//
//   - a call of path.Match or filepath.Match (glob matching is how access
//     patterns are matched; nothing else in the module needs it);
//   - an import of a glob library (gobwas/glob, doublestar, …);
//   - a read of a role's patterns or filters (a selector .Allow, .Deny or
//     .RowFilters) outside internal/config, which only checks their shape;
//   - a string literal that is exactly a role key ("allow", "deny",
//     "row_filters") outside internal/config: reading the access section
//     by hand, from raw YAML or a map, to match it elsewhere.
//
// Exceptions must be listed in archExceptions with a reason.
func TestNoOtherPackageMatchesAccess(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel == "scope" || name == "testdata" || name == "vendor" || name == "node_modules" || (strings.HasPrefix(name, ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		problems = append(problems, archCheckFile(t, path, rel)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if reason, ok := archExceptions[p]; ok && reason != "" {
			continue
		}
		t.Errorf("%s: access decisions belong to package scope", p)
	}
}

// archExceptions maps a reported "file: finding" to why it is fine.
var archExceptions = map[string]string{
	`engine/hooks/points.go: role key "allow" at line 29`: "a hook decision's name (allow/deny), not a role's patterns; hooks decide nothing about access, validation through scope still runs",
	`engine/hooks/points.go: role key "deny" at line 30`:  "a hook decision's name (allow/deny), not a role's patterns",
}

var globImports = []string{"github.com/gobwas/glob", "github.com/bmatcuk/doublestar", "github.com/ryanuber/go-glob", "github.com/IGLOU-EU/go-wildcard"}

var roleKeys = map[string]bool{"allow": true, "deny": true, "row_filters": true}

func archCheckFile(t *testing.T, path, rel string) []string {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return archCheckSource(t, rel, src)
}

// archCheckSource applies the rules to one file's source.
func archCheckSource(t *testing.T, rel string, src []byte) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil // a file being edited by someone else; the build will catch it
	}
	var out []string
	report := func(n ast.Node, what string) {
		out = append(out, rel+": "+what+" at line "+strconv.Itoa(fset.Position(n.Pos()).Line))
	}
	imports := map[string]string{} // local name → path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
		for _, g := range globImports {
			if strings.HasPrefix(p, g) {
				report(im, "imports "+p)
			}
		}
	}
	inConfig := strings.HasPrefix(rel, "internal/config/")
	tags := map[*ast.BasicLit]bool{} // struct tags (a Field is visited before its tag)
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				called[sel] = true // Scope.RowFilters(…) is the API, not a field read
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Match" {
				if id, ok := sel.X.(*ast.Ident); ok && (imports[id.Name] == "path" || imports[id.Name] == "path/filepath") {
					report(x, imports[id.Name]+".Match")
				}
			}
		case *ast.SelectorExpr:
			switch x.Sel.Name {
			case "Allow", "Deny", "RowFilters":
				// pkg.Allow names a package's type or function (index.Allow,
				// the shape scope hands retrieval), not a role's field
				if id, ok := x.X.(*ast.Ident); ok && imports[id.Name] != "" {
					break
				}
				if !inConfig && !called[x] {
					report(x, "reads ."+x.Sel.Name)
				}
			}
		case *ast.Field:
			if x.Tag != nil {
				tags[x.Tag] = true
			}
		case *ast.BasicLit:
			if v, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && roleKeys[v] && !inConfig && !tags[x] {
				report(x, "role key "+x.Value)
			}
		}
		return true
	})
	return out
}

// The check itself catches what it is meant to.
func TestArchCheckCatches(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // "" for clean
	}{
		{"path.Match", `package x
import "path"
func f(p, n string) bool { ok, _ := path.Match(p, n); return ok }`, "path.Match"},
		{"renamed filepath.Match", `package x
import fp "path/filepath"
func f(p, n string) bool { ok, _ := fp.Match(p, n); return ok }`, "path/filepath.Match"},
		{"reads role patterns", `package x
func f(r R) []string { return r.Deny }`, "reads .Deny"},
		{"hand-rolled", `package x
func f(raw map[string]any) any { return raw["deny"] }`, "role key \"deny\""},
		{"clean: struct tag", `package x
type T struct { Allow []string ` + "`json:\"allow\"`" + ` }`, ""},
		{"clean: message", `package x
var e = "origin not allowed"`, ""},
		{"glob library", `package x
import "github.com/gobwas/glob"
var _ = glob.Compile`, "imports github.com/gobwas/glob"},
		{"clean: filepath.Glob for files", `package x
import "path/filepath"
func f() ([]string, error) { return filepath.Glob("*.json") }`, ""},
		{"clean: EqualFold without access words", `package x
import "strings"
func f(a, b string) bool { return strings.EqualFold(a, b) }`, ""},
		{"clean: AllowTable call", `package x
func f(s S) bool { return s.AllowTable("main", "t") }`, ""},
		{"clean: RowFilters call", `package x
func f(s S) any { return s.RowFilters("ds", "main", "t") }`, ""},
		{"clean: a package's type named Allow", `package x
import "github.com/nl2sql/nl2sql/index"
func f(a index.Allow) index.Allow { return a }`, ""},
		{"reads role patterns of a value named like no import", `package x
import "github.com/nl2sql/nl2sql/index"
var _ index.Allow
func f(idx R) []string { return idx.Allow }`, "reads .Allow"},
		{"reads role filters", `package x
func f(r R) any { return r.RowFilters }`, "reads .RowFilters"},
	}
	for _, tt := range tests {
		got := archCheckSource(t, "x/x.go", []byte(tt.src))
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s: flagged %v", tt.name, got)
		case tt.want != "" && (len(got) == 0 || !strings.Contains(got[0], tt.want)):
			t.Errorf("%s: got %v, want %q", tt.name, got, tt.want)
		}
	}
}
