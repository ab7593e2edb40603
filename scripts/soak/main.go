// Command soak drives a real `nl2sql serve --http` with many concurrent MCP
// clients for a fixed time and reports failures, latency percentiles,
// throughput, and the server's RSS and open file descriptors (from /proc)
// and goroutines and heap in use (from its Prometheus /metrics) at start,
// peak and end (after -settle idle time). It serves and calls on loopback only, bounds
// every call with a timeout, and stops by itself.
//
//	go run ./scripts/soak -duration 10m -clients 100 -addr 127.0.0.1:18080
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

type call struct {
	tool string
	args map[string]any
	// isErr is true when the tool is expected to answer with isError (a
	// typed refusal); such an answer is not a failure.
	isErr bool
}

var mix = []call{
	{"ask", map[string]any{"question": "Which artist has released the most albums?"}, false},
	{"ask", map[string]any{"question": "How many customers are there in each country?"}, false},
	{"ask", map[string]any{"question": "How many customers live on the moon?"}, false}, // no recording: the plan-it-yourself result
	{"explain_plan", map[string]any{"question": "Which genre has sold the most tracks?"}, false},
	{"list_datasources", map[string]any{}, false},
	{"describe_schema", map[string]any{"datasource": "chinook", "table": "Track"}, false},
	{"get_plan_schema", map[string]any{}, false},
	{"run_plan", map[string]any{"datasource": "chinook", "plan": json.RawMessage(`{"select":[{"expr":{"kind":"column","table":"a","column":"Name"},"alias":"Name"}],"from":[{"table":"Artist","alias":"a"}],"order_by":[{"expr":{"kind":"column","column":"Name"},"direction":"asc"}],"limit":5}`)}, false},
	{"run_plan", map[string]any{"datasource": "chinook", "plan": json.RawMessage(`{"select":[{"expr":{"kind":"column","table":"a","column":"x\"; DROP TABLE t"},"alias":"x"}],"from":[{"table":"Artist","alias":"a"}]}`)}, true},
	{"list_verified_queries", map[string]any{}, false},
	{"run_verified_query", map[string]any{"id": "revenue_by_country", "params": map[string]any{"year": "2024"}}, false},
	{"run_verified_query", map[string]any{"id": "revenue_by_country", "params": map[string]any{"year": "2024'; --"}}, true},
}

type proc struct{ rss, fds int64 }

func sample(pid int) proc {
	var p proc
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "VmRSS:") {
				f := strings.Fields(l)
				if len(f) >= 2 {
					p.rss, _ = strconv.ParseInt(f[1], 10, 64)
				}
			}
		}
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		p.fds = int64(len(ents))
	}
	return p
}

func main() { os.Exit(run()) }

func run() int {
	duration := flag.Duration("duration", 10*time.Minute, "how long to drive the server")
	warmup := flag.Duration("warmup", 30*time.Second, "load time before the warm sample (growth is judged from it)")
	settle := flag.Duration("settle", 10*time.Second, "idle time after the clients stop before the end sample")
	clients := flag.Int("clients", 100, "concurrent MCP clients")
	addr := flag.String("addr", "127.0.0.1:18080", "loopback address for the server")
	cfg := flag.String("config", "examples/chinook/nl2sql.yaml", "config file")
	bin := flag.String("bin", "", "nl2sql binary (default: go build into a temp dir)")
	callTimeout := flag.Duration("call-timeout", 60*time.Second, "bound on one tool call")
	replicas := flag.Int("replicas", 1, "server replicas, on -addr's port, port+1, …; client i calls replica i mod N")
	storeDSN := flag.String("store-dsn", "", "PostgreSQL DSN of a state store shared by the replicas (storage.postgres); empty: each its own SQLite")
	flag.Parse()

	host, portS, err := net.SplitHostPort(*addr)
	if err != nil || !(host == "127.0.0.1" || host == "::1" || host == "localhost") {
		fatal("-addr must be a loopback HOST:PORT, got %q", *addr)
	}
	port, err := strconv.Atoi(portS)
	if err != nil || *replicas < 1 || port+*replicas > 65535 {
		fatal("-addr %q and -replicas %d: want a numeric port and at least one replica", *addr, *replicas)
	}
	if *bin == "" {
		dir, err := os.MkdirTemp("", "nl2sql-soak-")
		if err != nil {
			fatal("%v", err)
		}
		defer os.RemoveAll(dir)
		*bin = filepath.Join(dir, "nl2sql")
		if out, err := exec.Command("go", "build", "-o", *bin, ".").CombinedOutput(); err != nil {
			fatal("go build: %v\n%s", err, out)
		}
	}
	servers := make([]*server, *replicas)
	for i := range servers {
		a := net.JoinHostPort(host, strconv.Itoa(port+i))
		if servers[i], err = startServer(*bin, *cfg, a, *storeDSN); err != nil {
			for _, sv := range servers[:i] {
				sv.stop()
			}
			fatal("%v", err)
		}
		defer servers[i].stop()
	}
	start := sampleAll(servers)
	peak := start
	rtStart := scrapeAll(servers)
	rtPeak := rtStart
	// warm is sampled once -warmup into the load: datasources are open,
	// indexes built, caches filled; growth is judged from there.
	var warm proc
	var rtWarm runtimeStats
	warmed := false
	began := time.Now()
	var mu sync.Mutex
	var lat []time.Duration
	failures := map[string]int{}
	var calls, fails atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()

	stopSampler := make(chan struct{})
	go func() {
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopSampler:
				return
			case <-t.C:
				s := sampleAll(servers)
				rt := scrapeAll(servers)
				mu.Lock()
				peak.rss, peak.fds = max(peak.rss, s.rss), max(peak.fds, s.fds)
				rtPeak.goroutines, rtPeak.heapLive = max(rtPeak.goroutines, rt.goroutines), max(rtPeak.heapLive, rt.heapLive)
				if !warmed && time.Since(began) >= *warmup {
					warm, rtWarm, warmed = s, rt, true
				}
				mu.Unlock()
			}
		}
	}()

	fail := func(what string) {
		fails.Add(1)
		mu.Lock()
		failures[what]++
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i := 0; i < *clients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := client.NewStreamableHttpClient(servers[i%len(servers)].base + "/mcp")
			if err != nil {
				fail("client: " + err.Error())
				return
			}
			defer c.Close()
			ictx, icancel := context.WithTimeout(context.Background(), *callTimeout)
			err = c.Start(ictx)
			if err == nil {
				_, err = c.Initialize(ictx, mcpgo.InitializeRequest{})
			}
			icancel()
			if err != nil {
				fail("initialize: " + err.Error())
				return
			}
			for n := i; ctx.Err() == nil; n++ {
				m := mix[n%len(mix)]
				cctx, ccancel := context.WithTimeout(context.Background(), *callTimeout)
				t0 := time.Now()
				res, err := c.CallTool(cctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: m.tool, Arguments: m.args}})
				d := time.Since(t0)
				ccancel()
				calls.Add(1)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
				switch {
				case err != nil:
					fail(m.tool + ": " + trim(err.Error()))
				case res.IsError != m.isErr:
					fail(fmt.Sprintf("%s: isError=%v, want %v", m.tool, res.IsError, m.isErr))
				}
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(began)
	close(stopSampler)
	time.Sleep(*settle) // let the server settle after the clients stop (idle connections close, the GC runs)
	end := sampleAll(servers)
	rtEnd := scrapeAll(servers)
	alive := true
	for _, sv := range servers {
		alive = alive && sv.healthy()
	}

	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	bases := make([]string, len(servers))
	for i, sv := range servers {
		bases[i] = sv.base
	}
	store := "own SQLite each"
	if *storeDSN != "" {
		store = "shared PostgreSQL"
	}
	fmt.Printf("soak: %d clients for %v against %d replica(s) %s (%s, store: %s)\n", *clients, elapsed.Round(time.Millisecond),
		len(servers), strings.Join(bases, " "), *cfg, store)
	fmt.Printf("calls: %d  failures: %d  calls/s: %.1f\n", calls.Load(), fails.Load(), float64(calls.Load())/elapsed.Seconds())
	fmt.Printf("latency: p50 %v  p99 %v  max %v\n", pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), pct(1).Round(time.Microsecond))
	fmt.Printf("server RSS KiB (all replicas): start %d  warm %d  peak %d  end %d\n", start.rss, warm.rss, peak.rss, end.rss)
	fmt.Printf("server open fds (all replicas): start %d  warm %d  peak %d  end %d\n", start.fds, warm.fds, peak.fds, end.fds)
	if rtStart.ok && rtEnd.ok {
		fmt.Printf("server goroutines (all replicas, /metrics go_goroutines): start %d  warm %d  peak %d  end %d\n", rtStart.goroutines, rtWarm.goroutines, rtPeak.goroutines, rtEnd.goroutines)
		fmt.Printf("server live heap KiB after GC (go_gc_heap_live_bytes): start %d  warm %d  peak %d  end %d\n", rtStart.heapLive/1024, rtWarm.heapLive/1024, rtPeak.heapLive/1024, rtEnd.heapLive/1024)
	} else {
		fmt.Printf("server goroutines: /metrics could not be read\n")
	}
	fmt.Printf("server healthy after the run: %v\n", alive)
	keys := make([]string, 0, len(failures))
	for k := range failures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  failure x%d: %s\n", failures[k], k)
	}
	for _, sv := range servers {
		sv.stop()
	}
	if fails.Load() > 0 || !alive {
		return 1
	}
	return 0
}

func trim(s string) string {
	if len(s) > 160 {
		return s[:160] + "..."
	}
	return s
}

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "soak: "+format+"\n", args...)
	os.Exit(2)
}
