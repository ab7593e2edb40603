package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/engine/opening"
	"github.com/nl2sql/nl2sql/internal/source"
)

// fileMover is a file datasource that tells, with one stat of its path,
// whether the path still names the file it opened (source.FileIdent):
// false while it does, true once another file was put there, an error
// wrapping source.ErrFileGone once nothing is.
type fileMover interface {
	FileMoved() (bool, error)
}

// sameFile returns ds while its path names the file it opened, else the
// datasource opened on the file there now, or an error. It runs on every
// call, unlike the schema check: a file replaced on disk (a nightly job's
// `mv new.db shop.db`) changes every number at once, and the open handle
// would go on answering from the old file, silently, until the next
// throttled check. One stat costs a few microseconds; the reopen is paid
// once per replacement.
func (e *Engine) sameFile(ctx context.Context, ds *datasource) (*datasource, error) {
	fm, ok := ds.src.(fileMover)
	if !ok {
		return ds, nil
	}
	moved, err := fm.FileMoved()
	switch {
	case errors.Is(err, source.ErrFileGone):
		return ds, e.fileGone(ds, err)
	case err != nil:
		// the path cannot be looked at: which file it names is unknown,
		// so the open one is not trusted to be it
		return ds, sourceError(err, ds.spec.ID)
	case !moved:
		return ds, nil
	}
	e.log.Info("the datasource's file was replaced; opening the new one", "datasource", ds.spec.ID)
	renew := e.sources.Renew // the old file answers the calls already on it
	if _, verr := schemaVersion(ctx, ds.src); errors.Is(verr, source.ErrFileReplaced) {
		// an engine that opens a path once per process (DuckDB) hands
		// the old file to a second open: it is closed first
		renew = e.sources.Reopen
	}
	fresh, err := renew(ctx, ds.spec.ID, e.opts.OpenWait)
	if re := (*opening.RenewError)(nil); errors.As(err, &re) {
		// the file now at the path cannot be opened (not a database, a
		// damaged one): "being opened again" would have a client retry
		// for ever; each call tries the file at the path again
		fe := fault.AsError(re.Err)
		return ds, &Error{Code: CodeDatasourceDown, Msg: fmt.Sprintf("datasource %q: its database file was replaced by one that cannot be opened: %s", ds.spec.ID, fe.Msg),
			Hint: "put a valid database file at the datasource's path; the next call opens it", Err: re.Err}
	}
	if err != nil {
		return ds, err
	}
	if fresh == ds || movedToo(fresh) {
		// the new file is still being opened (or a renewal begun before
		// the rename opened the old one, which the next call renews):
		// an answer from the old file now would be the silent stale one
		return ds, &Error{Code: CodeDatasourceDown, Retryable: true,
			Msg:  fmt.Sprintf("datasource %q: its database file was replaced and is being opened again", ds.spec.ID),
			Hint: "send the request again in a few seconds: it is then answered from the new file"}
	}
	return fresh, nil
}

// movedToo reports whether ds's path names another file than ds opened.
func movedToo(ds *datasource) bool {
	fm, ok := ds.src.(fileMover)
	if !ok {
		return false
	}
	moved, err := fm.FileMoved()
	return moved || err != nil
}
