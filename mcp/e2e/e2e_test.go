// Package e2e drives the built nl2sql binary over MCP stdio with the official
// TypeScript SDK client (stdio.test.mjs), so `go test ./...` checks the
// product the way Claude Desktop and other MCP hosts use it.
//
// It needs node and npm on PATH; without them the test is skipped, unless the
// environment variable CI is set, in which case it fails. On a fresh clone it
// runs `npm ci` in this directory first.
package e2e

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

const overallTimeout = 5 * time.Minute

// goldEntry is one element of the NL2SQL_GOLD file.
type goldEntry struct {
	Question string   `json:"question"`
	Columns  []string `json:"columns"`
	Rows     [][]any  `json:"rows"`
}

func TestStdioWithTypeScriptSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	node, npm := requireNode(t)
	root := repoRoot(t)
	e2eDir := filepath.Join(root, "mcp", "e2e")
	chinook := filepath.Join(root, "examples", "chinook")

	trackInputs(t, root)

	ctx, cancel := context.WithTimeout(context.Background(), overallTimeout)
	defer cancel()

	if _, err := os.Stat(filepath.Join(e2eDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Logf("installing the MCP TypeScript SDK: npm ci in %s", e2eDir)
		run(ctx, t, e2eDir, nil, npm, "ci", "--no-audit", "--no-fund")
	}

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "nl2sql")
	t.Logf("building %s", bin)
	run(ctx, t, root, nil, "go", "build", "-o", bin, ".")

	goldPath := filepath.Join(tmp, "gold.json")
	writeGold(t, filepath.Join(chinook, "questions.json"), filepath.Join(chinook, "chinook.sqlite"), goldPath)

	env := []string{
		"NL2SQL_BIN=" + bin,
		"NL2SQL_CONFIG=" + filepath.Join(chinook, "nl2sql.yaml"),
		"NL2SQL_GOLD=" + goldPath,
		// Keep the server's snapshots, plan cache and traces out of the
		// working tree (and start each run with an empty plan cache).
		"NL2SQL_STORAGE__PATH=" + filepath.Join(tmp, "storage"),
	}
	run(ctx, t, root, env, node, "--test", "--test-reporter=spec", filepath.Join("mcp", "e2e", "stdio.test.mjs"))
}

// requireNode returns the paths of node and npm, skipping the test when
// either is missing (failing instead when CI is set).
func requireNode(t *testing.T) (node, npm string) {
	t.Helper()
	var missing []string
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node")
	}
	npm, err = exec.LookPath("npm")
	if err != nil {
		missing = append(missing, "npm")
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("%s not on PATH: the MCP end-to-end tests need Node.js >= 20 with npm", strings.Join(missing, " and "))
		if os.Getenv("CI") != "" {
			t.Fatal(msg + " (CI is set, so this is a failure, not a skip)")
		}
		t.Skip(msg)
	}
	return node, npm
}

// repoRoot walks up from the working directory to the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// trackInputs stats every source and data file of the module. The go command
// caches a passing test's result keyed on the files the test process itself
// touched; the binary is built by a child process, so without this a cached
// pass would survive changes to the product's code.
func trackInputs(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".mod", ".sum", ".json", ".yaml", ".yml", ".sqlite", ".mjs", ".sql", ".tmpl", ".txt", ".md":
			_, err := os.Stat(path)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs name args in dir with extra env, streaming its combined output
// into the test log line by line, and fails the test on a non-zero exit.
func run(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = pw
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
		for sc.Scan() {
			t.Log(sc.Text())
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	start := time.Now()
	err := cmd.Run()
	_ = pw.Close()
	wg.Wait()
	cmdline := strings.Join(append([]string{filepath.Base(name)}, args...), " ")
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Fatalf("%s: ran past the %s limit of the end-to-end test", cmdline, overallTimeout)
		}
		t.Fatalf("%s (in %s): %v", cmdline, dir, err)
	}
	t.Logf("%s: ok in %s", cmdline, time.Since(start).Round(time.Millisecond))
}

// writeGold runs every question's gold SQL on the database, read-only, and
// writes [{question, columns, rows}] to out: numbers as JSON numbers, text as
// strings, NULL as null.
func writeGold(t *testing.T, questionsFile, dbFile, out string) {
	t.Helper()
	raw, err := os.ReadFile(questionsFile)
	if err != nil {
		t.Fatal(err)
	}
	var qs []struct {
		Question string `json:"question"`
		GoldSQL  string `json:"gold_sql"`
	}
	if err := json.Unmarshal(raw, &qs); err != nil {
		t.Fatalf("%s: %v", questionsFile, err)
	}
	if len(qs) == 0 {
		t.Fatalf("%s: no questions", questionsFile)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(dbFile)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the PRAGMA below is per connection
	if _, err := db.Exec("PRAGMA case_sensitive_like=ON"); err != nil {
		t.Fatal(err)
	}
	gold := make([]goldEntry, 0, len(qs))
	for _, q := range qs {
		if q.Question == "" || q.GoldSQL == "" {
			t.Fatalf("%s: entry without question or gold_sql: %+v", questionsFile, q)
		}
		cols, rows, err := query(db, q.GoldSQL)
		if err != nil {
			t.Fatalf("gold SQL of %q: %v", q.Question, err)
		}
		gold = append(gold, goldEntry{Question: q.Question, Columns: cols, Rows: rows})
	}
	b, err := json.MarshalIndent(gold, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func query(db *sql.DB, q string) ([]string, [][]any, error) {
	rs, err := db.Query(q)
	if err != nil {
		return nil, nil, err
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return nil, nil, err
	}
	rows := [][]any{}
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		for i, v := range vals {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case time.Time:
				vals[i] = x.Format(time.RFC3339Nano)
			}
		}
		rows = append(rows, vals)
	}
	return cols, rows, rs.Err()
}
