// Command dbhub measures a running MCP server's CPU time per tool call: N
// clients, each its own MCP session over streamable HTTP, call one tool
// with fixed arguments as fast as the server answers; the server's user +
// system CPU is read from /proc/PID/stat before and after the measured
// calls. The same client code drives any server (nl2sql, DBHub), so the
// figures compare servers, not clients. See README.md.
//
//	go run ./scripts/bench/dbhub -url http://127.0.0.1:8090/mcp -pid PID \
//	    -tool run_verified_query -args '{"name":"revenue_by_country","params":{"year":"2024"}}'
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/PID/stat
// (100 on every Linux architecture Go supports).
const clockTicks = 100

func main() {
	url := flag.String("url", "", "the server's streamable HTTP endpoint (…/mcp)")
	pid := flag.Int("pid", 0, "the server's process id, whose CPU time is read from /proc")
	tool := flag.String("tool", "", "the tool to call")
	argsJSON := flag.String("args", "{}", "the tool's arguments as a JSON object")
	clients := flag.Int("clients", 10, "concurrent clients, each its own MCP session")
	calls := flag.Int("calls", 200, "measured calls per client")
	warm := flag.Int("warmup", 20, "calls per client before measuring (caches, connections)")
	label := flag.String("label", "", "a name for the output line (default: the tool)")
	flag.Parse()
	if *url == "" || *pid == 0 || *tool == "" {
		fmt.Fprintln(os.Stderr, "usage: dbhub -url URL -pid PID -tool NAME [-args JSON] [-clients N] [-calls N]")
		os.Exit(2)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(*argsJSON), &args); err != nil {
		fail("-args: %v", err)
	}
	if *label == "" {
		*label = *tool
	}

	sessions := make([]*client.Client, *clients)
	for i := range sessions {
		c, err := client.NewStreamableHttpClient(*url)
		if err != nil {
			fail("client: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := c.Start(ctx); err != nil {
			fail("start: %v", err)
		}
		init := mcpgo.InitializeRequest{}
		init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
		init.Params.ClientInfo = mcpgo.Implementation{Name: "nl2sql-bench", Version: "1"}
		if _, err := c.Initialize(ctx, init); err != nil {
			fail("initialize: %v", err)
		}
		cancel()
		defer c.Close()
		sessions[i] = c
	}
	req := mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: *tool, Arguments: args}}
	var errs atomic.Int64
	var firstErr atomic.Value
	round := func(n int) {
		var wg sync.WaitGroup
		for _, c := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range n {
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					res, err := c.CallTool(ctx, req)
					cancel()
					if err == nil && res.IsError {
						err = fmt.Errorf("tool error: %s", text(res))
					}
					if err != nil {
						errs.Add(1)
						firstErr.CompareAndSwap(nil, err.Error())
					}
				}
			}()
		}
		wg.Wait()
	}
	round(*warm)
	if errs.Load() > 0 {
		fail("warm-up: %d failed calls, first: %v", errs.Load(), firstErr.Load())
	}
	cpu0 := cpuTicks(*pid)
	start := time.Now()
	round(*calls)
	wall := time.Since(start)
	cpu := float64(cpuTicks(*pid)-cpu0) / clockTicks
	n := *clients * *calls
	fmt.Printf("%-28s calls=%d errors=%d server_cpu=%.2fs cpu_per_call=%.3fms wall=%.2fs calls_per_s=%.0f\n",
		*label, n, errs.Load(), cpu, cpu*1000/float64(n), wall.Seconds(), float64(n)/wall.Seconds())
	if errs.Load() > 0 {
		fail("%d failed calls, first: %v", errs.Load(), firstErr.Load())
	}
}

// cpuTicks is utime + stime of pid, in clock ticks (fields 14 and 15 of
// /proc/PID/stat, counted after the parenthesised command name, which may
// hold spaces).
func cpuTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		fail("read the server's CPU time: %v", err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		fail("parse /proc/%d/stat: %q", pid, s)
	}
	return ut + st
}

// text is a tool result's text, cut for an error message.
func text(r *mcpgo.CallToolResult) string {
	for _, c := range r.Content {
		if t, ok := c.(mcpgo.TextContent); ok {
			return t.Text[:min(len(t.Text), 300)]
		}
	}
	return ""
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "dbhub: "+format+"\n", args...)
	os.Exit(1)
}
