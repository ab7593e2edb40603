package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/curated"
	"github.com/nl2sql/nl2sql/engine/app"
	"github.com/nl2sql/nl2sql/engine/config"
)

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
