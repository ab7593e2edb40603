// Package cli holds nl2sql's command-line interface (github.com/spf13/cobra):
// one constructor per command, wired to internal/app. main builds the root
// with Root and runs it.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/events"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/mcp"
	"github.com/nl2sql/nl2sql/tools"
)

// version is the binary's version, set by Root.
var version = "dev"

// Root builds the nl2sql command tree. Output goes to stdout; logs go to
// logger (stderr), so stdout stays clean for MCP over stdio.
func Root(logger *slog.Logger, stdout io.Writer, v string) *cobra.Command {
	version = v
	return newRoot(logger, stdout)
}

func newRoot(logger *slog.Logger, stdout io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "nl2sql",
		Short:         "Answer natural-language questions over SQL databases, safely, over MCP",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("nl2sql {{.Version}}\n")
	root.SetOut(stdout)
	root.AddCommand(serveCmd(logger), askCmd(logger), explainCmd(logger), demoCmd(logger), doctorCmd(logger), indexCmd(logger), traceCmd(logger), recordingsCmd(logger), cacheCmd(logger), curatedCmd(logger), withEvalCompare(evalCmd(logger), logger), planCmd(logger), schemaCmd(logger), approvalsCmd(logger), versionCmd())
	root.AddCommand(semanticCmd(logger)) // semantic layer files (semantic.go)
	refuseUnknownSubcommands(root)
	usageOnBadArgs(root)
	return root
}

// refuseUnknownSubcommands makes a command that only groups others (plan,
// trace, cache) refuse a word that names none of them: cobra prints the
// group's help and exits 0 for `nl2sql plan runn`, and a script reads
// that as done. Without arguments the group still prints its help.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		refuseUnknownSubcommands(sub)
	}
	if c == c.Root() || !c.HasSubCommands() || c.Run != nil || c.RunE != nil {
		return
	}
	c.SuggestionsMinimumDistance = 2
	c.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return unknownSubcommand(cmd, args[0])
	}
	c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
}

// unknownSubcommand is the error of a word that names no subcommand of
// the group cmd, with the nearest ones.
func unknownSubcommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if s := cmd.SuggestionsFor(word); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return errors.New(msg)
}

// usageOnBadArgs makes every command print its usage on stderr when its
// arguments or flags are wrong (`nl2sql ask` without a question): errors
// are otherwise printed without usage (SilenceUsage), so that a failed
// query does not bury its message under the flag list.
func usageOnBadArgs(c *cobra.Command) {
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		if e := argumentAsFlag(cmd, err); e != nil {
			return e // the usage would bury what to type instead
		}
		fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
		return sourceless(cmd, err)
	})
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
				return err
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageOnBadArgs(sub)
	}
}

// argumentAsFlag is the error of an argument pflag read as a flag because
// it starts with "--" though it holds a blank, which no flag name does:
// SQL that opens with a comment ("-- paid orders\nSELECT …"). It is not
// taken as the argument it is: flags are parsed before the command runs,
// and marking where the flags end is the shell's way (--), which also
// keeps every flag after it an argument; the error says so, and names
// stdin for a command that reads its argument from "-". Nil for any
// other flag error.
func argumentAsFlag(cmd *cobra.Command, err error) error {
	f, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || !strings.ContainsFunc(f, unicode.IsSpace) {
		return nil
	}
	first, _, _ := strings.Cut("--"+f, "\n")
	hint := fmt.Sprintf("put -- before it to end the flags (flags go first): %s [flags] -- '%s…'", cmd.CommandPath(), first)
	if strings.Contains(cmd.Use, "|-") {
		hint += fmt.Sprintf(", or pass it on stdin with -: %s [flags] - < query.sql", cmd.CommandPath())
	}
	return &engine.Error{Code: engine.CodeInvalidRequest, Err: err,
		Msg:  fmt.Sprintf("the argument %q starts with -- (a SQL comment?), so it was read as a flag", first),
		Hint: hint}
}

// sourceless explains an unknown --config, --db or --datasource: the
// command reads no datasource (the plan guide and schema are the same for
// every one), which "unknown flag" alone leaves the user to guess.
func sourceless(cmd *cobra.Command, err error) error {
	f, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	if words := cmd.Flags().Args(); cmd.HasSubCommands() && len(words) > 0 {
		// a group's flag error follows a mistyped subcommand (plan rn
		// --db x): the word is the fault, not the flag
		return unknownSubcommand(cmd, words[0])
	}
	if (f == "db" || f == "storage") && cmd.Flags().Lookup("config") != nil {
		// the command does read a datasource, from a config file only
		return &engine.Error{Code: engine.CodeInvalidRequest,
			Msg:  fmt.Sprintf("%s reads its datasource from --config only, so it takes no --%s", cmd.CommandPath(), f),
			Hint: "write a config file naming the database (README: Configuration) and give it with --config",
			Err:  err}
	}
	for _, known := range []string{"config", "db", "datasource", "storage"} {
		if f == known {
			return &engine.Error{Code: engine.CodeInvalidRequest,
				Msg:  fmt.Sprintf("%s reads no datasource, so it takes no --%s: what it prints is the same for every database", cmd.CommandPath(), f),
				Hint: "drop --" + f + "; `nl2sql schema show --config FILE` shows a datasource's tables and `nl2sql plan check --config FILE PLAN` checks a plan against one",
				Err:  err}
		}
	}
	return err
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
	var httpAddr, logFormat, logLevel string
	var noAuth bool
	var origins []string
	var maxLine int
	var src *configSource
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the MCP tools over stdio, or over streamable HTTP with --http",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if httpAddr != "" {
				// refused before the banner: "serving at :99999" then "invalid port" misleads
				_, port, err := net.SplitHostPort(httpAddr)
				if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
					return fmt.Errorf("--http %q is not a listen address (hint: write host:port with a port from 0 to 65535, e.g. 127.0.0.1:8080)", httpAddr)
				}
			}
			if maxLine <= 0 {
				return fmt.Errorf("--max-line-bytes %d: the longest message must be at least 1 byte (hint: the default is %d)", maxLine, mcp.DefaultMaxLineBytes)
			}
			logger, err := newLogger(logger, os.Stderr, logFormat, logLevel)
			if err != nil {
				return err
			}
			metrics := mcp.NewMetrics()
			cfg, _, err := src.load()
			if err != nil {
				return err
			}
			var ln net.Listener
			if httpAddr != "" {
				// bound before any datasource opens: a port in use is
				// then the one thing said, not after the opens it cut
				// short logged their own cancellation
				if ln, err = net.Listen("tcp", httpAddr); err != nil {
					return fmt.Errorf("--http %s: %w (hint: %s)", httpAddr, err, listenHint(err))
				}
				defer ln.Close()
			}
			a, err := app.OpenConfig(cfg, logger, app.Options{Observers: []events.Observer{metrics.Observer()}, OpenWait: serveOpenWait})
			if err != nil {
				return err
			}
			defer a.Close()
			if httpAddr == "" {
				fmt.Fprintln(os.Stderr, serveBanner(cfg, httpAddr))
				openInBackground(cmd.Context(), a.Engine, cfg, os.Stderr, nil)
				s := mcp.NewServer(a.Engine, version, logger)
				return mcp.ServeStdioLimited(cmd.Context(), s, os.Stdin, cmd.OutOrStdout(), logger, maxLine)
			}
			opts := mcp.HTTPOptions{Addr: httpAddr, Listener: ln, NoAuth: noAuth, AllowedOrigins: origins, Logger: logger,
				Metrics: metrics, Readiness: readiness(a), MaxRequestBytes: maxLine}
			if auth := a.Authenticator(); auth != nil && !noAuth {
				opts.Auth = auth
			}
			if v := a.OAuthVerifier(logger); v != nil && !noAuth {
				opts.OAuth = v
			}
			if err := opts.Check(); err != nil {
				return err // refused before the banner says it serves
			}
			fmt.Fprintln(os.Stderr, serveBanner(cfg, httpAddr))
			openInBackground(cmd.Context(), a.Engine, cfg, os.Stderr, nil)
			s := mcp.NewServer(a.Engine, version, logger, metrics.ServerOption())
			return mcp.ServeHTTP(cmd.Context(), s, opts)
		},
	}
	src = configFlags(cmd)
	cmd.Flags().StringVar(&httpAddr, "http", "", "serve streamable HTTP on HOST:PORT at /mcp instead of stdio")
	cmd.Flags().BoolVar(&noAuth, "insecure-no-auth", false, "with --http on a loopback address: serve without authentication, as local_user")
	cmd.Flags().StringSliceVar(&origins, "allow-origin", nil, "browser origins allowed to call the HTTP endpoint (scheme://host:port)")
	cmd.Flags().IntVar(&maxLine, "max-line-bytes", mcp.DefaultMaxLineBytes, "the longest message read (one stdio line, one HTTP request body); a longer one is refused with a JSON-RPC error carrying its id")
	cmd.Flags().StringVar(&logFormat, "log-format", "", "log format on stderr: text (default) or json (one JSON object per line)")
	cmd.Flags().StringVar(&logLevel, "log-level", "", "log level: debug, info, warn (default) or error")
	return cmd
}

func askCmd(logger *slog.Logger) *cobra.Command {
	var ds, record, htmlPath string
	var asJSON bool
	var src *configSource
	cmd := &cobra.Command{
		Use:   "ask [flags] QUESTION",
		Short: "Answer one question (quote it, or its words are joined with spaces)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if err := checkPagePath(htmlPath); err != nil {
				return err
			}
			a, err := src.open(logger, app.Options{Record: record})
			if err != nil {
				if asJSON {
					_ = printJSON(out, jsonError(err))
				}
				return err
			}
			defer a.Close()
			var mu sync.Mutex
			for _, id := range a.Engine.DatasourceIDs() {
				warnAccess(cmd.Context(), a.Engine, id, cmd.ErrOrStderr(), &mu)
			}
			res, err := a.Engine.Ask(cmd.Context(), engine.AskRequest{Question: strings.Join(args, " "), Datasource: ds})
			if err != nil {
				if asJSON && cmd.Context().Err() == nil {
					_ = printJSON(out, jsonError(err)) // scripts read the code (and an approval id) from stdout too
				}
				return err
			}
			if htmlPath != "" && res.HostPlan == nil {
				if err := writePage(htmlPath, res); err != nil {
					return err
				}
			}
			if htmlPath != "" && res.HostPlan != nil {
				// nothing ran, so there is nothing to look at; the handover is
				// still a success (exit 0), and the page comes from plan run
				fmt.Fprintf(cmd.ErrOrStderr(), "--html: no page written: no query ran (write the plan and run `nl2sql plan run FILE --html %s`)\n", htmlPath)
			}
			if asJSON {
				tools.NameTruncation(res)
				return printJSON(out, res)
			}
			fmt.Fprint(out, tools.CommandAskText(res))
			if res.HostPlan != nil {
				// run_plan is an MCP tool; here the same path is a command
				fmt.Fprintln(out)
				for _, l := range verifiedRunLines(res.HostPlan) {
					fmt.Fprintln(out, l)
				}
				fmt.Fprintln(out, "From the command line: write the plan to a file (`nl2sql schema guide` shows how, with worked plans; `nl2sql plan from-sql` lifts a SELECT) and run it with "+planRunLine(res.HostPlan)+" (with the same --db or --config).")
			}
			return nil
		},
	}
	src = configFlags(cmd)
	cmd.Flags().StringVar(&ds, "datasource", "", "datasource id (default: the only one configured)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole result as JSON")
	cmd.Flags().StringVar(&record, "record", "", "record every model answer of this run as a replay recording in DIR")
	cmd.Flags().StringVar(&htmlPath, "html", "", htmlUsage)
	return cmd
}

const htmlUsage = "also write the result as a self-contained HTML page (table, chart, SQL, plan; no network) to FILE"

// checkPagePath refuses an --html path that cannot be written before
// anything runs: a query that ran for nothing, or rows printed and then
// an error, is work lost.
func checkPagePath(path string) error { return checkOutFile("--html", path, "result.html") }

// checkOutFile refuses path, the file a command is to write (given with
// flag), when it cannot be written because it is a directory or its
// directory does not exist, before the command does its work; example
// is a file name to suggest inside a directory. "" is no file.
func checkOutFile(flag, path, example string) error {
	if path == "" {
		return nil
	}
	bad := func(msg, hint string) error {
		return &engine.Error{Code: engine.CodeInvalidRequest, Msg: flag + " " + path + ": " + msg, Hint: hint}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return bad("is a directory", "name a file, e.g. "+filepath.Join(path, example))
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return bad("the directory "+dir+" does not exist", "create it first, or name a file in an existing directory")
	case !st.IsDir():
		return bad(dir+" is not a directory", "name a file in an existing directory")
	}
	return nil
}

// writePage writes res as the standalone result view (tools.ResultPage).
func writePage(path string, res *engine.Result) error {
	b, err := tools.ResultPage(res)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("--html: %w", err)
	}
	return nil
}

// jsonError is the --json form of a failed request:
// {"error": {"code", "message", "hint", "retryable", "issues", "approval_id"}}.
// An error from before the engine ran (the config does not load) is
// CONFIG_INVALID with its text, which names the file and key.
func jsonError(err error) map[string]any {
	var ee *engine.Error
	if !errors.As(CommandLineError(err), &ee) {
		ee = &engine.Error{Code: "CONFIG_INVALID", Msg: err.Error(), Hint: "fix the config file (the message names the file and key); nl2sql doctor checks it"}
	}
	return map[string]any{"error": ee.Body()}
}

func explainCmd(logger *slog.Logger) *cobra.Command {
	var ds string
	var asJSON bool
	var src *configSource
	cmd := &cobra.Command{
		Use:   "explain [flags] QUESTION",
		Short: "Show the plan and SQL for a question without running anything",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := src.open(logger, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			ex, err := a.Engine.Explain(cmd.Context(), engine.AskRequest{Question: strings.Join(args, " "), Datasource: ds})
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), ex)
			}
			fmt.Fprint(cmd.OutOrStdout(), tools.ExplanationText(ex))
			return nil
		},
	}
	src = configFlags(cmd)
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
		fmt.Fprint(out, tools.CommandAskText(res))
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

// readInput reads a file, or standard input for "-", bounded to 4 MiB.
// printJSON writes v as indented JSON.
func printJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false) // stored & < > print as themselves
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// planRunLine is the command that runs the plan a plan-it-yourself result
// asks for: it names the datasource the result planned over, or asks for
// one of the candidates', as plan run refuses a plan over several
// datasources that names none.
// verifiedRunLines are the commands that run hp's matching verified
// queries: run_verified_query is an MCP tool, and plan run takes its
// arguments as they are.
func verifiedRunLines(hp *engine.HostPlan) []string {
	vs := hp.VerifiedQueries
	for _, c := range hp.Candidates {
		vs = append(vs, c.VerifiedQueries...)
	}
	var out []string
	for _, v := range vs {
		args, err := json.Marshal(v.Call.Arguments)
		if err != nil {
			continue
		}
		l := "From the command line, verified query " + v.ID + " runs with `nl2sql plan run " + shellQuote(string(args)) + "`"
		if len(v.Call.Missing) > 0 {
			l += " after filling its " + strings.Join(v.Call.Missing, ", ")
		}
		out = append(out, l+" (with the same --db or --config).")
	}
	return out
}

// shellQuote quotes s as one POSIX shell word: a parameter value may hold
// a quote (O'Brien).
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func planRunLine(hp *engine.HostPlan) string {
	switch {
	case hp.Datasource != "":
		return "`nl2sql plan run --datasource " + hp.Datasource + " FILE`"
	case len(hp.Candidates) > 0:
		return "`nl2sql plan run --datasource ID FILE`, ID the datasource of the candidate you planned over"
	}
	return "`nl2sql plan run FILE`"
}

// listenHint says what to do when --http cannot be listened on: a port
// another process holds is the common case, but a host that names no
// address of this machine, or one that does not resolve, is not helped
// by another port.
func listenHint(err error) string {
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		return "the host does not resolve: write 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or an address of this machine"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return "no interface of this machine has that address: write 127.0.0.1, 0.0.0.0 or one of its own addresses"
	case errors.Is(err, syscall.EACCES):
		return "ports below 1024 need privileges: pick a port of 1024 or more"
	}
	return "another process listens there; pick another port, or 127.0.0.1:0 for a free one"
}
