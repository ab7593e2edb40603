// Package events is the catalogue of what a run reports, the bus that
// delivers it, and the observers that watch it without ever slowing or
// failing a run.
//
// Catalogue: run.started, run.finished, step.started, step.finished,
// model.call, validation.failed, access.denied, cache.hit, hook.decision,
// approval.decided. Each is a Go struct whose JSON fields are listed in
// Catalogue; none carries result rows, sample values, bound arguments,
// prompts or secrets (a test rejects rows-like field names and open
// types). Publish refuses an uncatalogued event or one whose fields differ
// from its entry: in Strict mode (tests) by panicking, otherwise by logging
// and dropping it.
//
// Caller-safe events (CallerSafe: run.started, run.finished, step.started,
// step.finished) may be streamed to the caller; hook decisions, access
// denials and reasons never are.
//
// Observers fail open: a panicking observer is logged once per event name
// and skipped. Audit writes one JSON line per finished run to
// storage.path/audit/audit-YYYY-MM-DD.jsonl from a bounded queue on its own
// goroutine (AuditQueue lines; more are dropped and counted, never waited
// for). OTel records metrics under the MCP and GenAI semantic conventions
// (see OTel); the spans come from the engine itself, one trace per request.
//
// A worked example:
//
//	audit, _ := events.OpenAudit(filepath.Join(storagePath, "audit"), logger, store.CodeOf)
//	defer audit.Close() // flushes the queue
//	bus := events.NewBus(logger, audit)
//	bus.Publish(ctx, events.RunFinished{RunID: "r1", Kind: "ask", Status: "ok", RowCount: 3, DurationMS: 41})
//	// audit-2026-01-15.jsonl gains:
//	// {"duration_ms":41,"event":"run.finished","kind":"ask","row_count":3,"run_id":"r1","status":"ok","time":"…","truncated":false}
package events
