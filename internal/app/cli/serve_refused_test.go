package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A serve --http that will not start (no authentication configured) says
// why and never first claims to be serving: a user reading "serving MCP
// over streamable HTTP at …" would point a client at a port nobody holds.
func TestServeHTTPRefusedBeforeTheBanner(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	_, runErr := runCLI("serve", "--http", "127.0.0.1:0", "--db", db, "--storage", t.TempDir())
	w.Close()
	os.Stderr = stderr
	said, _ := io.ReadAll(r)
	if runErr == nil || !strings.Contains(runErr.Error(), "needs authentication") {
		t.Fatalf("serve --http without authentication: err %v, want the authentication refusal", runErr)
	}
	if strings.Contains(string(said), "serving MCP") {
		t.Errorf("the refused server still announced itself:\n%s", said)
	}
}
