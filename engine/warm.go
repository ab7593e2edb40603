package engine

import "context"

// OpenDatasource opens datasource id now (snapshot, retrieval index), as
// its first use would, waiting for it until ctx ends (not for
// Options.OpenWait): nl2sql serve calls it in the background at start,
// so that a database that cannot be opened is reported then and the first
// question does not pay for the opening. Errors are those of first use.
func (e *Engine) OpenDatasource(ctx context.Context, id string) error {
	if _, ok := e.specs[id]; !ok {
		return e.noDatasource(ctx, id)
	}
	ds, err := e.sources.Await(ctx, id, 0)
	if err == nil {
		e.verifyPresumed(ds)
	}
	return err
}
