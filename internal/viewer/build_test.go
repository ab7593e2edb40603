package viewer

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The committed view.html is the build of web/: a change to the sources
// without go generate ./internal/viewer would ship the old page. Needs node and
// web/node_modules (npm ci in viewer/web); skipped without them.
func TestPageIsBuiltFromSources(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH: cannot rebuild view.html to compare")
	}
	if _, err := os.Stat(filepath.Join("web", "node_modules", "chart.js", "package.json")); err != nil {
		t.Skip("internal/viewer/web/node_modules is missing (run go generate ./internal/viewer): cannot rebuild view.html to compare")
	}
	out := filepath.Join(t.TempDir(), "view.html")
	cmd := exec.Command(node, filepath.Join("web", "build.mjs"), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(HTML())) {
		t.Error("view.html differs from a build of internal/viewer/web: run go generate ./internal/viewer and commit view.html")
	}
}
