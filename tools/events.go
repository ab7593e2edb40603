package tools

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/events"
)

// EventsLogger is the MCP logger name of the caller-safe event stream.
const EventsLogger = "nl2sql.events"

// withEvents streams the run's caller-safe events (events.CallerSafe:
// run.started, step.started, step.finished, run.finished; never hook
// decisions, access denials or reasons) to the client as MCP log messages
// (notifications/message, level info, logger "nl2sql.events", data
// {"event": name, …fields}). mcp-go sends them only to a client that asked
// for log messages at info or below.
func withEvents(ctx context.Context) context.Context {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return ctx
	}
	return engine.WithEventSink(ctx, func(ev events.Event) {
		if !wantsInfo(ctx) {
			return // nobody reads it: not built
		}
		b, err := json.Marshal(ev)
		if err != nil {
			return
		}
		var data map[string]any
		if json.Unmarshal(b, &data) != nil {
			return
		}
		data["event"] = ev.EventName()
		_ = srv.SendLogMessageToClient(ctx, mcpgo.NewLoggingMessageNotification(mcpgo.LoggingLevelInfo, EventsLogger, data))
	})
}

// wantsInfo reports whether the request's client asked for log messages
// at info or below, as mcp-go decides before it sends one (the level the
// request declares, or the session's level, error by default): an event
// nobody will receive is not marshalled.
func wantsInfo(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.LogLevel != "" && mcpgo.LoggingLevelInfo.ShouldSendTo(info.LogLevel)
	}
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithLogging)
	return ok && mcpgo.LoggingLevelInfo.ShouldSendTo(s.GetLogLevel())
}
