package cli

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/engine"
)

// semantic suggest writes a draft that loads as the datasource's semantic
// file, and never overwrites one.
func TestSemanticSuggest(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage:\n  path: .nl2sql\ndatasources:\n  - id: chinook\n    engine: sqlite\n    path: " + db + "\n    semantic: chinook.semantic.yaml\n" +
		"llm:\n  default:\n    provider: replay\n    recordings: " + dir + "\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		root := newRoot(slog.New(slog.DiscardHandler), &out)
		root.SetArgs(args)
		err := root.Execute()
		return out.String(), err
	}
	out, err := run("semantic", "suggest", "--config", cfg, "--datasource", "chinook")
	if err != nil || !strings.Contains(out, "chinook.semantic.yaml: 11 tables") {
		t.Fatalf("suggest: %q %v", out, err)
	}
	draft, err := os.ReadFile(filepath.Join(dir, "chinook.semantic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run("semantic", "suggest", "--config", cfg, "--datasource", "chinook"); err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Errorf("second suggest: %v", err)
	}
	// The path to add is written as the config would name it: relative
	// below the config's directory, else absolute (a fresh user was told
	// "draft.yaml" for /tmp/draft.yaml).
	plain := strings.Replace(body, "    semantic: chinook.semantic.yaml\n", "", 1)
	if err := os.WriteFile(filepath.Join(dir, "plain.yaml"), []byte(plain), 0o600); err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string]string{
		filepath.Join(dir, "sub", "draft.yaml"):  "semantic: sub/draft.yaml",
		filepath.Join(t.TempDir(), "draft.yaml"): "semantic: /",
	} {
		_ = os.MkdirAll(filepath.Dir(out), 0o755)
		if got, err := run("semantic", "suggest", "--config", filepath.Join(dir, "plain.yaml"), "--datasource", "chinook", "--out", out); err != nil || !strings.Contains(got, want) {
			t.Errorf("--out %s: %q %v, want %q", out, got, err, want)
		}
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "chinook.semantic.yaml")); !bytes.Equal(again, draft) {
		t.Error("the draft was changed")
	}
	// the draft loads: ask for the schema through the configured layer
	if out, err := run("schema", "show", "--config", cfg, "--datasource", "chinook"); err != nil {
		t.Errorf("the draft does not load: %v %s", err, out)
	}
	if out, err := run("semantic", "check", "--config", cfg); err != nil || !strings.Contains(out, "chinook: chinook.semantic.yaml ok: 11 tables described") {
		t.Errorf("check of the draft: %q %v", out, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chinook.semantic.yaml"), []byte("tables:\n  - name: Invoices\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := run("semantic", "check", "--config", cfg); err == nil || !strings.Contains(out, `chinook.semantic.yaml:2:5: table: datasource "chinook" has no table "Invoices"`) {
		t.Errorf("check of a bad file: %q %v", out, err)
	}
	if _, err := run("semantic", "suggest", "--config", cfg, "--datasource", "nope"); err == nil {
		t.Error("unknown datasource accepted")
	}
}

// A semantic file that is not there is called missing, not "does not
// match its schema" (the user would look for a mistake in a file that does
// not exist), with the path it was looked for at and the command that
// drafts it; suggest into a missing directory is refused before profiling,
// with the hint --html gives, instead of a bare "no such file".
func TestSemanticMissingFileAndDirectory(t *testing.T) {
	dir := t.TempDir()
	db, _ := filepath.Abs(filepath.Join("..", "..", "..", "examples", "chinook", "chinook.sqlite"))
	cfg := filepath.Join(dir, "nl2sql.yaml")
	body := "storage: {path: st}\ndatasources:\n  - {id: chinook, engine: sqlite, path: " + db + ", semantic: nosuch.yaml}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI("semantic", "check", "--config", cfg)
	if err == nil || strings.Contains(err.Error(), "match") || !strings.Contains(err.Error(), "1 semantic file(s) do not exist") {
		t.Errorf("check: %v", err)
	}
	if want := "the semantic file nosuch.yaml does not exist (" + filepath.Join(dir, "nosuch.yaml") + "); `nl2sql semantic suggest --datasource chinook`"; !strings.Contains(out, want) {
		t.Errorf("check printed %q, want %q", out, want)
	}
	for name, c := range map[string]struct {
		out  string
		want []string
	}{
		"--out into a missing directory": {filepath.Join(dir, "nodir", "s.yaml"),
			[]string{"--out " + filepath.Join(dir, "nodir", "s.yaml") + ": the directory " + filepath.Join(dir, "nodir") + " does not exist", "create it first"}},
		"--out names a directory": {dir, []string{"is a directory", filepath.Join(dir, "chinook.semantic.yaml")}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := runCLI("semantic", "suggest", "--config", cfg, "--datasource", "chinook", "--out", c.out)
			var ee *engine.Error
			if !errors.As(err, &ee) || ee.Code != engine.CodeInvalidRequest {
				t.Fatalf("err %v, want %s", err, engine.CodeInvalidRequest)
			}
			for _, w := range c.want {
				if !strings.Contains(ee.Msg+" (hint: "+ee.Hint+")", w) {
					t.Errorf("error %v lacks %q", ee, w)
				}
			}
		})
	}
}
