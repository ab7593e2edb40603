package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nl2sql/nl2sql/internal/cellfmt"
	"github.com/nl2sql/nl2sql/internal/jsontext"
	"github.com/nl2sql/nl2sql/internal/sqlscan"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/warnings"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/eval"
	"github.com/nl2sql/nl2sql/internal/evalret"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/lift"
	"github.com/nl2sql/nl2sql/planast/planschema"
	"github.com/nl2sql/nl2sql/planast/validate"
	"github.com/nl2sql/nl2sql/tools"
)

func defaultDatasource(a *app.App, id string) string {
	if id == "" && len(a.Config.Datasources) == 1 {
		return a.Config.Datasources[0].ID
	}
	return id
}

func evalCmd(logger *slog.Logger) *cobra.Command {
	var o eval.Options
	var spider, bird, measure, semanticTables, split string
	var asJSON bool
	var ep app.EvalPlanner
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Run a text-to-SQL benchmark (Spider or BIRD format) and report execution accuracy",
		Long: "With --planner oracle, each gold SQL query is lifted into a plan, validated, rendered for --engine and run; its rows are compared with the gold query's on SQLite by the execution-match rules.\n" +
			"With --planner replay or live, each question goes through the whole system (retrieval, the model's plan with bounded repair, validation, rendering, execution on SQLite) and the report adds model calls, tokens and latency per question.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case spider != "":
				o.Suite, o.File = eval.SuiteSpider, spider
			case bird != "":
				o.Suite, o.File = eval.SuiteBird, bird
			}
			if err := evalFlagErrors(o, spider, bird, measure, split); err != nil {
				return err
			}
			if measure == "routing" {
				return evalRouting(cmd, evalret.Config{Dataset: o.Suite, Questions: o.File, DBRoot: o.DBRoot, Cases: asJSON, Split: split}, asJSON)
			}
			if measure == "retrieval" {
				return evalRetrieval(cmd, evalret.Config{Dataset: o.Suite, Questions: o.File, DBRoot: o.DBRoot, Limit: o.Limit, Cases: asJSON, Semantic: semanticTables, Split: split}, asJSON)
			}
			if !asJSON {
				o.Progress = func(done, total int, _ eval.Case) {
					if done%50 == 0 || done == total {
						fmt.Fprintf(os.Stderr, "  %d/%d\n", done, total)
					}
				}
			}
			if o.Planner != eval.PlannerOracle {
				ep.Planner, ep.Timeout = o.Planner, o.Timeout
				asker, err := app.NewEvalAsker(ep, logger)
				if err != nil {
					return err
				}
				defer asker.Close()
				o.Asker = asker
			}
			rep, err := eval.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), rep)
			}
			fmt.Fprintln(cmd.OutOrStdout(), strings.TrimRight(rep.Summary(), "\n"))
			return nil
		},
	}
	cmd.Flags().StringVar(&spider, "spider", "", "Spider questions file (dev.json)")
	cmd.Flags().StringVar(&bird, "bird", "", "BIRD questions file (mini_dev_sqlite.json)")
	cmd.Flags().StringVar(&o.DBRoot, "db-root", "", "directory holding DB_ID/DB_ID.sqlite")
	cmd.Flags().StringVar(&o.Planner, "planner", "oracle", "oracle: lift the gold SQL into plans; replay or live: ask the whole system (retrieval, model plan, validation, execution)")
	cmd.Flags().StringVar(&ep.Config, "config", "", "with --planner live (or replay): the nl2sql.yaml whose llm.plan or llm.default entry plans")
	cmd.Flags().StringVar(&ep.Recordings, "recordings", "", "with --planner replay: directory of recorded model answers")
	cmd.Flags().StringVar(&ep.Record, "record", "", "with --planner live: save every model answer in this directory, to replay the run later")
	cmd.Flags().StringVar(&o.Engine, "engine", "sqlite", "run rendered plans on sqlite, duckdb or postgres (copied from the SQLite files)")
	cmd.Flags().StringVar(&o.PGDSN, "pg-dsn", "", "PostgreSQL connection string for --engine postgres")
	cmd.Flags().IntVar(&o.Limit, "limit", 0, "evaluate only the first N questions (with --measure retrieval: the first N of each database)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole report as JSON")
	cmd.Flags().StringVar(&semanticTables, "semantic", "", "with --measure retrieval: Spider tables.json; each database gets the semantic layer drafted from its natural-language names")
	cmd.Flags().StringVar(&split, "split", "", "with --measure retrieval or routing: only the tuning or the heldout half of the databases (by a hash of the database name), to measure retrieval on schemas it was not tuned on")
	cmd.Flags().StringVar(&measure, "measure", "execution", "execution (oracle plans run and compared), retrieval (recall of the schema context) or routing (the datasource chosen for each question among all the suite's databases)")
	return cmd
}

// evalFlagErrors is every fault of eval's flags at once, each naming the
// values the flag takes, as one INVALID_REQUEST (nil when there is none):
// a run of a benchmark takes minutes, and a value it ignored (a negative
// --limit, an unknown --split) measured something else than asked, with
// nothing said; one fault at a time sent the user back once per flag.
func evalFlagErrors(o eval.Options, spider, bird, measure, split string) error {
	var bad []string
	switch {
	case spider != "" && bird != "":
		bad = append(bad, "give --spider or --bird, not both")
	case spider == "" && bird == "":
		bad = append(bad, "give --spider DEV_JSON or --bird MINI_DEV_JSON")
	}
	if o.DBRoot == "" {
		bad = append(bad, "give --db-root DIR: the directory holding DB_ID/DB_ID.sqlite for each database the questions name")
	}
	if !slices.Contains([]string{"", "execution", "retrieval", "routing"}, measure) {
		bad = append(bad, fmt.Sprintf("--measure is execution, retrieval or routing, not %q", measure))
	}
	execution := measure == "" || measure == "execution"
	if !slices.Contains([]string{eval.PlannerOracle, eval.PlannerReplay, eval.PlannerLive}, o.Planner) {
		bad = append(bad, fmt.Sprintf("--planner is %s, %s or %s, not %q", eval.PlannerOracle, eval.PlannerReplay, eval.PlannerLive, o.Planner))
	}
	if !slices.Contains([]string{"", eval.EngineSQLite, eval.EngineDuckDB, eval.EnginePostgres}, o.Engine) {
		bad = append(bad, fmt.Sprintf("--engine is %s, %s or %s, not %q", eval.EngineSQLite, eval.EngineDuckDB, eval.EnginePostgres, o.Engine))
	} else if execution && o.Planner != eval.PlannerOracle && o.Engine != "" && o.Engine != eval.EngineSQLite {
		bad = append(bad, fmt.Sprintf("--planner %s runs the benchmark's SQLite databases as datasources; --engine %s goes with --planner oracle", o.Planner, o.Engine))
	}
	if o.Limit < 0 {
		bad = append(bad, fmt.Sprintf("--limit is a number of questions, 1 or more (0, the default, is all of them), not %d", o.Limit))
	}
	if evalret.CheckSplit(split) != nil {
		bad = append(bad, fmt.Sprintf("--split is %s or %s (or absent: every database), not %q", evalret.SplitTuning, evalret.SplitHeldOut, split))
	} else if split != "" && execution {
		bad = append(bad, "--split goes with --measure retrieval or routing; execution runs every database")
	}
	if len(bad) == 0 {
		return nil
	}
	return &engine.Error{Code: engine.CodeInvalidRequest, Msg: "eval: " + strings.Join(bad, "; "),
		Hint: "fix each flag as listed (nl2sql eval --help describes them)"}
}

// evalRetrieval measures retrieval against the tables, columns and values
// the gold SQL uses (lifted into plans).
func evalRetrieval(cmd *cobra.Command, cfg evalret.Config, asJSON bool) error {
	rep, err := evalret.Run(cmd.Context(), cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(cmd.OutOrStdout(), rep)
	}
	vr := "n/a"
	if rep.ValueRecall != nil {
		vr = fmt.Sprintf("%.3f", *rep.ValueRecall)
	}
	half := ""
	if rep.Split != "" {
		half = " (" + rep.Split + " half)"
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s%s retrieval (%s embedder), %d questions: table_recall %.3f, column_recall %.3f, column_share %.3f, value_recall %s (%d of %d stored literals); median context %d tokens (p95 %d); retrieval %.2f ms median, %.2f ms p95\n",
		rep.Dataset, half, rep.Embedder, rep.Questions, rep.TableRecall, rep.ColumnRecall, rep.ColumnShare, vr,
		rep.Literals.Found, rep.Literals.Stored, rep.PromptTokens, rep.PromptTokensP95, rep.LatencyMS.Median, rep.LatencyMS.P95)
	return nil
}

// evalRouting measures the choice of datasource among the suite's
// databases.
func evalRouting(cmd *cobra.Command, cfg evalret.Config, asJSON bool) error {
	rep, err := evalret.Routing(cmd.Context(), cfg)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(cmd.OutOrStdout(), rep)
	}
	half := ""
	if rep.Split != "" {
		half = " (" + rep.Split + " half)"
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s%s routing, %d questions over %d datasources: top1 %.3f, picked %.3f (right %.3f), own datasource offered %.3f\n",
		rep.Dataset, half, rep.Questions, rep.Datasources, rep.Top1, rep.Picked, rep.PickedRight, rep.Offered)
	return nil
}

func planCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "plan", Short: "Work with plans"}
	var ds, dialect string
	var checkSrc *configSource
	var checkJSON bool
	check := &cobra.Command{
		Use:   "check [flags] FILE|-|JSON",
		Short: "Validate a plan and print the SQL it renders, or its typed errors (exit 1; as JSON with --json)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			doc, err := readInput(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			in, err := readPlanInput(doc, ds)
			if err != nil {
				return err
			}
			if in.verified != nil {
				return &engine.Error{Code: engine.CodeInvalidRequest, Msg: "plan check takes a plan; these are run_verified_query's arguments, whose SQL is the curated file's",
					Hint: "run them with plan run (the parameters are checked before anything runs)"}
			}
			if in.combined != nil {
				return &engine.Error{Code: engine.CodeInvalidRequest, Msg: "plan check takes one datasource's plan; this is a combined plan",
					Hint: "check each source's plan with plan check --datasource ID, or run the whole with plan run (every plan is validated before anything runs)"}
			}
			a, err := checkSrc.open(logger, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			res, err := a.Engine.CheckPlan(cmd.Context(), in.datasource, in.plan, dialect)
			err = liftHint(err)
			if checkJSON {
				// the whole check, as the check_plan tool returns it; a
				// refused plan's too (valid false, its issues), and
				// PLAN_INVALID on stderr as without --json
				out, cerr := tools.CheckOutput(res, err)
				if cerr != nil {
					return cerr
				}
				if perr := printJSON(cmd.OutOrStdout(), out); perr != nil || err == nil {
					return perr
				}
				return err
			}
			if err != nil {
				return err // PLAN_INVALID on stderr names every issue with its path and the hint
			}
			fmt.Fprintln(cmd.OutOrStdout(), res.SQL)
			// The dry run is where a join on unrelated keys or a fan-out
			// should show; as SQL comments the output still pipes into a
			// database shell. cellfmt.Text, as in the tools' text: a value
			// a warning quotes keeps its spaces, and a line break in it
			// cannot end the comment.
			for _, w := range res.Warnings {
				fmt.Fprintln(cmd.OutOrStdout(), "-- warning: "+cellfmt.Visible(w))
			}
			for _, n := range res.SQLNotes {
				fmt.Fprintln(cmd.OutOrStdout(), "-- note: "+cellfmt.Text(n))
			}
			return nil
		},
	}
	checkSrc = configFlags(check)
	check.Flags().BoolVar(&checkJSON, "json", false, "print the whole check as JSON, as the MCP tool check_plan returns it (valid, issues, datasource, dialect, plan, columns, column_types, sql, warnings, sql_notes)")
	check.Flags().StringVar(&ds, "datasource", "", "datasource id whose schema the plan is checked against (default: the only one configured)")
	check.Flags().StringVar(&dialect, "dialect", "", "render for this dialect (sqlite, duckdb, postgres); default: the datasource's")
	cmd.AddCommand(check)
	cmd.AddCommand(planRunCmd(logger))
	var fsDS string
	var fsSrc *configSource
	fromSQL := &cobra.Command{
		Use:   "from-sql [flags] SQL|-",
		Short: "Lift SQL (in the datasource's dialect: SQLite, PostgreSQL or DuckDB; - reads it from stdin) into a plan; refuses what the plan language cannot express, naming the construct",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sql, err := sqlText(cmd.InOrStdin(), args)
			if err != nil {
				return err
			}
			a, err := fsSrc.open(logger, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			snap, err := a.Engine.VisibleSnapshot(cmd.Context(), defaultDatasource(a, fsDS))
			if err != nil {
				return err
			}
			plan, err := lift.Lift(sql, snap.Dialect, snap)
			if err != nil {
				return wordsNotSQL(sql, liftFailure(err))
			}
			v, err := validate.Plan(plan, snap, validate.Options{})
			if err != nil {
				return liftFailure(err)
			}
			var buf bytes.Buffer
			_ = json.Indent(&buf, plan.Canonical(), "", "  ")
			buf.WriteByte('\n')
			if _, err = cmd.OutOrStdout().Write(buf.Bytes()); err != nil {
				return err
			}
			// where the plan means other rows than the SQL did; on stderr,
			// so the plan still pipes into `plan run -`
			for _, w := range warnings.Lifted(snap, v.Plan) {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+cellfmt.Visible(w))
			}
			return nil
		},
	}
	fsSrc = configFlags(fromSQL)
	fromSQL.Flags().StringVar(&fsDS, "datasource", "", "datasource whose schema resolves the names (default: the only one configured)")
	cmd.AddCommand(fromSQL)
	return cmd
}

func schemaCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "schema", Short: "Show schemas: the plan's JSON Schema, or a datasource's tables"}
	var strictForm bool
	planSchema := &cobra.Command{
		Use:   "plan",
		Short: "Print the JSON Schema of a plan in the host form get_plan_schema serves (--strict: the form for OpenAI strict structured output)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			raw := planschema.Host()
			if strictForm {
				raw = planschema.Strict()
			}
			// Indented as it is: decoding into any would turn the int64
			// bounds (limit, offset, integer literals) into floats that
			// print as 9223372036854776000, a bound Decode refuses.
			var out bytes.Buffer
			if err := json.Indent(&out, raw, "", "  "); err != nil {
				return err
			}
			out.WriteByte('\n')
			_, err := out.WriteTo(cmd.OutOrStdout())
			return err
		},
	}
	planSchema.Flags().BoolVar(&strictForm, "strict", false, "print the strict form: every property required, optional ones nullable")
	cmd.AddCommand(planSchema)
	// the same guide the host reads from get_plan_schema, for a person
	// writing a plan file for `plan run`
	cmd.AddCommand(&cobra.Command{
		Use:   "guide",
		Short: "Print how to write a plan: the rules and worked examples get_plan_schema gives a host (then `plan run FILE`)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), tools.PlanGuide)
			return err
		},
	})
	var ds string
	var asJSON bool
	var showSrc *configSource
	show := &cobra.Command{
		Use:   "show",
		Short: "Show a datasource's tables, columns, types, keys and sample values as introspected",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := showSrc.open(logger, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			snap, err := a.Engine.VisibleSnapshot(cmd.Context(), defaultDatasource(a, ds)) // what local_user may see
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return printJSON(out, snap)
			}
			fmt.Fprint(out, tools.SnapshotText(snap))
			return nil
		},
	}
	showSrc = configFlags(show)
	show.Flags().StringVar(&ds, "datasource", "", "datasource id (default: the only one configured)")
	show.Flags().BoolVar(&asJSON, "json", false, "print the snapshot as JSON")
	cmd.AddCommand(show)
	return cmd
}

func readInput(stdin io.Reader, name string) ([]byte, error) {
	var r io.Reader = stdin
	label := inputName(name)
	if strings.TrimSpace(name) == "" {
		// an empty argument, most often a $(…) that printed nothing
		return nil, &engine.Error{Code: engine.CodeInvalidRequest, Msg: "the plan argument is empty",
			Hint: "give the path of a JSON plan file, - to read the plan from stdin, or the plan's JSON itself"}
	}
	if name != "-" {
		f, err := os.Open(name)
		if t := strings.TrimSpace(name); err != nil && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") && !json.Valid([]byte(t))) {
			// the plan itself, typed inline as one shell argument (broken
			// JSON too: the decoder says where)
			r, err, label = strings.NewReader(name), nil, "the plan argument"
		} else if errors.Is(err, fs.ErrNotExist) && json.Valid([]byte(t)) {
			// JSON that is no object (null, 42, "x", true, [1,2]): reading
			// it as a file name says only that no such file exists, and
			// one mistake gets one code
			shown, _ := cellfmt.Cut(t, 80)
			return nil, &engine.Error{Code: engine.CodeInvalidRequest,
				Msg:  fmt.Sprintf("the argument %s is neither a plan file (there is no file of that name) nor a JSON object plan (it is JSON, but %s, not an object)", shown, jsonKind(t)),
				Hint: `give the path of a JSON plan file, - to read the plan from stdin, or the plan's JSON object itself: {"from": [...], "select": [...]}`}
		} else if err != nil {
			hint := "give the path of a JSON plan file, - to read the plan from stdin, or the plan's JSON itself"
			if w := strings.Fields(strings.ToUpper(name)); len(w) > 1 && (w[0] == "SELECT" || w[0] == "WITH") {
				// SQL typed where a plan file goes
				hint = "that is SQL, not a plan file: plans are JSON; `nl2sql plan from-sql '<the SQL>'` lifts it into a plan to save and run"
			} else if len(w) > 1 && sqlscan.OneOf(w[0], "DELETE", "INSERT", "UPDATE", "MERGE", "DROP", "CREATE", "ALTER", "TRUNCATE", "REPLACE", "UPSERT", "GRANT", "REVOKE", "ATTACH", "DETACH", "COPY", "PRAGMA", "VACUUM", "CALL", "EXEC", "EXECUTE", "SET") {
				// a statement that writes or configures: no plan says it,
				// and the file hint sent a newcomer looking for a file
				hint = "that is SQL, not a plan file: plans are JSON queries that only read; nothing that writes or changes the database is ever run, and `nl2sql plan from-sql` lifts a SELECT only"
			}
			msg := fmt.Sprintf("cannot read the plan file: %v", err)
			if strings.HasPrefix(hint, "that is SQL") {
				// the hint knows what the argument is: the message says
				// it first, not that a file of that name is missing
				shown, _ := cellfmt.Cut(t, 60)
				msg = fmt.Sprintf("the argument %s is SQL, not a plan (no file has that name)", shown)
			}
			return nil, &engine.Error{Code: engine.CodeInvalidRequest, Msg: msg, Hint: hint}
		} else {
			defer f.Close()
			r = f
		}
	}
	b, err := io.ReadAll(io.LimitReader(r, 4<<20+1))
	if err != nil { // a directory opens, then fails to read
		return nil, &engine.Error{Code: engine.CodeInvalidRequest, Msg: fmt.Sprintf("cannot read the plan from %s: %v", inputName(name), err),
			Hint: "give the path of a JSON plan file, or - to read the plan from stdin"}
	}
	if len(b) > 4<<20 {
		return nil, &engine.Error{Code: engine.Code(planast.CodeTooLarge), Msg: fmt.Sprintf("%s is larger than 4 MiB", inputName(name)),
			Hint: "a plan file holds a plan or a combination of plans, each plan at most 256 KiB (as the tools take them); write the plan, not data, in the file"}
	}
	// Editors on Windows (Notepad, PowerShell's Out-File) start a UTF-8
	// file with a byte order mark, which JSON does not allow; it says
	// nothing about the plan, so a file or stdin may carry one.
	b = bytes.TrimPrefix(b, utf8BOM)
	if at := cellfmt.InvalidUTF8(b); at >= 0 {
		// JSON decoding would read each bad byte as U+FFFD: a literal
		// compared with that is not what was typed
		return nil, &engine.Error{Code: engine.CodeInvalidRequest, Msg: fmt.Sprintf("%s is not valid UTF-8 (byte 0x%02x at offset %d)", label, b[at], at),
			Hint: "save the plan as UTF-8; a character the terminal cannot type may be written as a JSON escape (\\u00e9)"}
	}
	if at, what, ok := jsontext.Bad(b); !ok {
		// the same texts the MCP server refuses: decoding would read a
		// lone surrogate as U+FFFD and run it against the data
		return nil, &engine.Error{Code: engine.CodeInvalidRequest, Msg: fmt.Sprintf("%s is not valid JSON text at byte %d: %s", label, at, what),
			Hint: "fix the plan's text where the message says"}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		msg := label + " holds no plan: it is empty"
		if name == "-" {
			// `plan from-sql … | plan run -` whose from-sql failed: its
			// error is the one to read, not this second one
			msg += ", as when the command piped into this one failed: its error, above, is the one to fix"
		}
		return nil, &engine.Error{Code: engine.CodeInvalidRequest, Msg: msg,
			Hint: "give the path of a JSON plan file, - to read the plan from stdin, or the plan's JSON itself"}
	}
	return b, nil
}

var utf8BOM = []byte("\xef\xbb\xbf")

// sqlText is the SQL `plan from-sql` lifts: its arguments joined, or stdin
// for a lone "-", as `plan run -` reads a plan, so a query kept in a file
// needs no shell quoting (nl2sql plan from-sql - < query.sql). Stdin is
// bounded and may start with a byte order mark, as a plan's may.
func sqlText(stdin io.Reader, args []string) (string, error) {
	if len(args) != 1 || args[0] != "-" {
		return strings.Join(args, " "), nil
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxSQLText+1))
	if err != nil {
		return "", &engine.Error{Code: engine.CodeInvalidRequest, Msg: fmt.Sprintf("cannot read the SQL from stdin: %v", err),
			Hint: "pipe the SQL in (nl2sql plan from-sql - < query.sql), or give it as the argument"}
	}
	if len(b) > maxSQLText {
		return "", &engine.Error{Code: engine.CodeInvalidRequest, Msg: "the SQL on stdin is larger than 1 MiB",
			Hint: "from-sql lifts one SELECT statement; pipe in that statement alone"}
	}
	sql := string(bytes.TrimPrefix(b, utf8BOM))
	if strings.TrimSpace(sql) == "" {
		return "", &engine.Error{Code: engine.CodeInvalidRequest, Msg: "stdin held no SQL",
			Hint: "pipe the SQL in (nl2sql plan from-sql - < query.sql), or give it as the argument"}
	}
	return sql, nil
}

// maxSQLText bounds the SQL read from stdin: one statement, however long
// a generated IN list makes it, is far below it.
const maxSQLText = 1 << 20

// liftHint adds to the engine's hint for SQL text sent as a plan the
// command that lifts SQL into a plan, which only the command line has.
func liftHint(err error) error {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Hint == engine.HintSQLText {
		ee.Hint += " (from the command line, `nl2sql plan from-sql SQL` lifts a SELECT into a plan)"
	}
	return err
}

// planRunCmd runs a plan from the command line, as the MCP tool run_plan
// does: without a model of its own, this is how a person (or a script)
// answers what `ask` handed over.
func planRunCmd(logger *slog.Logger) *cobra.Command {
	var ds, htmlPath string
	var asJSON bool
	var src *configSource
	cmd := &cobra.Command{
		Use:   "run [flags] FILE|-|JSON",
		Short: "Validate a plan, run it read-only and print the rows, the SQL and the answer (the run_plan tool's path; run_plan's, run_combined_plan's or run_verified_query's arguments run as they are)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if err := checkPagePath(htmlPath); err != nil {
				return err
			}
			doc, err := readInput(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			in, err := readPlanInput(doc, ds)
			if err != nil {
				return err
			}
			a, err := src.open(logger, app.Options{})
			if err != nil {
				if asJSON {
					_ = printJSON(out, jsonError(err))
				}
				return err
			}
			defer a.Close()
			var res *engine.Result
			switch {
			case in.verified != nil:
				res, err = runVerified(cmd.Context(), a.Engine, in.verified)
			case in.combined != nil:
				res, err = a.Engine.RunCombined(cmd.Context(), in.combined)
			default:
				res, err = a.Engine.RunPlan(cmd.Context(), in.datasource, in.plan)
			}
			err = liftHint(err)
			if err != nil {
				if asJSON && cmd.Context().Err() == nil {
					_ = printJSON(out, jsonError(err))
				}
				return err
			}
			if htmlPath != "" {
				if err := writePage(htmlPath, res); err != nil {
					return err
				}
			}
			return printRun(out, res, asJSON)
		},
	}
	src = configFlags(cmd)
	cmd.Flags().StringVar(&ds, "datasource", "", "datasource id (default: the only one configured)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole result as JSON")
	cmd.Flags().StringVar(&htmlPath, "html", "", htmlUsage)
	return cmd
}

// runVerified runs a verified query as run_verified_query does; a
// datasource the arguments name must be the one the query runs on, which
// the caller may have meant to choose and cannot.
func runVerified(ctx context.Context, eng *engine.Engine, v *verifiedArgs) (*engine.Result, error) {
	if v.Datasource != "" {
		list, err := eng.ListVerified(ctx, v.Datasource)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(list, func(s curated.Summary) bool { return s.ID == v.ID }) {
			return nil, &engine.Error{Code: engine.CodeVerifiedNotFound,
				Msg:  fmt.Sprintf("datasource %q has no verified query %q you may run", v.Datasource, v.ID),
				Hint: "a verified query runs on the datasource its file names: drop the datasource, or name the query's"}
		}
	}
	return eng.RunVerified(ctx, v.ID, v.Params)
}

// printRun prints the result of a run that executed a plan (plan run,
// approvals run): the rows, the SQL and the answer as text, or the whole
// result as JSON.
func printRun(out io.Writer, res *engine.Result, asJSON bool) error {
	if asJSON {
		tools.NameTruncation(res)
		return printJSON(out, res)
	}
	_, err := fmt.Fprint(out, tools.CommandText(res))
	return err
}

func inputName(name string) string {
	if name == "-" {
		return "stdin"
	}
	return name
}

// jsonKind names the kind of the valid JSON value t, with its article.
func jsonKind(t string) string {
	switch t[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}
