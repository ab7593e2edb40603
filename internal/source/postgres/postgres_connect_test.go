package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
)

// fakeServer listens on loopback and answers each connection with reply
// (nil: reads and never answers) until the test ends; its port.
func fakeServer(t *testing.T, reply []byte) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				_, _ = c.Read(buf)
				if reply != nil {
					_, _ = c.Write(reply)
					return
				}
				time.Sleep(5 * time.Second)
			}()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}

// The threat: a DSN with a wrong port is a common typo (8080, a proxy's
// port). Another service's answer was read as a PostgreSQL message and
// the user told "a row is larger than 64 MiB"; a service that accepts the
// connection and never answers held the open for the query's whole limit
// and was blamed on busy connections. Each says what it is, at once or
// within the connect timeout, as DATASOURCE_UNAVAILABLE with a hint.
func TestConnectingToSomethingElseSaysSo(t *testing.T) {
	old := connectTimeout
	connectTimeout = 500 * time.Millisecond
	t.Cleanup(func() { connectTimeout = old })
	for _, c := range []struct {
		name  string
		reply []byte
		dsn   string // after the port
		says  string
	}{
		{"an HTTP service", []byte("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"), "/x?sslmode=disable", "did not answer as PostgreSQL"},
		// sslmode=prefer, the default: the service refuses TLS first, which
		// alone would read as a PostgreSQL server without TLS
		{"an HTTP service asked for TLS first", []byte("HTTP/1.0 426 Upgrade Required\r\nContent-Length: 0\r\n\r\n"), "/x", "did not answer as PostgreSQL"},
		{"a silent service", nil, "/x?sslmode=disable", "the connection timed out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			port := fakeServer(t, c.reply)
			start := time.Now()
			_, err := OpenPostgres(context.Background(), "x", "postgres://u@127.0.0.1:"+port+c.dsn, source.Options{Timeout: 20 * time.Second})
			var se *source.Error
			if !errors.As(err, &se) || se.Code != source.CodeUnavailable || !strings.Contains(se.Msg, c.says) || se.Hint == "" {
				t.Fatalf("open: %v, want DATASOURCE_UNAVAILABLE saying %q with a hint", err, c.says)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the open took %v, past the connect timeout", d)
			}
		})
	}
}

// The threat: a misspelt DSN option ("sslmod=disable") goes to the
// server as a setting, which refuses the login; it read as QUERY_FAILED
// with no hint, as if a query were wrong. It is DATASOURCE_UNAVAILABLE
// naming the option nearest to the typo.
func TestMisspeltDSNOptionNamesTheOption(t *testing.T) {
	f := sourcetest.NewPGFixture(t)
	sep := "?"
	if strings.Contains(f.ReadOnly, "?") {
		sep = "&"
	}
	_, err := OpenPostgres(context.Background(), "x", f.ReadOnly+sep+"sslmod=disable", source.Options{})
	var se *source.Error
	if !errors.As(err, &se) || se.Code != source.CodeUnavailable || !strings.Contains(se.Hint, "did you mean sslmode?") {
		t.Fatalf("open: %#v, want DATASOURCE_UNAVAILABLE whose hint names sslmode", err)
	}
}

// The threat: PostgreSQL restarted, failed over or killed the idle
// connections of the server's pool, and the next question failed with
// "the database server is unavailable: terminating connection due to
// administrator command" though the server was up again: every restart
// cost a user a question. A statement that had not run when the
// connection was found closed goes again on a new one.
func TestQueryAfterTheServerClosedThePoolsConnections(t *testing.T) {
	f := sourcetest.NewPGFixture(t, "CREATE TABLE t (id INTEGER)", "INSERT INTO t VALUES (1), (2)")
	p, err := OpenPostgres(context.Background(), "x", f.ReadOnly, source.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	count := func() error {
		res, err := p.Query(context.Background(), `SELECT COUNT(*) AS n FROM t`, nil, 10)
		if err == nil && fmt.Sprint(res.Rows) != "[[2]]" {
			return fmt.Errorf("rows %v", res.Rows)
		}
		return err
	}
	if err := count(); err != nil {
		t.Fatal(err)
	}
	sourcetest.PGExec(t, f.Super, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '`+f.Role+`'`)
	if err := count(); err != nil {
		t.Errorf("after the server closed the pool's connections: %v, want the answer on a new connection", err)
	}
}
