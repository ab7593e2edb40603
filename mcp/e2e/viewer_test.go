package e2e

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMCPAppWithTypeScriptSDK: the result view as an MCP Apps host sees
// it through the official TypeScript SDK (mcpapp.test.mjs): the three
// tools link ui://nl2sql/result.html, the resource reads as
// text/html;profile=mcp-app with its CSP in _meta.ui, and a client
// advertising the extension gets the view's _meta while one without gets
// none.
func TestMCPAppWithTypeScriptSDK(t *testing.T) {
	f := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), overallTimeout)
	defer cancel()
	run(ctx, t, f.root, f.env(filepath.Join(t.TempDir(), "storage")), f.node, "--test", "--test-reporter=spec", filepath.Join("mcp", "e2e", "mcpapp.test.mjs"))
}

var updateScreenshots = flag.Bool("update-screenshots", false, "TestViewerInChromium: write the screenshots to internal/viewer/testdata/screenshots (else to a temporary directory)")

// TestViewerInChromium loads the view in headless Chromium inside a small
// host page that speaks the MCP Apps protocol, fed with real tool results
// of the server on Chinook (viewer.test.mjs, playwright-core), and takes
// screenshots: to internal/viewer/testdata/screenshots with -update-screenshots
// (look at them before committing), else to a temporary directory. It needs Chromium
// (Debian's chromium package; CI installs it, see .ci/run) and is skipped
// with a message without it, unless CI is set; NL2SQL_CHROMIUM names
// another binary.
func TestViewerInChromium(t *testing.T) {
	f := setup(t)
	chromium := os.Getenv("NL2SQL_CHROMIUM")
	if chromium == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				chromium = p
				break
			}
		}
	}
	if chromium == "" {
		skipOrFail(t, "no chromium on PATH: the result view's browser test needs it (apt-get install chromium, or set NL2SQL_CHROMIUM)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), overallTimeout)
	defer cancel()
	shots := t.TempDir()
	if *updateScreenshots {
		shots = filepath.Join(f.root, "internal", "viewer", "testdata", "screenshots")
	}
	env := append(f.env(filepath.Join(t.TempDir(), "storage")),
		"NL2SQL_CHROMIUM="+chromium,
		"NL2SQL_SCREENSHOTS="+shots,
		"NL2SQL_PLANS="+filepath.Join(f.root, "internal", "viewer", "testdata", "plans.json"),
		"NL2SQL_PAGE_DIR="+t.TempDir())
	run(ctx, t, f.root, env, f.node, "--test", "--test-reporter=spec", filepath.Join("mcp", "e2e", "viewer.test.mjs"))
}
