package arch

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/nl2sql/nl2sql"

// imports lists, per package of the module, the module packages its
// non-test files import (go list: the build's own view of the arrows).
func imports(t *testing.T) map[string][]string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	rel := func(p string) (string, bool) {
		if p == module {
			return ".", true
		}
		r, ok := strings.CutPrefix(p, module+"/")
		return r, ok
	}
	g := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		pkg, _ := rel(f[0])
		g[pkg] = []string{}
		for _, imp := range f[1:] {
			if r, ok := rel(imp); ok {
				g[pkg] = append(g[pkg], r)
			}
		}
	}
	return g
}

// outsideProduct are the programs beside the product (examples, scripts):
// they may import anything and nothing imports them.
func outsideProduct(pkg string) bool {
	return strings.HasPrefix(pkg, "examples/") || strings.HasPrefix(pkg, "scripts/")
}

// Every import arrow between the module's packages runs down the layers
// (or stays within one): a foundation that imported the pipeline, or the
// pipeline that imported a transport, would tie the lower part to what is
// built on it. A package with no layer fails too, so the table stays whole.
func TestImportsRunDown(t *testing.T) {
	g := imports(t)
	pkgs := make([]string, 0, len(g))
	for p := range g {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if outsideProduct(p) {
			continue
		}
		from, ok := Layers[p]
		if !ok {
			t.Errorf("package %s has no layer: add it to Layers in internal/arch/layers.go", p)
			continue
		}
		for _, imp := range g[p] {
			if outsideProduct(imp) {
				t.Errorf("%s imports %s: the product never imports examples or scripts", p, imp)
				continue
			}
			to, ok := Layers[imp]
			if ok && to > from {
				t.Errorf("upward import: %s (%s) imports %s (%s)", p, LayerNames[from], imp, LayerNames[to])
			}
		}
	}
	for p := range Layers {
		if _, ok := g[p]; !ok {
			t.Errorf("Layers lists %s, which is not a package of the module", p)
		}
	}
}

// The pipeline's folder never reaches its callers: nothing under engine/
// imports the transports, the tools or the composition root, and no step
// package imports the pipeline that calls it. Nor does it pick a
// datasource adapter: the composition root hands the engine its opener
// (engine.Options.Open), so nothing under engine/ imports a driver.
func TestEngineKnowsNoCaller(t *testing.T) {
	g := imports(t)
	for p, imps := range g {
		if p != "engine" && !strings.HasPrefix(p, "engine/") {
			continue
		}
		for _, imp := range imps {
			switch {
			case imp == "mcp" || strings.HasPrefix(imp, "mcp/"), imp == "tools", strings.HasPrefix(imp, "internal/app"), imp == ".":
				t.Errorf("%s imports %s: the engine must not know its callers", p, imp)
			case imp == "internal/source/adapters", imp == "internal/source/sqlite", imp == "internal/source/duckdb", imp == "internal/source/postgres":
				t.Errorf("%s imports %s: the composition root chooses the adapters (engine.Options.Open)", p, imp)
			case p != "engine" && imp == "engine":
				t.Errorf("%s imports engine: a step package is called by the pipeline, never the other way round", p)
			}
		}
	}
}

// The adapters sit on the source core, never the other way round, and
// never on each other: internal/source (the Source contract, the statement
// gate, the value encoding) imports no adapter, so curated validation and
// every engine share one gate without pulling in the drivers; an adapter
// imports no other adapter; no product package imports the adapters' test
// fixtures (internal/source/sourcetest).
func TestSourceCoreKnowsNoAdapter(t *testing.T) {
	g := imports(t)
	adapters := map[string]bool{"internal/source/sqlite": true, "internal/source/duckdb": true, "internal/source/postgres": true}
	for p, imps := range g {
		for _, imp := range imps {
			switch {
			case p == "internal/source" && strings.HasPrefix(imp, "internal/source/"):
				t.Errorf("internal/source imports %s: the core must not know its adapters", imp)
			case adapters[p] && adapters[imp]:
				t.Errorf("%s imports %s: an adapter must not depend on another", p, imp)
			case imp == "internal/source/sourcetest" && !outsideProduct(p):
				t.Errorf("%s imports internal/source/sourcetest, which holds test fixtures only", p)
			}
		}
	}
}
