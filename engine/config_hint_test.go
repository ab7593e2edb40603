package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The threat: a caller over HTTP asking for verified queries the server
// has none of was told "add verified queries with curated: in
// /home/ops/deploy/secret-name/nl2sql.yaml": the server's directories,
// to anyone with a token. The hint names the config file alone.
func TestConfigHintNamesNoDirectory(t *testing.T) {
	e, err := New(Options{Open: openAdapter, Datasources: []DatasourceSpec{everyEngine(refundsDB)[0].spec(t)},
		ConfigFile: "/home/ops/deploy/secret-name/nl2sql.yaml", Today: func() string { return "2026-01-15" }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = e.RunVerified(context.Background(), "x", nil)
	var ee *Error
	if !errors.As(err, &ee) || !strings.Contains(ee.Hint, "curated: in nl2sql.yaml") || strings.Contains(ee.Hint, "/home/ops") {
		t.Errorf("%v (hint %q), want the file named without its directory", err, ee.Hint)
	}
}
