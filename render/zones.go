package render

import "github.com/nl2sql/nl2sql/planast"

// AT_TIME_ZONE(instant, zone) is the wall clock the instant shows in the
// zone. The instant is a timestamp read as UTC (a timestamptz cast to
// timestamp is its UTC time: both adapters run their sessions in UTC),
// made the instant of that UTC time whatever the session's zone, then
// read in the zone by the engine's tz rules. SQLite holds none: the
// adapter registers tz_local_time (package sqlitezone), which reads Go's
// tz database. Every dialect is a zoneReader.
//
// A zone read from a column may hold a name the engine does not know
// ('Mars/Olympus', 'europe/london', 'UTC+3'); PostgreSQL would fail the
// whole query on it, or read 'UTC+3' as three hours west (POSIX), and
// DuckDB fail it or guess. Such a zone gives NULL on both: the call is
// guarded by the engine's own list of zone names, compared exactly, so
// one bad row does not fail every other row and a POSIX offset means
// nothing anywhere. A literal zone was checked by Validate (a tz
// database name) and is not guarded: the list costs PostgreSQL a scan of
// its zone files (some 50 ms per query).

// zoneReader is implemented by the dialects that hold time-zone rules.
type zoneReader interface {
	// AtTimeZone is the timestamp (without zone) the instant x, a
	// timestamp read as UTC, shows in zone.
	AtTimeZone(x, zone string) string
	// KnownZone is the condition that zone names a zone of the engine's
	// list, spelled exactly as listed; "" where AtTimeZone gives NULL of
	// any other zone itself.
	KnownZone(zone string) string
}

// atTimeZone renders AT_TIME_ZONE f over its rendered args.
func (w *writer) atTimeZone(f *planast.Func, args []string) string {
	z, ok := w.d.(zoneReader)
	if !ok {
		w.fail("AT_TIME_ZONE has no rendering for %s", w.d.Name())
	}
	s := z.AtTimeZone(args[0], args[1])
	known := z.KnownZone(args[1])
	if lit, ok := f.Args[1].(*planast.Literal); ok && lit.Type == planast.TString || known == "" {
		return s
	}
	return "(CASE WHEN " + known + " THEN " + s + " END)"
}

// AtTimeZone: the UTC time made a timestamptz AT TIME ZONE 'UTC', read in
// the zone AT TIME ZONE zone.
func (Postgres) AtTimeZone(x, zone string) string {
	return "((CAST(" + x + " AS TIMESTAMP) AT TIME ZONE 'UTC') AT TIME ZONE " + zone + ")"
}

// KnownZone: pg_timezone_names lists the server's tz database, which
// AT TIME ZONE reads; PostgreSQL builds the list once per query (a
// hashed subplan).
func (Postgres) KnownZone(zone string) string {
	return "(" + zone + " IN (SELECT name FROM pg_catalog.pg_timezone_names))"
}

// AtTimeZone: ICU's timezone(zone, x), which DuckDB links in (the
// adapters set TimeZone with it): of a timestamp it is the instant of
// that wall clock in zone, of a timestamptz the wall clock of the
// instant.
func (DuckDB) AtTimeZone(x, zone string) string {
	return "timezone(" + zone + ", timezone('UTC', CAST(" + x + " AS TIMESTAMP)))"
}

// KnownZone: ICU's zone names, as DuckDB lists them.
func (DuckDB) KnownZone(zone string) string {
	return "(" + zone + " IN (SELECT name FROM pg_timezone_names()))"
}

// AtTimeZone: tz_local_time, which the SQLite adapter registers (package
// sqlitezone), of the instant in strftime's one shape (a 'T', a Z or an
// offset read into a UTC time, as every SQLite date function reads them).
func (SQLite) AtTimeZone(x, zone string) string {
	return "tz_local_time(strftime('%Y-%m-%d %H:%M:%f', " + x + "), " + zone + ")"
}

// KnownZone: tz_local_time gives NULL of a zone it does not know.
func (SQLite) KnownZone(string) string { return "" }
