package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/spf13/cobra"

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
	list := &cobra.Command{Use: "list", Short: "List approvals (--state pending by default; \"\" for all) as JSON lines", Args: cobra.NoArgs,
		RunE: withApp(func(ctx context.Context, a *app.App, _ []string, out io.Writer) error {
			as, err := a.Engine.Approvals(ctx, state)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(out)
			for _, x := range as {
				if err := enc.Encode(x); err != nil {
					return err
				}
			}
			return nil
		})}
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
				return err
			}
			return json.NewEncoder(out).Encode(res)
		})}
	for _, c := range []*cobra.Command{list, decide("approve", "Approve a stopped query", true), decide("reject", "Reject a stopped query", false), run} {
		c.Flags().StringVar(&cfgPath, "config", defaultConfigPath(), configUsage)
		cmd.AddCommand(c)
	}
	return cmd
}
