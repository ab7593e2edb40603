// Command nl2sql is an MCP server and CLI that answers natural-language
// questions over SQL databases through typed, validated query plans.
//
//	nl2sql demo                                  answer the bundled Chinook questions
//	nl2sql ask --config nl2sql.yaml [--json] Q   answer one question
//	nl2sql serve --config nl2sql.yaml            serve MCP over stdio
//	nl2sql version
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/app/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	// Logs go to stderr before anything else: stdout belongs to MCP in stdio mode.
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer app.StartCPUProfile()()
	root := cli.Root(logger, os.Stdout, version)
	cmd, err := root.ExecuteContextC(ctx)
	if ctx.Err() != nil {
		// SIGINT/SIGTERM: the normal way to stop a server; for any other
		// command the work was cut short, which a script must be able to
		// tell from success (128 + SIGINT, as shells report it).
		if cmd != nil && cmd.Name() == "serve" && (err == nil || errors.Is(err, context.Canceled)) {
			return
		}
		fmt.Fprintln(os.Stderr, "nl2sql: interrupted")
		os.Exit(130)
	}
	if err != nil {
		if cmd == nil || cmd.Name() != "serve" {
			err = cli.CommandLineError(err)
		}
		fmt.Fprintln(os.Stderr, "nl2sql:", err)
		os.Exit(1)
	}
}
