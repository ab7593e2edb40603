// Package sourcetest holds what the adapters' tests share — temporary
// databases on each engine (TempDB, DuckTempDB, NewPGFixture), the shared
// schema fixture and its expected snapshot, the hostile SQL cases, the
// row-cap cases, the lexical cases the gate must count as the engines do —
// and, in its own test files, the tests that run every engine side by side
// (value types, row caps, profiling past the sample bound, measurements).
//
// Product code never imports it (internal/arch tests that); it imports no
// adapter, so each adapter's own tests can use it.
package sourcetest
