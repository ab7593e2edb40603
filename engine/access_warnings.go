package engine

import "context"

// AccessWarnings opens datasource id (waiting for it) and lists, one line
// each, the policy's allow and deny patterns and row-filter tables that
// match nothing in its snapshot (scope.Policy.Unmatched): a typo there
// leaves data meant to be hidden readable; and the row filters that cannot
// be applied (scope.Policy.FilterProblems), which refuse every query of
// their table with nothing for the caller to go on. serve and ask print them on
// stderr at start; nl2sql doctor fails on them. Nil without roles, or
// when the datasource does not open (its own error says why).
func (e *Engine) AccessWarnings(ctx context.Context, id string) []string {
	if !e.opts.Policy.Secured() {
		return nil
	}
	if _, ok := e.specs[id]; !ok {
		return nil
	}
	ds, err := e.sources.Await(ctx, id, 0)
	if err != nil {
		return nil
	}
	var out []string
	for _, u := range e.opts.Policy.Unmatched(ds.snap) {
		out = append(out, u.String())
	}
	for _, fp := range e.opts.Policy.FilterProblems(ds.snap) {
		out = append(out, fp.String())
	}
	return out
}
