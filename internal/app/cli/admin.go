package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/plural"
	"github.com/nl2sql/nl2sql/tools"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/config"
)

func doctorCmd(logger *slog.Logger) *cobra.Command {
	var src *configSource
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the config, every datasource and every model provider (one tiny structured call each)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, label, err := src.load()
			if err != nil {
				if len(src.dbs) == 0 && !errors.Is(err, errDBAndConfig) {
					return app.Doctor(cmd.Context(), src.path, cmd.OutOrStdout()) // prints the FAILED line
				}
				return err
			}
			return app.DoctorConfig(cmd.Context(), cfg, label, cmd.OutOrStdout())
		},
	}
	src = configFlags(cmd)
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
	check.Flags().StringVar(&cfgPath, "config", defaultConfigPath(), configUsage)
	cmd.AddCommand(check)
	return cmd
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
		c.Flags().StringVar(&cfgPath, "config", defaultConfigPath(), configUsage)
		cmd.AddCommand(c)
	}
	return cmd
}

func cacheCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "cache", Short: "Manage the plan cache"}
	var ds string
	var src *configSource
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Remove cached plans (of one datasource, or all)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := src.requireStore(); err != nil {
				return err
			}
			a, err := src.open(logger, app.Options{})
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
	src = configFlags(clear)
	clear.Flags().StringVar(&ds, "datasource", "", "only this datasource's plans")
	cmd.AddCommand(clear)
	return cmd
}

func indexCmd(logger *slog.Logger) *cobra.Command {
	var ds string
	var asJSON, reprofile bool
	var src *configSource
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or refresh snapshots, profiles and retrieval indexes (nothing changed = no profiling; --reprofile after writes of data)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := src.open(logger, app.Options{Reprofile: reprofile})
			if err != nil {
				return err
			}
			defer a.Close()
			if a.Store == nil {
				// index exists to store snapshots, profiles and indexes:
				// profiling with nowhere to keep them is a failure, not a
				// success that the next serve would redo.
				return fmt.Errorf("the state store at %s cannot be opened or written, so nothing could be stored (hint: set storage.path, or --storage, to a writable directory; nl2sql doctor says why)", a.Config.Storage.PathAsWritten)
			}
			ids := a.Engine.DatasourceIDs()
			if ds != "" {
				ids = []string{ds}
			}
			var bar *progressbar.ProgressBar
			if !asJSON && term.IsTerminal(int(os.Stderr.Fd())) {
				bar = progressbar.NewOptions(len(ids), progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription("indexing"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
			}
			var reps []engine.IndexReport
			var lastFail engine.IndexReport
			failed := 0
			// a lone failure is the command's error, said once
			listed := func(rep engine.IndexReport) bool { return rep.Error == "" || len(ids) > 1 }
			for _, id := range ids {
				if bar != nil {
					bar.Describe("indexing " + id)
				}
				rep := a.Engine.Refresh(cmd.Context(), id)
				reps = append(reps, rep)
				if rep.Error != "" {
					failed++
					lastFail = rep
				}
				if bar != nil {
					_ = bar.Add(1)
				} else if !asJSON && listed(rep) {
					printIndexReport(cmd.OutOrStdout(), rep)
				}
			}
			if bar != nil {
				_ = bar.Finish()
				for _, rep := range reps {
					if listed(rep) {
						printIndexReport(cmd.OutOrStdout(), rep)
					}
				}
			}
			if asJSON {
				if err := printJSON(cmd.OutOrStdout(), reps); err != nil {
					return err
				}
			}
			switch {
			case failed == 1 && len(ids) == 1:
				return &engine.Error{Code: lastFail.Code, Msg: lastFail.Error, Hint: lastFail.Hint}
			case failed > 0:
				return fmt.Errorf("%d of %d datasources failed (each is listed above with its reason)", failed, len(ids))
			}
			return nil
		},
	}
	src = configFlags(cmd)
	cmd.Flags().StringVar(&ds, "datasource", "", "only this datasource")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the reports as JSON")
	cmd.Flags().BoolVar(&reprofile, "reprofile", false, "profile every datasource again, whatever its stored profile's age (after writes of data, which change no schema or row count; else a profile is read again once a day old)")
	return cmd
}

func printIndexReport(out io.Writer, r engine.IndexReport) {
	if r.Error != "" {
		fmt.Fprintf(out, "%s: FAILED: %s: %s", r.Datasource, r.Code, r.Error)
		if r.Hint != "" {
			fmt.Fprintf(out, " (hint: %s)", r.Hint)
		}
		fmt.Fprintln(out)
		return
	}
	what := map[engine.SnapshotStatus]string{
		engine.SnapshotReused:    "unchanged (schema and row counts); profile reused (--reprofile reads it again)",
		engine.SnapshotNew:       "changed; profiled and stored as a new version",
		engine.SnapshotRefreshed: "profile refreshed; data unchanged",
		engine.SnapshotUnstored:  "profiled (no state store)",
		engine.SnapshotPresumed:  "schema as recorded; rows counted after opening",
	}[r.Snapshot]
	ix := "no retrieval index (the whole schema is sent)"
	switch {
	case r.Indexed && r.IndexBuilt:
		ix = "retrieval index built"
	case r.Indexed:
		ix = "stored retrieval index reused"
	}
	fmt.Fprintf(out, "%s: %s, version %.12s, %s, %s (%.0f ms)\n", r.Datasource, plural.Relations(r.Tables, r.Views), r.Version, what, ix, r.MS)
}

func traceCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "trace", Short: "Inspect and replay request traces (storage.path/traces)"}
	var src *configSource
	load := func(id string) (*engine.Trace, error) {
		if err := src.requireStore(); err != nil {
			return nil, err
		}
		cfg, _, err := src.load()
		if err != nil {
			return nil, err
		}
		return app.ReadTrace(context.Background(), cfg, id)
	}
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print a trace: steps, prompts, model answers, refused attempts, SQL",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := load(args[0])
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), t)
		},
	}
	var asJSON bool
	replay := &cobra.Command{
		Use:   "replay ID",
		Short: "Rerun a traced question with exactly the model answers it recorded",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := load(args[0])
			if err != nil {
				return err
			}
			// A plan from the cache, a client or an approval was not planned in
			// this trace (other calls, like resolving the datasource, may be).
			if src := t.PlanSource; src == "cache" || src == "supplied" || src == "approved" || (len(t.ModelCalls) == 0 && src != "" && src != "llm") {
				hint := fmt.Sprintf("`nl2sql trace show %s` shows its SQL; to record a replayable trace, run `nl2sql cache clear` and ask again", t.ID)
				if src == "supplied" || src == "approved" {
					// a plan the host or a person wrote: no planner ran, and
					// without a model none will
					hint = fmt.Sprintf("`nl2sql trace show %s` shows its plan and SQL; `nl2sql plan run` runs that plan again", t.ID)
				}
				return engine.Errorf(engine.CodeInvalidRequest, hint,
					"trace %s was answered from %s (plan_source %q), not by a planner call, so there is nothing to replay", t.ID, sourceWords(t.PlanSource), t.PlanSource)
			}
			a, err := src.open(logger, app.Options{Planner: engine.NewTracePlanner(t)})
			if err != nil {
				return err
			}
			defer a.Close()
			ds := t.Datasource
			if strings.Contains(ds, ",") {
				ds = "" // a question across datasources: resolved again, from the recorded resolver answer
			}
			res, err := a.Engine.Ask(cmd.Context(), engine.AskRequest{Question: t.Question, Datasource: ds})
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), res)
			}
			fmt.Fprint(cmd.OutOrStdout(), tools.CommandText(res))
			return nil
		},
	}
	replay.Flags().BoolVar(&asJSON, "json", false, "print the whole result as JSON")
	// each subcommand reads its own flags: the one that runs sets src
	showSrc, replaySrc := configFlags(show), configFlags(replay)
	show.PreRun = func(*cobra.Command, []string) { src = showSrc }
	replay.PreRun = func(*cobra.Command, []string) { src = replaySrc }
	cmd.AddCommand(show, replay)
	return cmd
}

// sourceWords names a plan source for a message.
func sourceWords(src string) string {
	switch src {
	case "cache":
		return "the plan cache"
	case "verified":
		return "a verified query"
	case "supplied":
		return "a plan the client supplied"
	case "approved":
		return "an approved plan"
	}
	return src
}
