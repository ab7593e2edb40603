package index

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// killEnv names the directory the helper process below builds in.
const killEnv = "NL2SQL_TEST_KILLED_BUILD_DIR"

// A rebuild killed with SIGKILL half-way (the schema changed, the new
// index was being written) must leave the previous index where it was,
// served for the previous snapshot without a rebuild and retrieving
// byte-identically; the next open of the changed snapshot builds it
// afresh. A user whose server was killed during a long re-index keeps
// answering from the old index instead of losing it.
func TestProcessKilledMidRebuildKeepsPreviousIndex(t *testing.T) {
	if os.Getenv(killEnv) != "" {
		t.Skip("run by the helper process")
	}
	snap, src := chinookSnapshot(t)
	dir := t.TempDir()
	before, a := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
	want := selections(t, before, snap)
	before.Close()

	marker := filepath.Join(t.TempDir(), "building")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperBuildsUntilKilled$", "-test.count=1")
	cmd.Env = append(os.Environ(), killEnv+"="+dir, "NL2SQL_TEST_KILLED_BUILD_MARKER="+marker)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the helper never started its rebuild")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	partial, _ := filepath.Glob(filepath.Join(dir, buildPrefix+"*"))
	if len(partial) == 0 {
		t.Fatal("the killed rebuild left no partial directory: it was not killed mid-build")
	}

	again, b := openOrBuild(t, dir, snap, Options{Values: sourceValues(src)})
	if b.Built || b.Rebuilt != "" || b.Path != a.Path {
		t.Fatalf("after a killed rebuild the previous index was not reused: %+v (first %+v)", b, a)
	}
	if got := selections(t, again, snap); !bytes.Equal(got, want) {
		t.Errorf("previous index retrieves differently after a killed rebuild:\n%s\n%s", got, want)
	}
	changed, _ := chinookSnapshot(t)
	changed.Tables = changed.Tables[1:]
	if _, c := openOrBuild(t, dir, changed, Options{Values: sourceValues(src)}); !c.Built || c.Path == a.Path {
		t.Errorf("the changed snapshot was not built afresh: %+v", c)
	}
}

// TestHelperBuildsUntilKilled is the process killed above: it rebuilds
// for a changed snapshot and, once the first tables are written, says so
// and waits to be killed.
func TestHelperBuildsUntilKilled(t *testing.T) {
	dir := os.Getenv(killEnv)
	if dir == "" {
		t.Skip("helper of TestProcessKilledMidRebuildKeepsPreviousIndex")
	}
	changed, src := chinookSnapshot(t)
	changed.Tables = changed.Tables[1:]
	progress := func(stage string, done, total int) {
		if stage == "tables" {
			os.WriteFile(os.Getenv("NL2SQL_TEST_KILLED_BUILD_MARKER"), nil, 0o644)
			time.Sleep(time.Hour)
		}
	}
	OpenOrBuild(context.Background(), dir, changed, nil, Options{Values: sourceValues(src), Progress: progress})
	t.Fatal("the build finished before it was killed")
}
