// Command mutate checks that the tests guard the guarantees: it copies the
// tracked files of the repository into a temporary directory, then, one
// mutation at a time, breaks one guarded line (an exact, unique text
// replacement), runs the tests that guard it, and restores the line. A
// mutation whose tests still pass survived; mutate exits 1 if any did, and
// also if a guarding test skipped instead of running (a PostgreSQL test
// without NL2SQL_TEST_PG_DSN, a ../shared test without the data): a skipped
// guard checks nothing.
//
//	go run ./scripts/mutate                 # every mutation
//	go run ./scripts/mutate -run cache      # those whose name matches
//	go run ./scripts/mutate -list
//
// Run it with NL2SQL_TEST_PG_DSN set (see README). The whole list takes
// 35 min (28 mutations, 2079 s, on two cores shared with other test runs), most of it compiling each mutated package's
// tests; one mutation takes from 5 s (a small package) to 2-3 min (./engine
// or ./mcp). Tests run with -trimpath so that the copy shares the build
// cache across runs (the first run compiles everything once). See
// mutations.go for the list; each names the test that must kill it.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// mutation is one deliberate break of a guarantee.
type mutation struct {
	Name string // short, unique
	File string // relative to the repository root
	Old  string // must occur exactly once in File
	New  string
	// Import is a package path the mutated file must import for New to
	// build (the broken line may call what the file did not need).
	Import string
	Pkgs   []string // packages whose tests guard it
	Run    string   // -run pattern of those tests
}

func main() {
	runPat := flag.String("run", "", "only mutations whose name matches this regexp")
	list := flag.Bool("list", false, "list the mutations and exit")
	timeout := flag.Duration("timeout", 10*time.Minute, "bound on each mutation's test run")
	flag.Parse()
	re, err := regexp.Compile(*runPat)
	if err != nil {
		fatal(err)
	}
	var ms []mutation
	for _, m := range mutations {
		if re.MatchString(m.Name) {
			ms = append(ms, m)
		}
	}
	if *list {
		for _, m := range ms {
			fmt.Printf("%-28s %s  %s -run %s\n", m.Name, m.File, strings.Join(m.Pkgs, " "), m.Run)
		}
		return
	}
	root, err := repoRoot()
	if err != nil {
		fatal(err)
	}
	tmp, err := os.MkdirTemp("", "nl2sql-mutate-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)
	repo := filepath.Join(tmp, "repo")
	if err := copyTracked(root, repo); err != nil {
		fatal(err)
	}
	// ../shared beside the copy, as beside the repository.
	if _, err := os.Stat(filepath.Join(root, "..", "shared")); err == nil {
		if err := os.Symlink(filepath.Join(root, "..", "shared"), filepath.Join(tmp, "shared")); err != nil {
			fatal(err)
		}
	}
	fmt.Printf("copy of %s at %s\n", root, repo)
	start := time.Now()
	survived := 0
	for _, m := range ms {
		t0 := time.Now()
		verdict, detail := apply(repo, m, *timeout)
		if verdict != "killed" {
			survived++
		}
		fmt.Printf("%-8s %-28s %-40s %6.1fs  %s\n", verdict, m.Name, m.File, time.Since(t0).Seconds(), detail)
	}
	fmt.Printf("%d mutations, %d killed, %d survived or broken, in %.0f s\n", len(ms), len(ms)-survived, survived, time.Since(start).Seconds())
	if survived > 0 {
		os.Exit(1)
	}
}

// apply breaks m in the copy at dir, runs its tests and restores the file.
// The verdict is "killed" (a test failed), "SURVIVED" (all passed),
// "SKIPPED" (all passed but a guarding test skipped, e.g. a PostgreSQL test
// without NL2SQL_TEST_PG_DSN: a failure, since nothing was checked),
// "TIMEOUT" (no verdict in time) or "BROKEN" (the line to break is not there
// exactly once, the mutated code does not build, or no test matched).
func apply(dir string, m mutation, timeout time.Duration) (verdict, detail string) {
	path := filepath.Join(dir, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		return "BROKEN", err.Error()
	}
	if n := bytes.Count(orig, []byte(m.Old)); n != 1 {
		return "BROKEN", fmt.Sprintf("the text to mutate occurs %d times", n)
	}
	mutated := bytes.Replace(orig, []byte(m.Old), []byte(m.New), 1)
	if m.Import != "" {
		mutated = bytes.Replace(mutated, []byte("import (\n"), []byte("import (\n\t\""+m.Import+"\"\n"), 1)
	}
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		return "BROKEN", err.Error()
	}
	defer os.WriteFile(path, orig, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// -v so that skipped tests show: a guard that skipped (no
	// NL2SQL_TEST_PG_DSN, no ../shared) proves nothing.
	args := append([]string{"test", "-trimpath", "-count=1", "-v", "-run", m.Run}, m.Pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "TIMEOUT", fmt.Sprintf("no verdict within %s: go %s", timeout, strings.Join(args, " "))
	}
	if err == nil {
		if !bytes.Contains(out, []byte("=== RUN")) {
			return "BROKEN", "no test matched -run " + m.Run
		}
		if sk := skipped(out); sk != "" {
			return "SKIPPED", "guard skipped, so nothing was checked: " + sk
		}
		return "SURVIVED", "go " + strings.Join(args, " ")
	}
	if by := failing(out); by != "" {
		return "killed", "by " + by
	}
	if by := crashedIn(out); by != "" {
		return "killed", "by " + by + " (the test binary crashed in it)"
	}
	// A mutation that does not compile proves nothing about the tests.
	return "BROKEN", "no test failed (the build or the test binary did): " + lastLines(out, 3)
}

// lastLines is the end of out on one line.
func lastLines(out []byte, n int) string {
	ls := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], " | ")
}

// skipped names the skipped tests in go test -v output, with the first
// skip's reason ("" for none).
func skipped(out []byte) string {
	var names []string
	reason := ""
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "--- SKIP: ") {
			continue
		}
		names = append(names, strings.Fields(strings.TrimPrefix(l, "--- SKIP: "))[0])
		if reason == "" && i > 0 { // go test -v prints the reason before the verdict
			reason = strings.TrimSpace(lines[i-1])
		}
	}
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, ", ") + " (" + reason + ")"
}

// failing names the failed tests in go test output ("" for none).
func failing(out []byte) string {
	var names []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "--- FAIL: ") {
			n := strings.Fields(strings.TrimPrefix(l, "--- FAIL: "))[0]
			if i := strings.Index(n, "/"); i > 0 {
				n = n[:i]
			}
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return strings.Join(names, ", ")
}

// crashedIn names the test that was running when the test binary crashed
// (a fatal error or a panic other than go test's own timeout): a mutation
// that makes a driver fault is caught by the test that reached it. "" when
// nothing crashed.
func crashedIn(out []byte) string {
	running := ""
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "=== RUN   "):
			running = strings.Fields(strings.TrimPrefix(l, "=== RUN   "))[0]
		case strings.HasPrefix(l, "panic: test timed out"):
			return ""
		case strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "panic: "):
			return running
		}
	}
	return ""
}

func repoRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("mutate runs inside the repository: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyTracked copies the files git tracks (as they are in the work tree)
// and links the e2e node_modules when present.
func copyTracked(root, dst string) error {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return err
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		fi, err := os.Lstat(src)
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree
			}
			return err
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, fi.Mode().Perm()); err != nil {
			return err
		}
	}
	nm := filepath.Join(root, "mcp", "e2e", "node_modules")
	if _, err := os.Stat(nm); err == nil {
		return os.Symlink(nm, filepath.Join(dst, "mcp", "e2e", "node_modules"))
	}
	return nil
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(2)
}
