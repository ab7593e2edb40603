// Command askown measures a warm ask's own time inside a running server:
// it starts `nl2sql serve` over stdio (mcp-go's client), asks one question
// -n times after -warmup asks, and prints the median and 90th percentile of
// the server's own time per ask, read from the result's timings: total −
// model − execute (engine.Timings.Overhead), and the same for the whole
// round trip as the client sees it, minus execute.
//
//	go run ./scripts/bench/askown -bin ./nl2sql -config nl2sql.yaml -n 200 "How many customers are there in each country?"
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func main() {
	bin := flag.String("bin", "nl2sql", "the nl2sql binary")
	config := flag.String("config", "nl2sql.yaml", "its config file")
	n := flag.Int("n", 200, "measured asks")
	warm := flag.Int("warmup", 20, "asks before measuring")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: askown [-bin B] [-config C] [-n N] QUESTION")
		os.Exit(2)
	}
	c, err := client.NewStdioMCPClient(*bin, os.Environ(), "serve", "--config", *config)
	if err != nil {
		fail("start: %v", err)
	}
	defer c.Close()
	ctx := context.Background()
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "askown", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		fail("initialize: %v", err)
	}
	req := mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ask", Arguments: map[string]any{"question": flag.Arg(0)}}}
	var own, trip []float64
	var first string
	for i := range *warm + *n {
		t0 := time.Now()
		res, err := c.CallTool(ctx, req)
		rt := float64(time.Since(t0).Microseconds()) / 1000
		if err != nil || res.IsError {
			fail("ask: %v %v", err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var out struct {
			Timings struct {
				Total   float64 `json:"total_ms"`
				Model   float64 `json:"model_ms"`
				Execute float64 `json:"execute_ms"`
				Plan    float64 `json:"plan_ms"`
			} `json:"timings"`
		}
		if err := json.Unmarshal(b, &out); err != nil || out.Timings.Total == 0 {
			fail("no timings in the result: %s", b[:min(len(b), 300)])
		}
		if i == *warm {
			first = fmt.Sprintf("%+v", out.Timings)
		}
		if i >= *warm {
			tm := out.Timings
			own = append(own, tm.Total-tm.Model-tm.Execute)
			trip = append(trip, rt-tm.Model-tm.Execute)
		}
	}
	fmt.Printf("asks=%d own_ms(total-model-execute): median=%.3f p90=%.3f  round_trip_minus_execute_ms: median=%.3f p90=%.3f\nfirst measured timings: %s\n",
		*n, pct(own, 0.5), pct(own, 0.9), pct(trip, 0.5), pct(trip, 0.9), first)
}

func pct(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "askown: "+format+"\n", args...)
	os.Exit(1)
}
