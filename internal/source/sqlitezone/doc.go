// Package sqlitezone registers on a modernc.org/sqlite driver
// tz_local_time(instant, zone), the wall-clock time an instant shows in a
// time zone of the IANA database, summer time included. SQLite holds no
// zone rules of its own; the renderer writes a plan's AT_TIME_ZONE with
// this function on SQLite, so it means there what AT TIME ZONE means on
// PostgreSQL and ICU's timezone() on DuckDB.
//
// The instant is text as strftime('%Y-%m-%d %H:%M:%f', x) writes it, a
// UTC time (the renderer passes it so: every instant spelling SQLite
// reads, 'T' or space, Z or offset, comes out in that one shape). The zone
// is a name of the tz database Go embeds (time/tzdata), spelled exactly
// ('Europe/London'; 'europe/london' is none). The result is the local
// time in the same shape, its fraction kept only when it has one, as the
// renderer writes the instants it reads. NULL in, NULL out; an instant
// the shape does not hold, or a zone that names none ('Local', ”,
// 'Mars/Olympus', a path), gives NULL rather than failing every other
// row, as the other engines' renderings do.
//
// The function is deterministic (one tz database per binary). A plain
// sqlite3 shell lacks it; the engine says so beside SQL that calls it.
//
// Worked example:
//
//	d := &sqlite.Driver{}
//	_ = sqlitezone.Register(d)
//	// on d's connections:
//	// SELECT tz_local_time('2024-07-01 06:30:00.000', 'Europe/London') → '2024-07-01 07:30:00'
//	// SELECT tz_local_time('2024-01-15 06:30:00.000', 'Europe/London') → '2024-01-15 06:30:00'
package sqlitezone
