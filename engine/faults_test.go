package engine

// Fault injection against a real PostgreSQL server: the server restarts
// while a query runs. The test starts its own throw-away cluster (with the
// binaries of PG_BIN, default /usr/lib/postgresql/15/bin) so that the
// restart cannot disturb other packages' tests sharing NL2SQL_TEST_PG_DSN's
// server; it runs whenever that variable is set (the sign that PostgreSQL
// is available), is skipped without it, and fails without it under CI.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nl2sql/nl2sql/engine/llm"
)

func faultSkipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format+" (CI is set: nothing is skipped)", args...)
	}
	t.Skipf(format, args...)
}

// privatePG is a PostgreSQL cluster owned by one test.
type privatePG struct {
	bin, dir string
	port     int
}

func (p *privatePG) run(t *testing.T, name string, args ...string) (string, error) {
	t.Helper()
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(p.bin, name)}, args...)...)
	} else {
		cmd = exec.Command(filepath.Join(p.bin, name), args...)
	}
	cmd.Dir = p.dir
	// Output goes to a file, not a pipe: the server pg_ctl starts inherits
	// the descriptors and would keep a pipe open forever.
	f, err := os.CreateTemp("", "nl2sql-faultpg-out-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd.Stdout, cmd.Stderr, cmd.Stdin = f, f, nil
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		err = <-done
	}
	out, _ := os.ReadFile(f.Name())
	return string(out), err
}

func (p *privatePG) dsn(user, password, db string) string {
	if password != "" {
		user += ":" + password
	}
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable&connect_timeout=5", user, p.port, db)
}

func startPrivatePG(t *testing.T) *privatePG {
	t.Helper()
	if os.Getenv("NL2SQL_TEST_PG_DSN") == "" {
		faultSkipOrFail(t, "NL2SQL_TEST_PG_DSN is not set (source .ci/pg.sh && pg_start)")
	}
	bin := os.Getenv("PG_BIN")
	if bin == "" {
		bin = "/usr/lib/postgresql/15/bin"
	}
	if _, err := os.Stat(filepath.Join(bin, "pg_ctl")); err != nil {
		faultSkipOrFail(t, "no pg_ctl in %s (set PG_BIN)", bin)
	}
	dir, err := os.MkdirTemp("", "nl2sql-faultpg-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			faultSkipOrFail(t, "running as root without a postgres user")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	p := &privatePG{bin: bin, dir: dir}
	if out, err := p.run(t, "initdb", "-D", filepath.Join(dir, "data"), "-U", "postgres", "--auth=trust", "--locale=C", "--encoding=UTF8", "--no-instructions"); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off", p.port, dir)
	if out, err := p.run(t, "pg_ctl", "-D", filepath.Join(dir, "data"), "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		os.RemoveAll(dir)
		t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	t.Cleanup(func() {
		p.run(t, "pg_ctl", "-D", filepath.Join(dir, "data"), "-m", "immediate", "-w", "-t", "30", "stop")
		os.RemoveAll(dir)
	})
	return p
}

func (p *privatePG) restart(t *testing.T) {
	t.Helper()
	if out, err := p.run(t, "pg_ctl", "-D", filepath.Join(p.dir, "data"), "-m", "fast", "-w", "-t", "60", "restart"); err != nil {
		t.Fatalf("pg_ctl restart: %v\n%s", err, out)
	}
}

func pgDo(t *testing.T, dsn string, stmts ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close(ctx)
	for _, s := range stmts {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// waitActive waits until a query of the nl2sql application runs on the
// server, as the superuser sees it in pg_stat_activity.
func waitActive(t *testing.T, super string, like string, limit time.Duration) bool {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, super)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close(ctx)
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		var n int
		if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query ILIKE $1`, like).Scan(&n); err != nil {
			t.Fatalf("pg_stat_activity: %v", err)
		}
		if n > 0 {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// heavyPlan joins big to itself on a column that holds one value: rows^2
// join rows to count.
const heavyPlan = `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],
 "from":[{"table":"big","alias":"a"},{"table":"big","alias":"b"}],
 "joins":[{"type":"inner","left":"a","right":"b","on":[{"left_column":"k","right_column":"k"}]}]}`

const lightPlan = `{"select":[{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],"from":[{"table":"big","alias":"a"}]}`

// TestPostgresRestartMidQuery: PostgreSQL is restarted (pg_ctl restart -m
// fast) while RunPlan's query runs. The call ends, within a bound, in a
// typed *Error (no panic, no hang), and the next request on the same
// engine succeeds.
func TestPostgresRestartMidQuery(t *testing.T) {
	pg := startPrivatePG(t)
	super := pg.dsn("postgres", "", "postgres")
	pgDo(t, super,
		"CREATE DATABASE faults",
		"CREATE ROLE faults_ro LOGIN PASSWORD 'pw_faults'")
	fsuper := pg.dsn("postgres", "", "faults")
	pgDo(t, fsuper,
		"CREATE TABLE big (id integer PRIMARY KEY, k integer NOT NULL)",
		"INSERT INTO big SELECT g, 1 FROM generate_series(1, 40000) g",
		"ANALYZE big",
		"GRANT USAGE ON SCHEMA public TO faults_ro",
		"GRANT SELECT ON big TO faults_ro")

	rp, err := llm.OpenReplay(filepath.Join(chinookDir, "recordings"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Options{Open: openAdapter,
		Datasources: []DatasourceSpec{{ID: "pg", Engine: "postgres", DSN: pg.dsn("faults_ro", "pw_faults", "faults"), Timeout: 2 * time.Minute}},
		Planner:     rp,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()

	// The datasource opens and a cheap query runs.
	if r, err := e.RunPlan(ctx, "pg", []byte(lightPlan)); err != nil {
		t.Fatalf("before the restart: %v", err)
	} else if len(r.Rows) != 1 {
		t.Fatalf("rows = %v", r.Rows)
	}

	qctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	type outcome struct {
		res *Result
		err error
		pan any
	}
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{pan: p}
			}
		}()
		r, err := e.RunPlan(qctx, "pg", []byte(heavyPlan))
		done <- outcome{res: r, err: err}
	}()
	if !waitActive(t, fsuper, "%count%big%", 20*time.Second) {
		select {
		case o := <-done:
			t.Fatalf("the heavy query ended before the restart: %v %v", o.err, o.res)
		default:
		}
		t.Fatal("the heavy query never showed up in pg_stat_activity")
	}
	pg.restart(t)

	var o outcome
	select {
	case o = <-done:
	case <-time.After(100 * time.Second):
		t.Fatal("RunPlan hangs after the server restarted")
	}
	if o.pan != nil {
		t.Fatalf("RunPlan panicked: %v", o.pan)
	}
	if o.err == nil {
		t.Fatalf("the heavy query succeeded across a restart in %v: %v", time.Since(start), o.res.Rows)
	}
	var ee *Error
	if !errors.As(o.err, &ee) {
		t.Fatalf("error is %T, not *engine.Error: %v", o.err, o.err)
	}
	if ee.Code == "" || ee.Code == CodeInternal {
		t.Errorf("error code %q for a server restart: %v", ee.Code, ee)
	}
	if strings.Contains(ee.Msg+ee.Hint, "pw_faults") {
		t.Errorf("error shows the password: %v", ee)
	}
	t.Logf("mid-query restart after %v: %s (retryable=%v)", time.Since(start).Round(time.Millisecond), ee, ee.Retryable)

	// The next request on the same engine succeeds (a dead pooled
	// connection is not handed out again); allow one retry for a
	// connection the pool had not yet noticed was dead.
	var r *Result
	for attempt := 1; attempt <= 2; attempt++ {
		r, err = e.RunPlan(ctx, "pg", []byte(lightPlan))
		if err == nil {
			break
		}
		t.Logf("after the restart, attempt %d: %v", attempt, err)
	}
	if err != nil {
		t.Fatalf("the request after the restart failed: %v", err)
	}
	if len(r.Rows) != 1 || fmt.Sprint(r.Rows[0][0]) != "40000" {
		t.Errorf("rows after the restart = %v", r.Rows)
	}
}
