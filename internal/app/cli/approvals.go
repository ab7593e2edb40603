package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/app"
)

// approvalsCmd is `nl2sql approvals list|approve|reject|run`: the CLI acts
// as local_user (or the single user), so list, approve and reject need an
// approver role (approvals.approver_roles), and run runs the local user's
// own approved query.
func approvalsCmd(logger *slog.Logger) *cobra.Command {
	cmd := &cobra.Command{Use: "approvals", Short: "List, approve, reject or run queries stopped with NEEDS_APPROVAL"}
	var cfgPath, state string
	withApp := func(f func(ctx context.Context, a *app.App, args []string, out io.Writer) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, args []string) error {
			a, err := app.Open(cfgPath, logger)
			if err != nil {
				return err
			}
			defer a.Close()
			return f(cmd.Context(), a, args, cmd.OutOrStdout())
		}
	}
	var listJSON, runJSON bool
	list := &cobra.Command{Use: "list", Short: "List approvals (--state pending by default; \"\" for all): each with its question, tables and SQL, or as JSON lines with --json", Args: cobra.NoArgs,
		RunE: withApp(func(ctx context.Context, a *app.App, _ []string, out io.Writer) error {
			as, err := a.Engine.Approvals(ctx, state)
			if err != nil {
				return err
			}
			if listJSON {
				enc := json.NewEncoder(out)
				for _, x := range as {
					if err := enc.Encode(x); err != nil {
						return err
					}
				}
				return nil
			}
			if len(as) == 0 {
				// nothing printed looked the same as a command that did
				// not run, or a store that is not the one meant
				what := "approvals"
				if state != "" {
					what = state + " approvals"
				}
				_, err := fmt.Fprintf(out, "no %s\n", what)
				return err
			}
			for _, x := range as {
				printApproval(out, x)
			}
			return nil
		})}
	list.Flags().BoolVar(&listJSON, "json", false, "print one JSON object per approval (JSON lines; none for no approvals)")
	list.Flags().StringVar(&state, "state", "pending", "pending, approved, rejected, used, or \"\" for all")
	decide := func(use, short string, approve bool) *cobra.Command {
		return &cobra.Command{Use: use + " APPROVAL_ID", Short: short, Args: cobra.ExactArgs(1),
			RunE: withApp(func(ctx context.Context, a *app.App, args []string, out io.Writer) error {
				x, err := a.Engine.Decide(ctx, args[0], approve)
				if err != nil {
					return err
				}
				who := x.User
				if who == "" {
					who = "the local user"
				}
				fmt.Fprintf(out, "approval %s is %s (asked by %s: %q)\n", x.ID, x.State, who, x.Question)
				return nil
			})}
	}
	run := &cobra.Command{Use: "run APPROVAL_ID", Short: "Run your approved query (plan_source approved)", Args: cobra.ExactArgs(1),
		RunE: withApp(func(ctx context.Context, a *app.App, args []string, out io.Writer) error {
			res, err := a.Engine.RunApproved(ctx, args[0])
			if err != nil {
				if runJSON && ctx.Err() == nil {
					_ = printJSON(out, jsonError(err))
				}
				return err
			}
			return printRun(out, res, runJSON)
		})}
	run.Flags().BoolVar(&runJSON, "json", false, "print the whole result as JSON")
	for _, c := range []*cobra.Command{list, decide("approve", "Approve a stopped query", true), decide("reject", "Reject a stopped query", false), run} {
		c.Flags().StringVar(&cfgPath, "config", defaultConfigPath(), configUsage)
		cmd.AddCommand(c)
	}
	return cmd
}

// printApproval prints one approval for an approver: who asked what, and
// the tables and SQL the decision is about.
func printApproval(out io.Writer, x engine.Approval) {
	who := x.User
	if who == "" {
		who = "the local user"
	}
	fmt.Fprintf(out, "%s  %s  asked by %s on %s, %s: %q\n", x.ID, x.State, who, x.Datasource, x.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), x.Question)
	if x.Reason != "" {
		fmt.Fprintf(out, "  reason: %s\n", x.Reason)
	}
	if len(x.Tables) > 0 {
		fmt.Fprintf(out, "  tables: %s\n", strings.Join(x.Tables, ", "))
	}
	fmt.Fprintf(out, "  sql:\n    %s\n", strings.ReplaceAll(x.SQL, "\n", "\n    "))
}
