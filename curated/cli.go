package curated

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nl2sql/nl2sql/internal/source/duckdb"
	"github.com/nl2sql/nl2sql/internal/source/postgres"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/scope"
)

// ErrRefused is wrapped by Validate and Test when a verified query was
// refused or failed: `nl2sql curated validate|test` then exits 1.
var ErrRefused = errors.New("verified queries refused")

// Open loads cfg's curated file and checks it against the configured
// datasources (opened read-only, snapshotted, closed again before Open
// returns) and the policy of cfg. The engine calls it at startup; the CLI
// through Validate. It returns (nil, nil, nil) without a curated file. err
// is for what prevents checking at all (the file, the policy); refusals
// are per query.
func Open(ctx context.Context, cfg *config.Config) (*Set, []Refusal, error) {
	set, refused, _, err := open(ctx, cfg, false)
	return set, refused, err
}

// open is Open, keeping the sources open when keep is set (Test runs the
// queries afterwards); close them with the returned function.
func open(ctx context.Context, cfg *config.Config, keep bool) (*Set, []Refusal, map[string]Target, error) {
	f, err := Load(cfg)
	if err != nil || f == nil {
		return nil, nil, nil, err
	}
	pol, err := scope.New(cfg.Access())
	if err != nil {
		return nil, nil, nil, err
	}
	targets := map[string]Target{}
	var openErrs []Refusal
	for _, q := range f.Queries {
		if _, done := targets[q.Datasource]; done || q.Datasource == "" {
			continue
		}
		ds, ok := cfg.Datasource(q.Datasource)
		if !ok {
			continue // refused by Check with its reason
		}
		src, snapErr := openSource(ctx, ds)
		if snapErr != nil {
			openErrs = append(openErrs, Refusal{ID: "datasource " + ds.ID, Err: refusef(CodePlan, "%v", snapErr)})
			continue
		}
		targets[ds.ID] = src
	}
	set, refused := f.Check(ctx, cfg, pol, targets)
	if !keep {
		closeTargets(targets)
	}
	return set, append(openErrs, refused...), targets, nil
}

type closer interface{ Close() error }

func closeTargets(targets map[string]Target) {
	for _, t := range targets {
		if c, ok := t.Source.(closer); ok {
			c.Close()
		}
	}
}

// openSource opens one datasource read-only and snapshots it.
func openSource(ctx context.Context, ds config.Datasource) (Target, error) {
	// the datasource's own allow_writable_role: without it every verified
	// query of a datasource the server opens with that key was refused
	opts := source.Options{RowLimit: ds.RowLimit, Timeout: ds.Timeout(), AllowWritableRole: ds.AllowWritableRole}
	var src interface {
		Source
		closer
	}
	var err error
	switch ds.Engine {
	case "sqlite":
		src, err = sqlite.OpenSQLite(ctx, ds.ID, ds.Path, opts)
	case "duckdb":
		src, err = duckdb.OpenDuckDB(ctx, ds.ID, ds.Path, opts)
	case "postgres":
		src, err = postgres.OpenPostgres(ctx, ds.ID, ds.DSN, opts)
	default:
		return Target{}, fmt.Errorf("unknown engine %q", ds.Engine)
	}
	if err != nil {
		return Target{}, err
	}
	snapper, ok := src.(interface {
		Snapshot(context.Context) (*schema.Snapshot, error)
	})
	if !ok {
		src.Close()
		return Target{}, fmt.Errorf("datasource %s cannot be snapshotted", ds.ID)
	}
	snap, err := snapper.Snapshot(ctx)
	if err != nil {
		src.Close()
		return Target{}, err
	}
	return Target{Source: src, Snapshot: snap}, nil
}

// Validate is `nl2sql curated validate`: it checks every verified query
// (see File.Check) and writes one line per query to out, "ok <id>" or
// "refused <id>: <CODE>: <reason>", then a summary. It returns an error
// wrapping ErrRefused when any query was refused (exit status 1), another
// error when checking was impossible, nil when all passed.
func Validate(ctx context.Context, cfg *config.Config, out io.Writer) error {
	set, refused, _, err := open(ctx, cfg, false)
	if err != nil {
		return err
	}
	if set == nil {
		fmt.Fprintln(out, "no curated file is configured (curated: in nl2sql.yaml)")
		return nil
	}
	return report(out, set, refused, "valid")
}

func report(out io.Writer, set *Set, refused []Refusal, what string) error {
	for _, q := range set.Queries() {
		fmt.Fprintf(out, "ok %s\n", q.ID)
	}
	for _, r := range refused {
		fmt.Fprintln(out, r.String())
	}
	fmt.Fprintf(out, "%s %s, %d refused\n", queries(len(set.Queries())), what, len(refused))
	if len(refused) > 0 {
		return fmt.Errorf("%w: %d", ErrRefused, len(refused))
	}
	return nil
}

// Test is `nl2sql curated test`: Validate, then it runs every accepted
// query with its example values (as the single user: no roles, no row
// filters) and writes "ok <id>: <n> rows" or "failed <id>: <reason>". A
// required param without an example fails its query. It returns an error
// wrapping ErrRefused when anything was refused or failed.
func Test(ctx context.Context, cfg *config.Config, out io.Writer) error {
	set, refused, targets, err := open(ctx, cfg, true)
	defer closeTargets(targets)
	if err != nil {
		return err
	}
	if set == nil {
		fmt.Fprintln(out, "no curated file is configured (curated: in nl2sql.yaml)")
		return nil
	}
	var passed []*Query
	for _, q := range set.Queries() {
		for _, p := range q.Params {
			if p.Required && p.Example == nil && p.Default == nil {
				refused = append(refused, Refusal{ID: q.ID, Err: refusef(CodeExample, "param %q is required and has no example", p.Name)})
				goto next
			}
		}
		if ex, err := Run(ctx, targets[q.Datasource].Source, q, q.Examples(), scope.SingleUser(), 0); err != nil {
			refused = append(refused, Refusal{ID: q.ID, Err: refusef(CodePlan, "running it with the examples failed: %v", err)})
		} else {
			passed = append(passed, q)
			fmt.Fprintf(out, "ok %s: %d rows%s\n", q.ID, len(ex.Result.Rows), map[bool]string{true: " (truncated)"}[ex.Result.Truncated])
		}
	next:
	}
	for _, r := range refused {
		fmt.Fprintln(out, r.String())
	}
	fmt.Fprintf(out, "%s passed, %d refused or failed\n", queries(len(passed)), len(refused))
	if len(refused) > 0 {
		return fmt.Errorf("%w: %d", ErrRefused, len(refused))
	}
	return nil
}

// queries is "1 verified query" or "n verified queries".
func queries(n int) string {
	if n == 1 {
		return "1 verified query"
	}
	return fmt.Sprintf("%d verified queries", n)
}
