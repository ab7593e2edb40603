package cli

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/eval"
)

// withEvalCompare adds `nl2sql eval compare` to the eval command.
func withEvalCompare(eval *cobra.Command, logger *slog.Logger) *cobra.Command {
	eval.AddCommand(evalCompareCmd(logger))
	return eval
}

// evalCompareCmd asks a question file under several configurations (each
// an nl2sql.yaml: single call, a scaling section, another model) and
// reports accuracy, model calls, tokens and latency per configuration.
func evalCompareCmd(logger *slog.Logger) *cobra.Command {
	var questions string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "compare [NAME=]CONFIG.yaml...",
		Short: "Compare configurations (e.g. single call vs test-time scaling): accuracy, calls, tokens, latency",
		Long: "Asks every question of --questions (a JSON list of {question, gold_sql, datasource?}, e.g. examples/chinook/questions.json) " +
			"under each configuration and compares the rows with the gold SQL's, run on the first configuration's SQLite datasource.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if questions == "" {
				return fmt.Errorf("give --questions FILE.json (a list of {question, gold_sql})")
			}
			qs, err := readConfigQuestions(questions, limit)
			if err != nil {
				return err
			}
			o := eval.ConfigOptions{Questions: qs}
			seen := map[string]bool{}
			for _, arg := range args {
				name, path, ok := strings.Cut(arg, "=")
				if !ok {
					name, path = strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg)), arg
				}
				if seen[name] {
					return fmt.Errorf("two configurations are named %q: name them NAME=CONFIG.yaml", name)
				}
				seen[name] = true
				a, err := app.OpenWith(path, logger, app.Options{NoCacheReads: true})
				if err != nil {
					return err
				}
				defer a.Close()
				if o.GoldDB == "" {
					if o.GoldDB, err = goldDB(a, qs[0].Datasource); err != nil {
						return err
					}
				}
				o.Configs = append(o.Configs, eval.Configuration{Name: name, Engine: a.Engine})
			}
			rep, err := eval.RunConfigs(cmd.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), rep)
			}
			fmt.Fprint(cmd.OutOrStdout(), rep.Summary())
			return nil
		},
	}
	cmd.Flags().StringVar(&questions, "questions", "", "JSON list of {question, gold_sql, datasource?}")
	cmd.Flags().IntVar(&limit, "limit", 0, "ask only the first N questions")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole report as JSON")
	return cmd
}

// readConfigQuestions loads the question file (unknown keys are ignored,
// so Chinook's questions.json serves as is).
func readConfigQuestions(path string, limit int) ([]eval.ConfigQuestion, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("questions: %w", err)
	}
	var qs []eval.ConfigQuestion
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("questions %s: want a JSON list of {question, gold_sql}: %w", filepath.Base(path), err)
	}
	if limit > 0 && limit < len(qs) {
		qs = qs[:limit]
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("questions %s: the list is empty", filepath.Base(path))
	}
	for i, q := range qs {
		if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.GoldSQL) == "" {
			return nil, fmt.Errorf("questions %s: entry %d needs a question and its gold_sql", filepath.Base(path), i)
		}
	}
	return qs, nil
}

// goldDB is the SQLite file of the datasource the gold SQL runs on.
func goldDB(a *app.App, id string) (string, error) {
	if id == "" && len(a.Config.Datasources) == 1 {
		id = a.Config.Datasources[0].ID
	}
	d, ok := a.Config.Datasource(id)
	if !ok || d.Engine != "sqlite" {
		return "", fmt.Errorf("eval compare runs the gold SQL on a SQLite datasource; %q is not one (name it with \"datasource\" in the questions)", id)
	}
	return d.Path, nil
}
