package sqlitezone

import (
	"database/sql"
	"database/sql/driver"
	"testing"

	"modernc.org/sqlite"
)

// The threat: "orders placed after 10 pm local time" over instants stored
// in UTC is counted by UTC hours on SQLite (46 where the answer is 8), or a
// host hand-writes each zone's summer-time rule into every query. Local
// time must follow the zone's rule on that day, keep what SQLite keeps of
// a second, and give NULL, never a wrong time or an error for every row,
// of a zone that names none: Go's own names for the machine's zone and
// for UTC ('Local', ”) are no tz database names, and a path is none.
func TestLocalTime(t *testing.T) {
	for _, c := range []struct {
		instant, zone driver.Value
		want          driver.Value
	}{
		{"2024-07-01 06:30:00.000", "Europe/London", "2024-07-01 07:30:00"},
		{"2024-01-15 06:30:00.000", "Europe/London", "2024-01-15 06:30:00"},
		// the US changed on 10 March 2024 at 2:00 local, Europe on 31 March
		{"2024-03-10 06:59:59.000", "America/Chicago", "2024-03-10 00:59:59"},
		{"2024-03-10 08:00:00.000", "America/Chicago", "2024-03-10 03:00:00"},
		{"2024-03-31 00:30:00.250", "Europe/Berlin", "2024-03-31 01:30:00.250"},
		{"2024-03-31 01:30:00.000", "Europe/Berlin", "2024-03-31 03:30:00"},
		{"2024-01-01 00:00:00.000", "Asia/Kolkata", "2024-01-01 05:30:00"},
		{[]byte("2024-01-01 00:00:00.000"), []byte("UTC"), "2024-01-01 00:00:00"},
		{"2024-01-01 00:00:00.000", "europe/london", nil},
		{"2024-01-01 00:00:00.000", "Local", nil},
		{"2024-01-01 00:00:00.000", "", nil},
		{"2024-01-01 00:00:00.000", "../../../etc/passwd", nil},
		{"2024-01-01 00:00:00.000", "Mars/Olympus", nil},
		{"2024-01-01 00:00:00.000", nil, nil},
		{nil, "Europe/London", nil},
		{"yesterday", "Europe/London", nil},
		{int64(1704067200), "Europe/London", nil},
	} {
		if got := LocalTime(c.instant, c.zone); got != c.want {
			t.Errorf("LocalTime(%v, %v) = %v, want %v", c.instant, c.zone, got, c.want)
		}
	}
}

// Registered on a driver, the function is what its connections call.
func TestRegister(t *testing.T) {
	d := &sqlite.Driver{}
	if err := Register(d); err != nil {
		t.Fatal(err)
	}
	sql.Register("sqlite-zone-test", d)
	db, err := sql.Open("sqlite-zone-test", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got string
	if err := db.QueryRow(`SELECT tz_local_time(strftime('%Y-%m-%d %H:%M:%f', '2024-07-01T06:30:00+02:00'), 'America/New_York')`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "2024-07-01 00:30:00" {
		t.Errorf("got %q", got)
	}
}
