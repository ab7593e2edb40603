package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// Hook decides at the points it is registered for. Decide must honour ctx
// (the runner's timeout); the runner stops waiting when ctx ends either way.
type Hook interface {
	Decide(ctx context.Context, in Input) (Decision, error)
}

// DefaultTimeout bounds one hook call when its entry sets none.
const DefaultTimeout = 2 * time.Second

// Entry is one configured hook.
type Entry struct {
	Name   string
	Points []Point
	Hook   Hook
	// Timeout bounds one call; 0 means DefaultTimeout.
	Timeout time.Duration
	// OnErrorOpen turns a hook error or timeout into allow. A decision the
	// point does not allow still denies.
	OnErrorOpen bool
}

// Record is one hook decision as it was applied, for events and the audit
// log.
type Record struct {
	Point  Point
	Hook   string
	Action Action // the effective action (deny after an error or bad decision)
	Reason string
	Failed bool // the hook errored or timed out
}

// Outcome is what running a point's hooks produced.
type Outcome struct {
	Question      string   // possibly rewritten
	Datasources   []string // possibly narrowed
	Plan          []byte   // a replacement plan, nil when unchanged
	NeedsApproval bool
	Records       []Record
}

// ApprovalReason is the reason the last rule requiring approval gave (""
// when none requires it, or it gave none): what an approver is shown.
func (o Outcome) ApprovalReason() string {
	reason := ""
	for _, r := range o.Records {
		if r.Action == RequireApproval {
			reason = r.Reason
		}
	}
	return reason
}

// DeniedError is returned when a hook denies (or fails closed). Reason is
// for operators; Error() names only the point and the hook.
type DeniedError struct {
	Point  Point
	Hook   string
	Reason string
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("refused by rule %q at %s", e.Hook, e.Point)
}

// Runner runs the configured hooks at each point, in configuration order.
// A nil *Runner runs nothing. It is safe for concurrent use.
type Runner struct {
	entries []Entry
	log     *slog.Logger
}

// NewRunner checks entries (known points, a hook, a name) and returns a
// runner; logger nil means slog.Default().
func NewRunner(entries []Entry, logger *slog.Logger) (*Runner, error) {
	if logger == nil {
		logger = slog.Default()
	}
	for i, e := range entries {
		if e.Name == "" || e.Hook == nil || len(e.Points) == 0 {
			return nil, fmt.Errorf("hooks[%d]: a hook needs a name, a kind and at least one point", i)
		}
		for _, p := range e.Points {
			if !p.Valid() {
				return nil, fmt.Errorf("hooks[%d] (%s): unknown point %q (one of %v)", i, e.Name, p, Points)
			}
		}
	}
	return &Runner{entries: slices.Clone(entries), log: logger}, nil
}

// Has reports whether any hook runs at p.
func (r *Runner) Has(p Point) bool {
	if r == nil {
		return false
	}
	for _, e := range r.entries {
		if slices.Contains(e.Points, p) {
			return true
		}
	}
	return false
}

// Run runs every hook registered for p on a deep copy of in. Each hook sees
// the previous one's rewrite, narrowing or plan. The first deny stops the
// run with *DeniedError (Outcome.Records still lists what was decided).
func (r *Runner) Run(ctx context.Context, p Point, in Input) (Outcome, error) {
	in.Point = p
	out := Outcome{Question: in.Question, Datasources: slices.Clone(in.Datasources)}
	if r == nil {
		return out, nil
	}
	for _, e := range r.entries {
		if !slices.Contains(e.Points, p) {
			continue
		}
		d, err := r.call(ctx, e, in.clone())
		rec := Record{Point: p, Hook: e.Name, Action: d.Action, Reason: d.Reason}
		if err != nil {
			rec.Failed, rec.Reason = true, err.Error()
			rec.Action = Deny
			if e.OnErrorOpen {
				rec.Action = Allow
			}
			r.log.Warn("hook failed", "hook", e.Name, "point", p, "open", e.OnErrorOpen, "err", err)
		} else if bad := check(p, d, in); bad != "" {
			rec.Action, rec.Reason = Deny, bad
			r.log.Warn("hook decision refused", "hook", e.Name, "point", p, "why", bad)
		}
		out.Records = append(out.Records, rec)
		switch rec.Action {
		case Deny:
			return out, &DeniedError{Point: p, Hook: e.Name, Reason: rec.Reason}
		case Rewrite:
			in.Question, out.Question = d.Question, d.Question
		case Narrow:
			in.Datasources, out.Datasources = slices.Clone(d.Datasources), slices.Clone(d.Datasources)
		case Modify:
			in.Plan, out.Plan = slices.Clone(d.Plan), slices.Clone(d.Plan)
		case RequireApproval:
			out.NeedsApproval = true
		}
	}
	return out, nil
}

// call runs one hook with its timeout, turning a panic into an error and
// never waiting past the deadline.
func (r *Runner) call(ctx context.Context, e Entry, in Input) (Decision, error) {
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		d   Decision
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				ch <- result{err: fmt.Errorf("hook panicked: %v", v)}
			}
		}()
		d, err := e.Hook.Decide(ctx, in)
		ch <- result{d, err}
	}()
	select {
	case res := <-ch:
		return res.d, res.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Decision{}, fmt.Errorf("hook timed out after %v", timeout)
		}
		return Decision{}, ctx.Err()
	}
}

// check returns why decision d is not acceptable at p, or "".
func check(p Point, d Decision, in Input) string {
	if !Permits(p, d.Action) {
		return fmt.Sprintf("decision %q is not allowed at %s (allowed: %v)", d.Action, p, Allowed[p])
	}
	switch d.Action {
	case Rewrite:
		if d.Question == "" {
			return "a rewrite needs a non-empty question"
		}
	case Narrow:
		if len(d.Datasources) == 0 {
			return "a narrowing must keep at least one datasource (deny instead)"
		}
		for _, ds := range d.Datasources {
			if !slices.Contains(in.Datasources, ds) {
				return fmt.Sprintf("narrowing may not add datasource %q", ds)
			}
		}
	case Modify:
		if len(d.Plan) == 0 {
			return "a modify decision needs a plan"
		}
	}
	return ""
}

// Rules returns the built-in rules among the hooks, by hook name, in
// configuration order (for checks of the names they match).
func (r *Runner) Rules() []NamedRule {
	if r == nil {
		return nil
	}
	var out []NamedRule
	for _, e := range r.entries {
		if rule, ok := e.Hook.(*Rule); ok {
			out = append(out, NamedRule{Name: e.Name, Rule: rule})
		}
	}
	return out
}

// NamedRule is a built-in rule and its hook's name.
type NamedRule struct {
	Name string
	Rule *Rule
}
