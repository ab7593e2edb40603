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

// A serve command whose flags cannot work says so before it announces
// anything: a port out of range, a line limit of zero or less.
func TestServeBadFlagsRefusedBeforeTheBanner(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "127.0.0.1:99999", "--insecure-no-auth"}, "not a listen address"},
		{[]string{"--http", "localhost", "--insecure-no-auth"}, "not a listen address"},
		{[]string{"--max-line-bytes", "0"}, "at least 1 byte"},
		{[]string{"--max-line-bytes", "-5"}, "at least 1 byte"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr := os.Stderr
		os.Stderr = w
		_, runErr := runCLI(append([]string{"serve", "--db", db, "--storage", t.TempDir()}, c.args...)...)
		w.Close()
		os.Stderr = stderr
		said, _ := io.ReadAll(r)
		if runErr == nil || !strings.Contains(runErr.Error(), c.want) || !strings.Contains(runErr.Error(), "hint") {
			t.Errorf("%v: err %v, want %q with a hint", c.args, runErr, c.want)
		}
		if strings.Contains(string(said), "serving MCP") {
			t.Errorf("%v: the refused server announced itself:\n%s", c.args, said)
		}
	}
}
