package engine

import (
	"context"
	"time"
)

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

// OpenFailures says, by id, why the last open of each datasource failed;
// one that is open, is being opened for the first time or was never asked
// for is absent. It waits for nothing, and starts a new open of each
// failed one in the background, as a request would: /readyz calls it,
// and a server taken out of service for its failures gets no request
// that would find the database back.
func (e *Engine) OpenFailures(ctx context.Context) map[string]error {
	out := map[string]error{}
	for id := range e.specs {
		if err := e.sources.Failed(id); err != nil {
			out[id] = err
			e.sources.Await(ctx, id, time.Nanosecond) // starts an open, unless one runs
		}
	}
	return out
}
