package engine

import (
	"context"
	"errors"
	"time"

	"github.com/nl2sql/nl2sql/engine/opening"
	"github.com/nl2sql/nl2sql/engine/snapshots"
	"github.com/nl2sql/nl2sql/internal/source"
)

// schemaCheckEvery bounds how often a call reads its datasource's schema
// version: the read is one small catalog statement, and a schema changed
// a moment ago is seen by the calls of the next moment.
var schemaCheckEvery = 2 * time.Second

// schemaVersioner is a source whose schema can change while the server
// runs and that can tell so cheaply (SQLite's schema cookie, a digest of
// PostgreSQL's catalog). A source without it (DuckDB, whose file no other
// process can write while it is open) is read once per open.
type schemaVersioner interface {
	SchemaVersion(ctx context.Context) (string, error)
}

// schemaVersion is src's schema version, "" when it has none or cannot
// read it (no renewal is ever started from ""); the error is only that of
// a file removed from under the datasource (source.ErrFileGone) or one
// replaced that can only be opened once the old one is closed
// (source.ErrFileReplaced).
func schemaVersion(ctx context.Context, src Source) (string, error) {
	sv, ok := src.(schemaVersioner)
	if !ok {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	v, err := sv.SchemaVersion(ctx)
	if errors.Is(err, source.ErrFileGone) || errors.Is(err, source.ErrFileReplaced) {
		return "", err
	}
	if err != nil {
		return "", nil
	}
	return v, nil
}

// current returns ds, or ds opened again when its path names another
// file than the one it opened (checked on every call, sameFile), or ds
// read again when its schema changed since it was opened (a table
// created, dropped or altered while the server runs): at most every
// schemaCheckEvery per datasource, one call reads the
// version; a changed one renews the datasource, which this call waits for
// as for a first open (Options.OpenWait) while the other calls go on with
// ds. Without the check a new table stayed invisible, and a dropped
// column failed every plan, until the server restarted. A datasource open
// for longer than Options.ProfileMaxAge whose data changed since (its
// state token moved, or it has none) is profiled again in the background,
// ds answering meanwhile.
func (e *Engine) current(ctx context.Context, ds *datasource) (*datasource, error) {
	e.verifyPresumed(ds)
	if fresh, err := e.sameFile(ctx, ds); fresh != ds || err != nil {
		return fresh, err
	}
	if fresh, checked, err := e.schemaMoved(ctx, ds); !checked || fresh != ds || err != nil {
		return fresh, err
	}
	if time.Since(ds.openedAt) > e.opts.ProfileMaxAge && (ds.stateTok == "" || stateToken(ctx, ds.src) != ds.stateTok) {
		// the rule a restart applies to a stored profile, applied to a
		// server that runs for longer: ranges and samples of data written
		// since would otherwise stay out of date for as long as it runs
		e.log.Info("the datasource's profile is past its age and its data changed; profiling it again", "datasource", ds.spec.ID, "max_age", e.opts.ProfileMaxAge)
		e.sources.RenewLater(ds.spec.ID)
	}
	return ds, nil
}

// schemaMoved compares ds's schema version with its source's, unless a
// call did so less than schemaCheckEvery ago (checked false), and returns
// ds, or ds renewed (as current describes) when the version moved.
func (e *Engine) schemaMoved(ctx context.Context, ds *datasource) (fresh *datasource, checked bool, err error) {
	now := time.Now().UnixNano()
	last := ds.schemaChecked.Load()
	if now-last < int64(schemaCheckEvery) || !ds.schemaChecked.CompareAndSwap(last, now) {
		return ds, false, nil
	}
	fresh, _, err = e.versionMoved(ctx, ds)
	return fresh, true, err
}

// recheck is schemaMoved without the throttle, for a call that has a
// reason to doubt the snapshot now (a plan naming what it lacks, a
// statement failing on what it holds): each such call reads the version
// once, so a table created a moment ago is answered at once rather than
// refused until the next periodic check. A client that keeps naming what
// does not exist costs one version read (one small catalog statement)
// per call it makes, never more.
func (e *Engine) recheck(ctx context.Context, ds *datasource) (fresh *datasource, moved bool, err error) {
	ds.schemaChecked.Store(time.Now().UnixNano())
	return e.versionMoved(ctx, ds)
}

// versionMoved reads ds's schema version and returns ds, or ds renewed
// when the version moved (moved), as current describes.
func (e *Engine) versionMoved(ctx context.Context, ds *datasource) (*datasource, bool, error) {
	v, err := schemaVersion(ctx, ds.src)
	if errors.Is(err, source.ErrFileReplaced) {
		e.log.Info("the datasource's file was replaced; opening the new one", "datasource", ds.spec.ID)
		fresh, err := e.sources.Reopen(ctx, ds.spec.ID, e.opts.OpenWait)
		return fresh, true, err
	}
	if err != nil {
		return ds, false, e.fileGone(ds, err)
	}
	if v != "" && v != ds.schemaVer {
		e.log.Info("the datasource's schema changed since it was read; reading it again", "datasource", ds.spec.ID)
		fresh, err := e.sources.Renew(ctx, ds.spec.ID, e.opts.OpenWait)
		if re := (*opening.RenewError)(nil); errors.As(err, &re) {
			// the schema could not be read again: the opened one answers
			e.log.Warn("cannot read the changed schema; answering from the one read before", "datasource", ds.spec.ID, "err", re.Err)
			return fresh, true, nil
		}
		return fresh, true, err
	}
	return ds, false, nil
}

// fileGone closes ds, whose file was removed, and returns err, the
// adapter's error saying so: answering on from the open handle would
// show data that is no longer anywhere; the next call opens the path
// again (and fails until a file is back).
func (e *Engine) fileGone(ds *datasource, err error) error {
	e.log.Warn("the datasource's file was removed; closing it", "datasource", ds.spec.ID)
	e.sources.Drop(ds.spec.ID)
	return sourceError(err, ds.spec.ID)
}

// stateToken is src's state token, "" when it has none or cannot read
// it (a renewal is then due by age alone).
func stateToken(ctx context.Context, src Source) string {
	tok, _ := snapshots.StateToken(ctx, src)
	return tok
}

// verifyPresumed starts, once, the full check of a datasource opened on a
// presumed snapshot (SnapshotPresumed: its schema version as recorded, its
// rows not counted): the datasource is opened again in the background,
// which counts the rows and profiles what changed, while ds answers. A
// snapshot presumed and never checked would keep a profile of data that
// changed since for as long as the server runs.
func (e *Engine) verifyPresumed(ds *datasource) {
	if ds.status == SnapshotPresumed && ds.checking.CompareAndSwap(false, true) {
		e.log.Info("the datasource's schema is as recorded; counting its rows in the background", "datasource", ds.spec.ID)
		e.sources.RenewLater(ds.spec.ID)
	}
}
