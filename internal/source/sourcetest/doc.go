// Package sourcetest holds what the adapters' tests share — temporary
// databases on each engine (TempDB, DuckTempDB, NewPGFixture, one
// set-up through database/sql for the file engines), an adapter opened for
// the length of a test (Open) and its snapshot or profile (Snapshot,
// Profiled), the shared schema fixture and its expected snapshot and
// values, the hostile SQL cases with the run every adapter makes of them
// (RunHostileQueries) and the file state they must leave unchanged
// (FilesOf), the refusal, typed-value, row-limit, concurrency and row-cap
// checks each engine runs on its own cases, the lexical cases the gate
// must count as the engines do —
// and, in its own test files, the tests that run every engine side by side
// (value types, row caps, profiling past the sample bound, measurements).
//
// Product code never imports it (internal/arch tests that); it imports no
// adapter, so each adapter's own tests can use it.
package sourcetest
