// Command nl2sql is an MCP server and CLI that answers natural-language
// questions over SQL databases through typed, validated query plans.
//
//	nl2sql demo                                  answer the bundled Chinook questions
//	nl2sql ask --config nl2sql.yaml [--json] Q   answer one question
//	nl2sql serve --config nl2sql.yaml            serve MCP over stdio
//	nl2sql version
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/app"
	"github.com/nl2sql/nl2sql/engine/config"
	"github.com/nl2sql/nl2sql/engine/eval"
	"github.com/nl2sql/nl2sql/mcp"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/tools"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	// Logs go to stderr before anything else: stdout belongs to MCP in stdio mode.
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot(logger, os.Stdout)
	if err := root.ExecuteContext(ctx); err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return // stopped by SIGINT/SIGTERM: a clean exit
		}
		fmt.Fprintln(os.Stderr, "nl2sql:", err)
		os.Exit(1)
	}
}

func newRoot(logger *slog.Logger, stdout io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "nl2sql",
		Short:         "Answer natural-language questions over SQL databases, safely, over MCP",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.AddCommand(serveCmd(logger), askCmd(logger), explainCmd(logger), demoCmd(logger), doctorCmd(logger), recordingsCmd(logger), cacheCmd(logger), curatedCmd(logger), evalCmd(), planCmd(logger), schemaCmd(logger), versionCmd())
	return root
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), "nl2sql", version)
			return nil
		},
	}
}

func serveCmd(logger *slog.Logger) *cobra.Command {
	var cfgPath, httpAddr string
	var noAuth bool
	var origins []string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the MCP tools over stdio, or over streamable HTTP with --http",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := app.Open(cfgPath, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			s := mcp.NewServer(a.Engine, version, logger)
			if httpAddr == "" {
				return mcp.ServeStdio(cmd.Context(), s, os.Stdin, cmd.OutOrStdout(), logger)
			}
			opts := mcp.HTTPOptions{Addr: httpAddr, NoAuth: noAuth, AllowedOrigins: origins, Logger: logger}
			if auth := a.Authenticator(); auth != nil && !noAuth {
				opts.Auth = auth
			}
			return mcp.ServeHTTP(cmd.Context(), s, opts)
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on HOST:PORT at /mcp instead of stdio")
	cmd.Flags().BoolVar(&noAuth, "insecure-no-auth", false, "with --http on a loopback address: serve without authentication, as local_user")
	cmd.Flags().StringSliceVar(&origins, "allow-origin", nil, "browser origins allowed to call the HTTP endpoint (scheme://host:port)")
	return cmd
}

func askCmd(logger *slog.Logger) *cobra.Command {
	var cfgPath, ds, record string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ask [flags] QUESTION",
		Short: "Answer one question (quote it, or its words are joined with spaces)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := app.OpenWith(cfgPath, logger, app.Options{Record: record})
			if err != nil {
				return err
			}
			defer a.Close()
			res, err := a.Engine.Ask(cmd.Context(), engine.AskRequest{Question: strings.Join(args, " "), Datasource: ds})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			fmt.Fprint(out, tools.ResultText(res))
			return nil
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	cmd.Flags().StringVar(&ds, "datasource", "", "datasource id (default: the only one configured)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole result as JSON")
	cmd.Flags().StringVar(&record, "record", "", "record every model answer of this run as a replay recording in DIR")
	return cmd
}

func doctorCmd(logger *slog.Logger) *cobra.Command {
	var cfgPath string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the config, every datasource and every model provider (one tiny structured call each)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return app.Doctor(cmd.Context(), cfgPath, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	return cmd
}

func recordingsCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "recordings", Short: "Work with recorded model answers"}
	var cfgPath string
	check := &cobra.Command{
		Use:   "check",
		Short: "List recordings whose prompt no longer matches what the current code would send",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return app.CheckRecordings(cmd.Context(), cfgPath, cmd.OutOrStdout())
		},
	}
	check.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	cmd.AddCommand(check)
	return cmd
}

// defaultDatasource returns id, or the only configured datasource.
func defaultDatasource(a *app.App, id string) string {
	if id == "" && len(a.Config.Datasources) == 1 {
		return a.Config.Datasources[0].ID
	}
	return id
}

func evalCmd() *cobra.Command {
	var o eval.Options
	var spider, bird string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Run a text-to-SQL benchmark (Spider or BIRD format) and report execution accuracy",
		Long:  "With --planner oracle, each gold SQL query is lifted into a plan, validated, rendered for --engine and run; its rows are compared with the gold query's on SQLite by the execution-match rules.",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case spider != "" && bird != "":
				return errors.New("give --spider or --bird, not both")
			case spider != "":
				o.Suite, o.File = eval.SuiteSpider, spider
			case bird != "":
				o.Suite, o.File = eval.SuiteBird, bird
			default:
				return errors.New("give --spider DEV_JSON or --bird MINI_DEV_JSON")
			}
			if !asJSON {
				o.Progress = func(done, total int, _ eval.Case) {
					if done%50 == 0 || done == total {
						fmt.Fprintf(os.Stderr, "  %d/%d\n", done, total)
					}
				}
			}
			rep, err := eval.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			fmt.Fprintln(cmd.OutOrStdout(), strings.TrimRight(rep.Summary(), "\n"))
			return nil
		},
	}
	cmd.Flags().StringVar(&spider, "spider", "", "Spider questions file (dev.json)")
	cmd.Flags().StringVar(&bird, "bird", "", "BIRD questions file (mini_dev_sqlite.json)")
	cmd.Flags().StringVar(&o.DBRoot, "db-root", "", "directory holding DB_ID/DB_ID.sqlite")
	cmd.Flags().StringVar(&o.Planner, "planner", "oracle", "oracle: lift the gold SQL into plans")
	cmd.Flags().StringVar(&o.Engine, "engine", "sqlite", "run rendered plans on sqlite, duckdb or postgres (copied from the SQLite files)")
	cmd.Flags().StringVar(&o.PGDSN, "pg-dsn", "", "PostgreSQL connection string for --engine postgres")
	cmd.Flags().IntVar(&o.Limit, "limit", 0, "evaluate only the first N questions")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole report as JSON")
	return cmd
}

func explainCmd(logger *slog.Logger) *cobra.Command {
	var cfgPath, ds string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain [flags] QUESTION",
		Short: "Show the plan and SQL for a question without running anything",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := app.Open(cfgPath, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			ex, err := a.Engine.Explain(cmd.Context(), engine.AskRequest{Question: strings.Join(args, " "), Datasource: ds})
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(ex)
			}
			fmt.Fprint(cmd.OutOrStdout(), tools.ExplanationText(ex))
			return nil
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	cmd.Flags().StringVar(&ds, "datasource", "", "datasource id (default: the only one configured)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the explanation as JSON")
	return cmd
}

func demoCmd(logger *slog.Logger) *cobra.Command {
	var cfgPath string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Answer the bundled Chinook questions from recorded model answers (no key, no network)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfgPath == "" {
				p, err := findDemoConfig()
				if err != nil {
					return err
				}
				cfgPath = p
			}
			return runDemo(cmd.Context(), cmd.OutOrStdout(), cfgPath, logger)
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", "", "config file (default: examples/chinook/nl2sql.yaml)")
	return cmd
}

// findDemoConfig locates examples/chinook/nl2sql.yaml from the working
// directory or the directory of the executable.
func findDemoConfig() (string, error) {
	rel := filepath.Join("examples", "chinook", "nl2sql.yaml")
	cands := []string{rel}
	if exe, err := os.Executable(); err == nil {
		cands = append(cands, filepath.Join(filepath.Dir(exe), rel))
	}
	for _, c := range cands {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("cannot find %s: run the demo from the repository root or pass --config", rel)
}

func runDemo(ctx context.Context, out io.Writer, cfgPath string, logger *slog.Logger) error {
	a, err := app.Open(cfgPath, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	qs, err := demoQuestions(filepath.Join(filepath.Dir(cfgPath), "questions.json"))
	if err != nil {
		return err
	}
	failed := 0
	for i, q := range qs {
		fmt.Fprintf(out, "━━ %d/%d  %s\n\n", i+1, len(qs), q)
		res, err := a.Engine.Ask(ctx, engine.AskRequest{Question: q})
		if err != nil {
			failed++
			fmt.Fprintf(out, "error: %v\n\n", err)
			continue
		}
		fmt.Fprint(out, tools.ResultText(res))
		fmt.Fprintln(out)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d demo questions failed", failed, len(qs))
	}
	fmt.Fprintf(out, "All %d questions answered from recorded model answers; every SQL statement was rendered from a validated plan and run read-only.\n", len(qs))
	return nil
}

func demoQuestions(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("demo questions: %w", err)
	}
	var items []struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, fmt.Errorf("demo questions %s: %w", filepath.Base(path), err)
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Question
	}
	return out, nil
}

func curatedCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "curated", Short: "Check and test the verified queries (curated: in nl2sql.yaml)"}
	var cfgPath string
	run := func(f func(context.Context, *config.Config, io.Writer) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			cfg, err := app.LoadConfig(cfgPath)
			if err != nil {
				return err
			}
			return f(cmd.Context(), cfg, cmd.OutOrStdout())
		}
	}
	validate := &cobra.Command{Use: "validate", Short: "Check every verified query; exit 1 with the reason for each refused one", Args: cobra.NoArgs, RunE: run(curated.Validate)}
	test := &cobra.Command{Use: "test", Short: "Run every verified query with its example values", Args: cobra.NoArgs, RunE: run(curated.Test)}
	for _, c := range []*cobra.Command{validate, test} {
		c.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
		cmd.AddCommand(c)
	}
	return cmd
}

func cacheCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "cache", Short: "Manage the plan cache"}
	var cfgPath, ds string
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Remove cached plans (of one datasource, or all)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := app.Open(cfgPath, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			n, err := a.Engine.ClearPlanCache(cmd.Context(), ds)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %d cached plans\n", n)
			return nil
		},
	}
	clear.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	clear.Flags().StringVar(&ds, "datasource", "", "only this datasource's plans")
	cmd.AddCommand(clear)
	return cmd
}

func planCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "plan", Short: "Work with plans"}
	var cfgPath, ds, dialect string
	check := &cobra.Command{
		Use:   "check [flags] FILE|-",
		Short: "Validate a plan and print the SQL it renders, or its typed errors as JSON (exit 1)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			doc, err := readInput(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			a, err := app.Open(cfgPath, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			res, err := a.Engine.CheckPlan(cmd.Context(), ds, doc, dialect)
			if err != nil {
				e := engine.AsError(err)
				if e.Code != engine.CodePlanInvalid {
					return err
				}
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				_ = enc.Encode(map[string]any{"valid": false, "issues": e.Issues})
				return errors.New("the plan is invalid")
			}
			fmt.Fprintln(cmd.OutOrStdout(), res.SQL)
			return nil
		},
	}
	check.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	check.Flags().StringVar(&ds, "datasource", "", "datasource id whose schema the plan is checked against (default: the only one configured)")
	check.Flags().StringVar(&dialect, "dialect", "", "render for this dialect (sqlite, duckdb, postgres); default: the datasource's")
	cmd.AddCommand(check)
	var fsCfg, fsDS string
	fromSQL := &cobra.Command{
		Use:   "from-sql [flags] SQL",
		Short: "Lift SQL (SQLite or PostgreSQL dialect) into a plan; refuses what the plan language cannot express, naming the construct",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := app.Open(fsCfg, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			snap, err := a.Engine.VisibleSnapshot(cmd.Context(), defaultDatasource(a, fsDS))
			if err != nil {
				return err
			}
			if snap.Dialect != lift.DialectSQLite && snap.Dialect != lift.DialectPostgres {
				return fmt.Errorf("plan from-sql reads SQLite or PostgreSQL SQL; datasource %q is %s", snap.Datasource, snap.Dialect)
			}
			plan, err := lift.Lift(strings.Join(args, " "), snap.Dialect, snap)
			if err != nil {
				return err
			}
			if _, err := planast.Validate(plan, snap, planast.Options{}); err != nil {
				return fmt.Errorf("the lifted plan does not validate: %w", err)
			}
			var buf bytes.Buffer
			_ = json.Indent(&buf, plan.Canonical(), "", "  ")
			buf.WriteByte('\n')
			_, err = cmd.OutOrStdout().Write(buf.Bytes())
			return err
		},
	}
	fromSQL.Flags().StringVar(&fsCfg, "config", "nl2sql.yaml", "path of the config file")
	fromSQL.Flags().StringVar(&fsDS, "datasource", "", "datasource whose schema resolves the names (default: the only one configured)")
	cmd.AddCommand(fromSQL)
	return cmd
}

func schemaCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "schema", Short: "Show schemas: the plan's JSON Schema, or a datasource's tables"}
	cmd.AddCommand(&cobra.Command{
		Use:   "plan",
		Short: "Print the JSON Schema of a plan, as given to models for structured output",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var v any
			_ = json.Unmarshal(planast.JSONSchema(), &v)
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(v)
		},
	})
	var cfgPath, ds string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show",
		Short: "Show a datasource's tables, columns, types, keys and sample values as introspected",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := app.Open(cfgPath, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			snap, err := a.Engine.Snapshot(cmd.Context(), ds)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(snap)
			}
			fmt.Fprint(out, tools.SnapshotText(snap))
			return nil
		},
	}
	show.Flags().StringVar(&cfgPath, "config", "nl2sql.yaml", "path of the config file")
	show.Flags().StringVar(&ds, "datasource", "", "datasource id (default: the only one configured)")
	show.Flags().BoolVar(&asJSON, "json", false, "print the snapshot as JSON")
	cmd.AddCommand(show)
	return cmd
}

// readInput reads a file, or standard input for "-", bounded to 4 MiB.
func readInput(stdin io.Reader, name string) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, 4<<20+1))
	if err != nil {
		return nil, err
	}
	if len(b) > 4<<20 {
		return nil, errors.New("input is larger than 4 MiB")
	}
	return b, nil
}
