package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/semantic"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// semanticCmd is "nl2sql semantic": the semantic layer's commands.
func semanticCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "semantic", Short: "Work with semantic layers (semantic.yaml per datasource)"}
	var cfgPath, ds, out string
	suggest := &cobra.Command{
		Use:   "suggest",
		Short: "Draft a semantic file from the schema and profiles (never overwrites a file)",
		Long: "Introspects and profiles the datasource and writes a draft semantic file: every table and column with an empty description, " +
			"value labels to fill in for low-cardinality codes, and candidate relationships the database does not declare (from names, " +
			"kept when their values overlap). The file goes to --out, else to the datasource's semantic path, else to ID.semantic.yaml " +
			"beside the config; an existing file is never overwritten.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := app.LoadConfig(cfgPath)
			if err != nil {
				return err
			}
			d, ok := cfg.Datasource(ds)
			if !ok {
				var ids []string
				for _, d := range cfg.Datasources {
					ids = append(ids, d.ID)
				}
				return &engine.Error{Code: engine.CodeDatasourceNotFound, Msg: fmt.Sprintf("there is no datasource %q in %s", ds, cfgPath),
					Hint: "give --datasource one of: " + strings.Join(ids, ", ")}
			}
			target, flag := out, "--out"
			switch {
			case target != "":
			case d.Semantic != "":
				target, flag = d.Semantic, "the semantic file"
			default:
				target, flag = filepath.Join(filepath.Dir(cfgPath), d.ID+".semantic.yaml"), "the draft"
			}
			// before profiling: the draft is lost when it cannot be written
			if err := checkOutFile(flag, target, d.ID+".semantic.yaml"); err != nil {
				return err
			}
			if _, err := os.Stat(target); err == nil {
				return fmt.Errorf("%s exists; semantic suggest never overwrites a file (give --out NEW_PATH)", target)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			s, err := suggestFor(cmd.Context(), d)
			if err != nil {
				return err
			}
			f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return fmt.Errorf("semantic suggest: %w", err)
			}
			if _, err := f.Write(s.YAML); err != nil {
				f.Close()
				return fmt.Errorf("semantic suggest: %w", err)
			}
			if err := f.Close(); err != nil {
				return fmt.Errorf("semantic suggest: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d tables, %d candidate relationships, %d columns with value labels to fill in\n",
				target, s.Tables, s.Relationships, s.Labelled)
			if d.Semantic == "" {
				fmt.Fprintf(cmd.OutOrStdout(), "to use it, add to datasource %s in %s:  semantic: %s\n", d.ID, cfgPath, relToConfig(cfgPath, target))
			}
			return nil
		},
	}
	suggest.Flags().StringVar(&cfgPath, "config", defaultConfigPath(), configUsage)
	suggest.Flags().StringVar(&ds, "datasource", "", "datasource id")
	suggest.Flags().StringVar(&out, "out", "", "where to write the draft (default: the datasource's semantic path, else ID.semantic.yaml beside the config)")
	_ = suggest.MarkFlagRequired("datasource")
	cmd.AddCommand(suggest, semanticCheckCmd())
	return cmd
}

// semanticCheckCmd is "nl2sql semantic check": load every configured
// semantic file against its datasource's schema and report.
func semanticCheckCmd() *cobra.Command {
	var cfgPath, ds string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check the semantic files against their datasources' schemas (every problem with its line)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := app.LoadConfig(cfgPath)
			if err != nil {
				return err
			}
			failed, missing, checked := 0, 0, 0
			for _, d := range cfg.Datasources {
				if (ds != "" && d.ID != ds) || d.Semantic == "" {
					continue
				}
				checked++
				if _, err := os.Stat(d.Semantic); errors.Is(err, fs.ErrNotExist) {
					// not a mismatch: there is nothing to compare yet
					missing++
					fmt.Fprintf(cmd.OutOrStdout(), "%s: the semantic file %s does not exist (%s); `nl2sql semantic suggest --datasource %s` drafts it there\n",
						d.ID, d.SemanticAsWritten, d.Semantic, d.ID)
					continue
				}
				src, snap, err := openProfiled(cmd.Context(), d)
				if err != nil {
					return err
				}
				src.Close()
				l, err := semantic.Load(d.Semantic, d.SemanticAsWritten, snap)
				if err != nil {
					failed++
					fmt.Fprintf(cmd.OutOrStdout(), "%s: %v\n", d.ID, err)
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s ok: %d tables described, %d metrics, %d filters, %d relationships\n",
					d.ID, d.SemanticAsWritten, len(l.Tables), len(l.Metrics), len(l.Filters), len(l.Relationships))
			}
			if checked == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "no datasource has a semantic file (key semantic:)")
			}
			var problems []string
			if missing > 0 {
				problems = append(problems, fmt.Sprintf("%d semantic file(s) do not exist", missing))
			}
			if failed > 0 {
				problems = append(problems, fmt.Sprintf("%d semantic file(s) do not match their schema", failed))
			}
			if len(problems) > 0 {
				return errors.New(strings.Join(problems, "; "))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", defaultConfigPath(), configUsage)
	cmd.Flags().StringVar(&ds, "datasource", "", "only this datasource")
	return cmd
}

// openProfiled opens a configured datasource read-only (without its
// semantic file) and returns it with its profiled snapshot; the caller
// closes the source.
func openProfiled(ctx context.Context, d config.Datasource) (engine.Source, *schema.Snapshot, error) {
	src, err := app.OpenSource(ctx, engine.DatasourceSpec{ID: d.ID, Engine: d.Engine, Path: d.Path, DSN: d.DSN,
		RowLimit: d.RowLimit, Timeout: d.Timeout()})
	if err != nil {
		return nil, nil, err
	}
	snap, err := src.Snapshot(ctx)
	if err == nil {
		err = src.Profile(ctx, snap)
	}
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return src, snap, nil
}

// suggestFor drafts the semantic file of a configured datasource.
func suggestFor(ctx context.Context, d config.Datasource) (*semantic.Suggestion, error) {
	src, snap, err := openProfiled(ctx, d)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return semantic.Suggest(ctx, snap, func(ctx context.Context, sql string) ([][]any, error) {
		r, err := src.Query(ctx, sql, nil, 10)
		if err != nil {
			return nil, err
		}
		return r.Rows, nil
	})
}

// relToConfig writes path as the config file would name it: relative to
// the config's directory when it lies below it, else absolute.
func relToConfig(cfgPath, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	dir, err := filepath.Abs(filepath.Dir(cfgPath))
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return abs
}
