// Package traces keeps the request traces on disk: the background writer
// of the day files (storage.path/traces/traces-YYYY-MM-DD.jsonl, one
// compact JSON trace a line) with their retention, the index of every
// batch in a state store replicas share (PostgreSQL: so a replica finds a
// trace another served; a store of this server's own holds no second copy),
// finding one trace by id, and replaying a trace's model calls.
//
// It owns the trace's shape (Trace, its JSON line: Encode masks the
// credentials an error may carry; Read loads one back), the file layout,
// the writer's linger and the storage codes of a failing disk, and holds a
// request's trace while it runs (Recorder, carried in the context: model
// calls and concurrent steps record under its lock). It never decides
// which steps a trace records (the engine fills one per request as its
// steps run), and never slows a request: a full queue or a refusing disk
// drops traces and counts them.
//
// Worked example:
//
//	w := traces.Open(dir, traces.Retention{MaxAge: 30 * 24 * time.Hour}, st, log, nil)
//	w.Write(createdAt, line) // queued; written and indexed within Linger
//	w.Flush(5 * time.Second)
//	b, err := traces.Find(dir, "4bf92f3577b34da6a3ce929d0e0e4736")
//	// b is the trace's JSON line; a missing id wraps os.ErrNotExist
//	line, _ := traces.Encode(traces.Trace{ID: id, CreatedAt: t0, Question: "How many albums?"}, err)
//	// err REFUSED_BY_RULE: line holds "error":{"code":"REFUSED_BY_RULE",…}
//	t, err := traces.Read(dir, "4bf92f3577b34da6a3ce929d0e0e4736")
//	p := traces.NewPlanner(t.ModelCalls) // answers each recorded call again
//
// During a request:
//
//	rec := &traces.Recorder{T: traces.Trace{ID: id, CreatedAt: t0, Question: q}}
//	ctx = traces.With(ctx, rec)
//	traces.From(ctx).Call(req, resp, err, took) // a model call, from any goroutine
//	rec.Update(func(t *traces.Trace) { t.Scaling = report })
//	line, _ := traces.Encode(rec.Snapshot(), err)
package traces
