package mcp

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/tools"
)

// Threat: a client that asked for log messages at info watches a run's
// steps as they happen (run.started … run.finished, never a hook's
// reasons); a client that did not ask must get none of them, and the
// server must not spend a run's time building them for nobody. Both
// clients get the same answer.
func TestRunEventsReachOnlyAClientThatAskedForThem(t *testing.T) {
	ctx := context.Background()
	base := startHTTP(t, HTTPOptions{NoAuth: true})
	for _, tc := range []struct {
		asked   bool
		version string // the protocol: the level is per request (newest) or per session (2025-06-18)
	}{{false, ""}, {true, ""}, {false, "2025-06-18"}, {true, "2025-06-18"}} {
		asked := tc.asked
		c := connectAt(t, base+"/mcp", tc.version)
		var mu sync.Mutex
		var got []string
		c.OnNotification(func(n mcpgo.JSONRPCNotification) {
			if n.Method != "notifications/message" || n.Params.AdditionalFields["logger"] != tools.EventsLogger {
				return
			}
			data, _ := n.Params.AdditionalFields["data"].(map[string]any)
			mu.Lock()
			got = append(got, data["event"].(string))
			mu.Unlock()
		})
		if asked {
			if err := c.SetLevel(ctx, mcpgo.SetLevelRequest{Params: mcpgo.SetLevelParams{Level: mcpgo.LoggingLevelInfo}}); err != nil {
				t.Fatal(err)
			}
		}
		res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ask",
			Arguments: map[string]any{"question": "What is the average invoice total per billing country?"}}})
		if err != nil || res.IsError {
			t.Fatalf("ask: %v %v", err, res)
		}
		time.Sleep(100 * time.Millisecond) // notifications are delivered apart from the result
		mu.Lock()
		evs := append([]string(nil), got...)
		mu.Unlock()
		if !asked && len(evs) > 0 {
			t.Errorf("protocol %q: a client that asked for no log messages got events %v", tc.version, evs)
		}
		// mcp-go's streamable HTTP server lets a finished request's
		// notification forwarder and the session's GET stream read one
		// channel with the next request's, and a forwarder that takes a
		// message after its request ended drops it: about one run in
		// sixteen loses the first or the last event. What this test
		// guards is ours: the run's steps reach a client that asked, and
		// only caller-safe events.
		steps := 0
		for _, ev := range evs {
			if !events.CallerSafe(ev) {
				t.Errorf("protocol %q: event %s is not caller-safe", tc.version, ev)
			}
			if ev == "step.finished" {
				steps++
			}
		}
		if asked && (steps < 3 || !slices.Contains(evs, "run.started") && !slices.Contains(evs, "run.finished")) {
			t.Errorf("protocol %q: a client that asked for info got events %v, want run.started, the steps and run.finished", tc.version, evs)
		}
	}
}

// connectAt starts an initialized mcp-go streamable HTTP client of url
// that speaks protocol version ("": mcp-go's newest), closed with the
// test.
func connectAt(t *testing.T, url, version string, opts ...transport.StreamableHTTPCOption) *client.Client {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = version
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}
