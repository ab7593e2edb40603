package store

// Multi-process tests: the test binary re-executes itself with childRoleEnv
// set, and TestMain (helpers_test.go) runs runChild instead of the tests.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
)

const (
	childRoleEnv  = "NL2SQL_STORE_TEST_CHILD" // race, crash-loop, crash-in-tx
	childDirEnv   = "NL2SQL_STORE_TEST_DIR"
	childIDEnv    = "NL2SQL_STORE_TEST_ID"
	childGateEnv  = "NL2SQL_STORE_TEST_GATE" // a file the child waits for
	childItersEnv = "NL2SQL_STORE_TEST_ITERS"
)

// raceResult is what a race child prints on stdout.
type raceResult struct {
	SharedCreated int `json:"shared_created"`
	OwnCreated    int `json:"own_created"`
}

// variant returns base for datasource ds with the first table's row count
// set to rows: a distinct version per (ds, rows).
func variant(base *schema.Snapshot, ds string, rows int64) *schema.Snapshot {
	c, err := decodeSnapshot(canonicalJSON(base))
	if err != nil {
		panic(err)
	}
	c.Datasource = ds
	c.Tables[0].RowCount = &rows
	return c
}

func runChild(role string) int {
	if err := child(role); err != nil {
		fmt.Fprintf(os.Stderr, "child %s: %v\n", role, err)
		return 1
	}
	return 0
}

func child(role string) error {
	ctx := context.Background()
	b, err := os.ReadFile(chinookPath)
	if err != nil {
		return err
	}
	base, err := decodeSnapshot(b)
	if err != nil {
		return err
	}
	if gate := os.Getenv(childGateEnv); gate != "" {
		deadline := time.Now().Add(30 * time.Second)
		for {
			if _, err := os.Stat(gate); err == nil {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("gate %s never opened", gate)
			}
			time.Sleep(time.Millisecond)
		}
	}
	s, err := Open(ctx, os.Getenv(childDirEnv))
	if err != nil {
		return err
	}
	defer s.Close()
	id := os.Getenv(childIDEnv)
	iters, _ := strconv.Atoi(os.Getenv(childItersEnv))
	switch role {
	case "race":
		var res raceResult
		flip := [2]*schema.Snapshot{small("flip"), variant(small("flip"), "flip", 7)}
		key := PlanKey{Intent: "shared", Datasource: "chinook", SchemaVersion: base.Fingerprint(), Today: "2026-03-01"}
		for i := range iters {
			_, c, err := s.PutSnapshot(ctx, base)
			if err != nil {
				return fmt.Errorf("shared put %d: %w", i, err)
			}
			res.SharedCreated += b2i(c)
			if _, c, err = s.PutSnapshot(ctx, variant(base, "own-"+id, int64(i))); err != nil {
				return fmt.Errorf("own put %d: %w", i, err)
			}
			res.OwnCreated += b2i(c)
			if _, _, err := s.PutSnapshot(ctx, flip[i%2]); err != nil {
				return fmt.Errorf("flip put %d: %w", i, err)
			}
			if err := s.PutPlan(ctx, key, []byte(`{"plan":1}`)); err != nil {
				return fmt.Errorf("plan put %d: %w", i, err)
			}
			if _, ok, err := s.GetPlan(ctx, key); err != nil || !ok {
				return fmt.Errorf("plan get %d: %v %w", i, ok, err)
			}
		}
		return json.NewEncoder(os.Stdout).Encode(res)
	case "crash-loop":
		for i := 0; ; i++ {
			if _, _, err := s.PutSnapshot(ctx, variant(base, "crash", int64(i))); err != nil {
				return err
			}
			key := PlanKey{Intent: strconv.Itoa(i), Datasource: "crash", SchemaVersion: "v"}
			if err := s.PutPlan(ctx, key, bytes.Repeat([]byte("p"), 2048)); err != nil {
				return err
			}
			if err := s.PutTrace(ctx, strconv.Itoa(i), time.Now(), []byte(`{}`)); err != nil {
				return err
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	case "crash-in-tx":
		// One big uncommitted transaction, large enough to spill pages into
		// the WAL before the commit that never comes.
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		plan := bytes.Repeat([]byte("u"), 4096)
		for i := range 3000 {
			if _, err := tx.Exec(`INSERT INTO plan_cache (key, datasource, schema_version, plan, created_at) VALUES (?, 'uncommitted', 'v', ?, 0)`,
				strconv.Itoa(i), plan); err != nil {
				return err
			}
		}
		body := canonicalJSON(variant(base, "uncommitted", 1))
		if _, err := tx.Exec(`INSERT INTO snapshots (datasource, version, schema_hash, row_counts_hash, created_at, body)
			VALUES ('uncommitted', ?, '', '', 0, ?)`, hashHex(body), body); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO snapshot_heads VALUES ('uncommitted', ?, 0)`, hashHex(body)); err != nil {
			return err
		}
		fmt.Println("ready")
		time.Sleep(time.Minute) // killed long before
		return fmt.Errorf("not killed")
	}
	return fmt.Errorf("unknown role %q", role)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// spawn starts the test binary as a child in role.
func spawn(t *testing.T, role string, env ...string) (*exec.Cmd, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{childRoleEnv + "=" + role}, env...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, bufio.NewReader(out), &stderr
}

// TestProcessesRace: four processes open the same fresh store at once
// (migrating it concurrently) and put the same snapshot, their own
// snapshots, two alternating snapshots and one plan, over and over.
func TestProcessesRace(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, iters = 4, 25
	dir := filepath.Join(t.TempDir(), "state")
	gate := filepath.Join(t.TempDir(), "go")
	type kid struct {
		cmd    *exec.Cmd
		out    *bufio.Reader
		stderr *bytes.Buffer
	}
	var kids []kid
	for i := range procs {
		cmd, out, stderr := spawn(t, "race", childDirEnv+"="+dir, childIDEnv+"="+strconv.Itoa(i),
			childGateEnv+"="+gate, childItersEnv+"="+strconv.Itoa(iters))
		kids = append(kids, kid{cmd, out, stderr})
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	total := raceResult{}
	for i, k := range kids {
		line, _ := k.out.ReadBytes('\n')
		if err := k.cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, k.stderr)
		}
		var r raceResult
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("child %d printed %q: %v", i, line, err)
		}
		if r.OwnCreated != iters {
			t.Errorf("child %d created %d own snapshots, want %d", i, r.OwnCreated, iters)
		}
		total.SharedCreated += r.SharedCreated
	}
	if total.SharedCreated != 1 {
		t.Errorf("%d processes saw the shared snapshot created, want exactly 1", total.SharedCreated)
	}
	ctx := context.Background()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		query string
		want  int
	}{
		{`SELECT count(*) FROM snapshots WHERE datasource = 'chinook'`, 1},
		{`SELECT count(*) FROM snapshots WHERE datasource = 'flip'`, 2},
		{`SELECT count(*) FROM snapshots WHERE datasource LIKE 'own-%'`, procs * iters},
		{`SELECT count(*) FROM snapshots`, 3 + procs*iters},
		{`SELECT count(*) FROM snapshot_heads`, 2 + procs},
		{`SELECT count(*) FROM plan_cache`, 1},
		{`SELECT hits FROM plan_cache`, procs * iters},
		{`SELECT count(*) FROM schema_migrations`, SchemaVersion()},
	} {
		if n := count(t, s, c.query); n != c.want {
			t.Errorf("%s = %d, want %d", c.query, n, c.want)
		}
	}
	for i := range procs {
		snap, meta, err := s.LatestSnapshot(ctx, "own-"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		if *snap.Tables[0].RowCount != iters-1 || snap.Fingerprint() != meta.Version {
			t.Errorf("own-%d head has row count %d", i, *snap.Tables[0].RowCount)
		}
	}
	if err := s.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestProcessCrash kills a writing child with SIGKILL and checks the store
// it leaves is readable and consistent: integrity_check ok, every head
// points at a stored snapshot that hashes to its version, the head is the
// last committed put, and nothing of an uncommitted transaction is visible.
func TestProcessCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	cases := []struct {
		name  string
		role  string
		delay time.Duration
	}{
		{"killed right after its first commit", "crash-loop", 0},
		{"killed while looping (20ms)", "crash-loop", 20 * time.Millisecond},
		{"killed while looping (150ms)", "crash-loop", 150 * time.Millisecond},
		{"killed inside an open transaction", "crash-in-tx", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			cmd, out, stderr := spawn(t, c.role, childDirEnv+"="+dir)
			ready := make(chan string, 1)
			go func() { line, _ := out.ReadString('\n'); ready <- line }()
			select {
			case line := <-ready:
				if strings.TrimSpace(line) != "ready" {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("child said %q\n%s", line, stderr)
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("child never got ready\n%s", stderr)
			}
			time.Sleep(c.delay)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("child was not killed: %v\n%s", err, stderr)
			}

			s, err := Open(ctx, dir)
			if err != nil {
				t.Fatalf("reopen after the crash: %v", err)
			}
			defer s.Close()
			if err := s.Check(ctx); err != nil {
				t.Fatal(err)
			}
			switch c.role {
			case "crash-loop":
				snap, meta, err := s.LatestSnapshot(ctx, "crash")
				if err != nil {
					t.Fatal(err)
				}
				rows := count(t, s, `SELECT count(*) FROM snapshots WHERE datasource = 'crash'`)
				if got := *snap.Tables[0].RowCount; got != int64(rows-1) || snap.Fingerprint() != meta.Version {
					t.Errorf("head is put %d of %d committed puts", got, rows)
				}
				t.Logf("%d snapshots committed before the kill", rows)
			case "crash-in-tx":
				if n := count(t, s, `SELECT count(*) FROM plan_cache`) + count(t, s, `SELECT count(*) FROM snapshots`) +
					count(t, s, `SELECT count(*) FROM snapshot_heads`); n != 0 {
					t.Errorf("%d rows of the uncommitted transaction survived", n)
				}
			}
			// The store takes writes again.
			if _, created, err := s.PutSnapshot(ctx, small("after")); err != nil || !created {
				t.Errorf("put after the crash: %v %v", created, err)
			}
		})
	}
}
