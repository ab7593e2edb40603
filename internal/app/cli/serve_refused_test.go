package cli

import (
	"io"
	"net"
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
	runErr, said := serveSays(t, "--http", "127.0.0.1:0", "--db", db, "--storage", t.TempDir())
	if runErr == nil || !strings.Contains(runErr.Error(), "needs authentication") {
		t.Fatalf("serve --http without authentication: err %v, want the authentication refusal", runErr)
	}
	if strings.Contains(said, "serving MCP") {
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
		runErr, said := serveSays(t, append([]string{"--db", db, "--storage", t.TempDir()}, c.args...)...)
		if runErr == nil || !strings.Contains(runErr.Error(), c.want) || !strings.Contains(runErr.Error(), "hint") {
			t.Errorf("%v: err %v, want %q with a hint", c.args, runErr, c.want)
		}
		if strings.Contains(said, "serving MCP") {
			t.Errorf("%v: the refused server announced itself:\n%s", c.args, said)
		}
	}
}

// A serve --http on a port another process holds says that, alone: it
// bound only after opening its datasources, so the opens it then cut short
// logged "cannot read the source's state … context canceled" and "cannot
// be opened: CANCELLED" first, and the user chased a datasource fault.
func TestServeOnAPortInUseSaysSoAlone(t *testing.T) {
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	runErr, said := serveSays(t, "--http", held.Addr().String(), "--insecure-no-auth", "--db", db, "--storage", t.TempDir())
	if runErr == nil || !strings.Contains(runErr.Error(), "address already in use") || !strings.Contains(runErr.Error(), "hint") {
		t.Fatalf("serve on a held port: err %v, want address already in use with a hint", runErr)
	}
	if s := said; strings.Contains(s, "serving MCP") || strings.Contains(s, "cancel") || strings.Contains(s, "CANCELLED") {
		t.Errorf("before the real error the server said:\n%s", s)
	}
}

// serveSays runs serve with args and returns its error and what it wrote
// to standard error.
func serveSays(t *testing.T, args ...string) (error, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	_, runErr := runCLI(append([]string{"serve"}, args...)...)
	w.Close()
	os.Stderr = stderr
	said, _ := io.ReadAll(r)
	return runErr, string(said)
}
