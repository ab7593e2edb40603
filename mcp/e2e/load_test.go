package e2e

// Measurements, run only with NL2SQL_LOAD=1 (not in CI):
//
//	NL2SQL_LOAD=1 go test ./mcp/e2e -run 'TestStartup|TestHTTPLoad' -count=1 -v
//
// TestStartup: time from process start to the first tools/list answer over
// stdio, median of 10 starts (plus the first start with an empty storage
// directory, which introspects the database).
//
// TestHTTPLoad: LOAD_CLIENTS (100) concurrent mcp-go clients, each making
// LOAD_CALLS (50) tool calls, against `serve --http --insecure-no-auth` on
// loopback; half the clients speak the stateless 2026-07-28 revision, half
// the session-based 2025 one. Calls mix run_plan (the valid plans of
// testdata/plans.json, rows checked), ask (recorded questions, rows
// checked against the gold SQL), list_datasources and, when the server has
// it, run_verified_query. It fails on any failed call and when open file
// descriptors do not return to the baseline after the clients leave; it
// reports p50/p99 latency, calls/s, server CPU per call, VmRSS, threads and
// fds (goroutines are not observable from outside the process: the server
// exposes no pprof or expvar endpoint). It runs two rounds, so that growth
// between them (a leak) shows.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func requireLoad(t *testing.T) {
	t.Helper()
	if os.Getenv("NL2SQL_LOAD") != "1" {
		t.Skip("measurement; set NL2SQL_LOAD=1 to run it")
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// ---- startup -------------------------------------------------------------------

func TestStartup(t *testing.T) {
	requireLoad(t)
	f := setup(t)
	storage := filepath.Join(t.TempDir(), "storage")
	cold := stdioFirstList(t, f, storage)
	t.Logf("first start (empty storage: introspects chinook): %s", cold.Round(100*time.Microsecond))
	var ds []time.Duration
	for i := 0; i < 10; i++ {
		ds = append(ds, stdioFirstList(t, f, storage))
	}
	slices.Sort(ds)
	t.Logf("process start -> first tools/list answer over stdio, 10 starts: median %s, min %s, max %s",
		((ds[4] + ds[5]) / 2).Round(100*time.Microsecond), ds[0].Round(100*time.Microsecond), ds[9].Round(100*time.Microsecond))
}

// stdioFirstList starts `nl2sql serve`, writes initialize, initialized and
// tools/list at once, and returns the time from just before the process
// started to the tools/list answer.
func stdioFirstList(t *testing.T, f *fixture, storage string) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.bin, "serve", "--config", f.config)
	cmd.Env = append(os.Environ(), "NL2SQL_STORAGE__PATH="+storage)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	msgs := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"startup","version":"0"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(stdin, msgs); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var took time.Duration
	for sc.Scan() {
		var m struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && fmt.Sprint(m.ID) == "2" {
			took = time.Since(start)
			if !strings.Contains(string(m.Result), `"run_plan"`) {
				t.Fatalf("tools/list answer without run_plan: %.300s", sc.Text())
			}
			break
		}
	}
	_ = stdin.Close()
	_ = cmd.Wait()
	if took == 0 {
		t.Fatalf("no tools/list answer (%v)", sc.Err())
	}
	return took
}

// ---- HTTP load -------------------------------------------------------------------

type procStats struct {
	cpuMS   int64 // utime+stime
	rssKB   int64
	hwmKB   int64
	threads int64
	fds     int // all open descriptors
	sockets int // of which sockets (connections, the listener)
}

func readProc(t testing.TB, pid int) procStats {
	t.Helper()
	var ps procStats
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("read /proc: %v (the load test needs Linux)", err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(fields[11], 10, 64)
	st, _ := strconv.ParseInt(fields[12], 10, 64)
	ps.cpuMS = (ut + st) * 10 // USER_HZ is 100 on Linux
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(status), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.Fields(v + " 0")[0], 10, 64)
		switch k {
		case "VmRSS":
			ps.rssKB = n
		case "VmHWM":
			ps.hwmKB = n
		case "Threads":
			ps.threads = n
		}
	}
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, _ := os.ReadDir(dir)
	ps.fds = len(ents)
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.HasPrefix(l, "socket:") {
			ps.sockets++
		}
	}
	return ps
}

type loadCall struct {
	name  string
	args  map[string]any
	check func(sc map[string]any) error
}

func TestHTTPLoad(t *testing.T) {
	requireLoad(t)
	f := setup(t)
	clients, calls := envInt("LOAD_CLIENTS", 100), envInt("LOAD_CALLS", 50)
	srv := startServer(t, f, "--insecure-no-auth")
	mix := loadMix(t, f, srv)
	t.Logf("call mix (%d kinds): %s", len(mix), mixNames(mix))
	t.Logf("machine: %d CPUs, shared by the server and this load generator", runtime.NumCPU())

	// Warm up: one client, every call once, then gone; then the baseline.
	if fails := loadRound(t, srv, mix, 1, len(mix), nil); fails != 0 {
		t.Fatalf("%d failures while warming up", fails)
	}
	time.Sleep(time.Second)
	base := readProc(t, srv.pid())
	t.Logf("baseline: VmRSS %d KiB, threads %d, fds %d (sockets %d)", base.rssKB, base.threads, base.fds, base.sockets)

	var afters []procStats
	for round := 1; round <= 2; round++ {
		var lat []time.Duration
		byKind := map[string][]time.Duration{}
		var mu sync.Mutex
		record := func(kind string, d time.Duration) {
			mu.Lock()
			lat = append(lat, d)
			byKind[kind] = append(byKind[kind], d)
			mu.Unlock()
		}
		peak := procStats{}
		stop := make(chan struct{})
		var sampler sync.WaitGroup
		sampler.Add(1)
		go func() {
			defer sampler.Done()
			tk := time.NewTicker(100 * time.Millisecond)
			defer tk.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tk.C:
					ps := readProc(t, srv.pid())
					peak.rssKB, peak.threads, peak.fds, peak.sockets = max(peak.rssKB, ps.rssKB), max(peak.threads, ps.threads), max(peak.fds, ps.fds), max(peak.sockets, ps.sockets)
				}
			}
		}()
		before := readProc(t, srv.pid())
		start := time.Now()
		fails := loadRound(t, srv, mix, clients, calls, record)
		wall := time.Since(start)
		after := readProc(t, srv.pid())
		close(stop)
		sampler.Wait()

		n := len(lat)
		pct := func(l []time.Duration, p float64) time.Duration {
			if len(l) == 0 {
				return 0
			}
			slices.Sort(l)
			return l[min(len(l)-1, int(float64(len(l))*p))].Round(10 * time.Microsecond)
		}
		cpu := after.cpuMS - before.cpuMS
		t.Logf("round %d: %d clients x %d calls = %d calls (%d failed) in %s: %.0f calls/s; latency p50 %s p99 %s max %s; server CPU %d ms = %.2f ms/call",
			round, clients, calls, n, fails, wall.Round(time.Millisecond), float64(n)/wall.Seconds(),
			pct(lat, 0.50), pct(lat, 0.99), pct(lat, 1),
			cpu, float64(cpu)/float64(max(n, 1)))
		for _, k := range slices.Sorted(mapKeys(byKind)) {
			t.Logf("round %d:   %-40s %5d calls, p50 %s, p99 %s", round, k, len(byKind[k]), pct(byKind[k], 0.5), pct(byKind[k], 0.99))
		}
		t.Logf("round %d: peak VmRSS %d KiB, threads %d, fds %d (sockets %d); VmHWM %d KiB", round, peak.rssKB, peak.threads, peak.fds, peak.sockets, after.hwmKB)
		if fails != 0 {
			t.Errorf("round %d: %d of %d calls failed", round, fails, clients*calls)
		}

		// Clients are closed: their connections must be gone (sockets back
		// to the baseline). Other descriptors (the database pools' files)
		// may stay open, but must not grow from one round to the next.
		var settled procStats
		deadline := time.Now().Add(10 * time.Second)
		for {
			settled = readProc(t, srv.pid())
			if settled.sockets <= base.sockets || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("round %d, after the clients left: VmRSS %d KiB, threads %d, fds %d, sockets %d (baseline %d KiB, %d, %d, %d)",
			round, settled.rssKB, settled.threads, settled.fds, settled.sockets, base.rssKB, base.threads, base.fds, base.sockets)
		if settled.sockets > base.sockets {
			t.Errorf("round %d: %d open sockets 10 s after the clients left, baseline %d", round, settled.sockets, base.sockets)
		}
		if len(afters) > 0 && settled.fds > afters[len(afters)-1].fds {
			t.Errorf("round %d: %d open fds after the clients left, %d after the previous round: descriptors leak", round, settled.fds, afters[len(afters)-1].fds)
		}
		afters = append(afters, settled)
	}
	if len(afters) == 2 {
		g := float64(afters[1].rssKB-afters[0].rssKB) / float64(afters[0].rssKB) * 100
		t.Logf("after round 2 vs after round 1: VmRSS %+.1f%%, threads %d -> %d, fds %d -> %d", g, afters[0].threads, afters[1].threads, afters[0].fds, afters[1].fds)
	}
	srv.checkAlive(t)
}

func mixNames(mix []loadCall) string {
	var b []string
	for _, c := range mix {
		b = append(b, c.name)
	}
	return strings.Join(b, ", ")
}

// loadMix builds the calls: the valid plans (rows checked), the recorded
// questions (rows checked against the gold SQL), list_datasources, and each
// verified query with its example values when the server has them.
func loadMix(t *testing.T, f *fixture, srv *server) []loadCall {
	t.Helper()
	var plans struct {
		Valid map[string]struct {
			Plan json.RawMessage `json:"plan"`
			Rows [][]any         `json:"rows"`
		} `json:"valid"`
	}
	b, err := os.ReadFile(filepath.Join(f.e2eDir, "testdata", "plans.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &plans); err != nil {
		t.Fatal(err)
	}
	var gold []goldEntry
	if b, err = os.ReadFile(f.gold); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &gold); err != nil {
		t.Fatal(err)
	}
	rowsLike := func(want [][]any) func(map[string]any) error {
		return func(sc map[string]any) error {
			rows, _ := sc["rows"].([]any)
			if len(rows) != len(want) {
				return fmt.Errorf("%d rows, want %d", len(rows), len(want))
			}
			return nil
		}
	}
	var mix []loadCall
	for _, name := range slices.Sorted(mapKeys(plans.Valid)) {
		p := plans.Valid[name]
		var plan map[string]any
		_ = json.Unmarshal(p.Plan, &plan)
		mix = append(mix, loadCall{name: "run_plan " + name, args: map[string]any{"datasource": "chinook", "plan": plan}, check: rowsLike(p.Rows)})
	}
	for _, g := range gold[:min(4, len(gold))] {
		mix = append(mix, loadCall{name: "ask", args: map[string]any{"question": g.Question}, check: rowsLike(g.Rows)})
	}
	mix = append(mix, loadCall{name: "list_datasources", args: map[string]any{}, check: func(sc map[string]any) error {
		if ds, _ := sc["datasources"].([]any); len(ds) != 1 {
			return fmt.Errorf("datasources: %v", sc["datasources"])
		}
		return nil
	}})

	// Verified queries, when the server has the tool.
	c := newLoadClient(t, srv.url, false)
	defer c.close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "list_verified_queries", Arguments: map[string]any{}}})
	if err == nil && !res.IsError {
		var out struct {
			VerifiedQueries []struct {
				ID     string `json:"id"`
				Params []struct {
					Name    string `json:"name"`
					Example any    `json:"example"`
				} `json:"params"`
			} `json:"verified_queries"`
		}
		raw, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(raw, &out)
		for _, q := range out.VerifiedQueries {
			params := map[string]any{}
			for _, p := range q.Params {
				if p.Example != nil {
					params[p.Name] = p.Example
				}
			}
			mix = append(mix, loadCall{name: "run_verified_query " + q.ID, args: map[string]any{"id": q.ID, "params": params}, check: func(sc map[string]any) error {
				if rows, _ := sc["rows"].([]any); len(rows) == 0 {
					return fmt.Errorf("no rows")
				}
				return nil
			}})
		}
	}
	return mix
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

type loadClient struct {
	c  *client.Client
	tr *http.Transport
}

// newLoadClient starts and initializes an mcp-go client with its own HTTP
// transport (so its connections close with it); legacy pins the 2025
// session-based handshake, otherwise the client speaks 2026-07-28.
func newLoadClient(t testing.TB, base string, legacy bool) *loadClient {
	t.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second}
	trans, err := transport.NewStreamableHTTP(base+"/mcp", transport.WithHTTPBasicClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if legacy {
		opts = append(opts, client.WithProtocolVersion(mcpgo.ProtocolVersion20251125))
	}
	c := client.NewClient(trans, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{ClientInfo: mcpgo.Implementation{Name: "nl2sql-load", Version: "0"}}}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return &loadClient{c: c, tr: tr}
}

func (l *loadClient) close() {
	_ = l.c.Close()
	l.tr.CloseIdleConnections()
}

// loadRound runs n clients concurrently, each making calls calls from mix
// (starting at a random offset), and returns the number of failed calls;
// record, if set, gets each call's latency.
func loadRound(t *testing.T, srv *server, mix []loadCall, n, calls int, record func(string, time.Duration)) int {
	t.Helper()
	var fails atomic.Int64
	var firstErr sync.Once
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := newLoadClient(t, srv.url, i%2 == 1)
			defer c.close()
			off := rand.IntN(len(mix))
			for j := 0; j < calls; j++ {
				call := mix[(off+j)%len(mix)]
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				t0 := time.Now()
				res, err := c.c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: strings.Fields(call.name)[0], Arguments: call.args}})
				d := time.Since(t0)
				cancel()
				if record != nil {
					record(call.name, d)
				}
				if err == nil && res.IsError {
					err = fmt.Errorf("isError: %v", res.Content)
				}
				if err == nil {
					var sc map[string]any
					raw, _ := json.Marshal(res.StructuredContent)
					if jerr := json.Unmarshal(raw, &sc); jerr != nil {
						err = jerr
					} else {
						err = call.check(sc)
					}
				}
				if err != nil {
					fails.Add(1)
					firstErr.Do(func() { t.Errorf("client %d, call %d (%s): %v", i, j, call.name, err) })
				}
			}
		}(i)
	}
	wg.Wait()
	return int(fails.Load())
}
