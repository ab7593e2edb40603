package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/config"
)

type failingOpener struct{}

func (failingOpener) OpenDatasource(context.Context, string) error {
	return errors.New("DATASOURCE_UNAVAILABLE: the database server cannot be reached")
}

// The threat: `serve` writes a datasource it cannot open to stderr, which
// ends in log files and terminals; a keyword/value DSN's password must not
// go with it (URL-form DSNs were masked, "password=…" was not).
func TestOpenFailureHidesTheDSNPassword(t *testing.T) {
	for _, dsn := range []string{
		"host=127.0.0.1 port=1 user=postgres password=hunter4secret dbname=shop",
		"host=127.0.0.1 port=1 user=postgres password='hunter4 secret' dbname=shop",
		"postgres://postgres:hunter4secret@127.0.0.1:1/shop?sslmode=disable",
	} {
		cfg := &config.Config{Datasources: []config.Datasource{{ID: "pg", Engine: "postgres", DSN: dsn}}}
		var out bytes.Buffer
		done := make(chan struct{})
		openInBackground(context.Background(), failingOpener{}, cfg, &out, done)
		<-done
		got := out.String()
		if strings.Contains(got, "hunter4") || !strings.Contains(got, "127.0.0.1:1/shop") {
			t.Errorf("%s: %q", dsn, got)
		}
	}
}
