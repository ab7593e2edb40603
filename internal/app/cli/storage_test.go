package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// index exists to store snapshots, profiles and retrieval indexes. With a
// storage path that cannot be written it stored nothing, so it must exit
// non-zero with a hint, not report the datasources profiled; doctor must
// fail the storage check the same way.
func TestIndexAndDoctorFailOnUnwritableStorage(t *testing.T) {
	db, err := filepath.Abs("../../../examples/chinook/chinook.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	storage := filepath.Join(file, "state")
	out, err := runCLI("index", "--db", db, "--storage", storage)
	if err == nil || !strings.Contains(err.Error(), "nothing could be stored") || !strings.Contains(err.Error(), "hint: set storage.path, or --storage") {
		t.Errorf("index: err %v\n%s", err, out)
	}
	out, err = runCLI("doctor", "--db", db, "--storage", storage)
	if err == nil || !strings.Contains(out, "storage: FAILED: ") {
		t.Errorf("doctor: err %v\n%s", err, out)
	}
}
