package cli_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An interrupted command exits 130 with a message, so a script can tell it
// from success; an interrupted server stops cleanly with 0.
func TestInterruptExitCodes(t *testing.T) {
	bin := testBinary(t)
	// A model endpoint that accepts and never answers: ask waits in the
	// planner call until the signal.
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer srv.Close()
	defer close(hang)
	dir := t.TempDir()
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "nl2sql.yaml")
	yaml := "storage: {path: " + filepath.Join(dir, "store") + "}\n" +
		"datasources:\n  - {id: chinook, engine: sqlite, path: " + db + "}\n" +
		"llm:\n  default: {provider: openai, base_url: " + srv.URL + "/v1, api_key: k, model: m}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(sig syscall.Signal, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1500 * time.Millisecond)
		_ = cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return ee.ExitCode(), stderr.String()
			}
			return 0, stderr.String()
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v did not stop within 20 s of %v", args, sig)
			return 0, ""
		}
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		code, stderr := run(sig, "ask", "--config", cfg, "Which media type has the most tracks?")
		if code != 130 || !strings.Contains(stderr, "interrupted") {
			t.Errorf("ask interrupted by %v: exit %d, stderr %q; want 130 and \"interrupted\"", sig, code, stderr)
		}
	}
	code, stderr := run(syscall.SIGTERM, "serve", "--config", cfg, "--http", "127.0.0.1:0", "--insecure-no-auth")
	if code != 0 {
		t.Errorf("serve stopped by SIGTERM: exit %d, stderr %q; want 0", code, stderr)
	}
}

// A client that hangs up at once (stdin closed) stops the server while it
// still opens its datasources; that is no fault of the database, and the
// server must not report it as one ("cannot be opened: CANCELLED").
func TestHangUpDuringOpeningReportsNothing(t *testing.T) {
	bin := testBinary(t)
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		cmd := exec.Command(bin, "serve", "--db", db, "--storage", filepath.Join(t.TempDir(), "store"))
		var stderr bytes.Buffer
		cmd.Stderr, cmd.Stdin = &stderr, strings.NewReader("")
		if err := cmd.Run(); err != nil {
			t.Fatalf("serve with stdin closed: %v\n%s", err, stderr.String())
		}
		if strings.Contains(stderr.String(), "cannot be opened") {
			t.Fatalf("run %d: a hang-up was reported as a database fault:\n%s", i, stderr.String())
		}
	}
}
