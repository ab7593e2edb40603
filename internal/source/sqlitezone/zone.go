package sqlitezone

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the same rules whatever the machine has installed

	"modernc.org/sqlite"
)

// Name is the name the function is registered under.
const Name = "tz_local_time"

// Register adds the function to the connections d opens.
func Register(d *sqlite.Driver) error { return register(d.RegisterFunction) }

// RegisterDefault adds it to the driver registered as "sqlite" (the
// connections sql.Open("sqlite", ...) opens after it); a second call
// fails as modernc refuses a name twice.
func RegisterDefault() error { return register(sqlite.RegisterFunction) }

func register(reg func(name string, impl *sqlite.FunctionImpl) error) error {
	impl := &sqlite.FunctionImpl{NArgs: 2, Deterministic: true,
		Scalar: func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			return LocalTime(args[0], args[1]), nil
		}}
	if err := reg(Name, impl); err != nil {
		return fmt.Errorf("register %s: %w", Name, err)
	}
	return nil
}

// utcLayout is the shape the renderer passes instants in.
const utcLayout = "2006-01-02 15:04:05.000"

// LocalTime is tz_local_time over SQLite values: see the package comment.
func LocalTime(instant, zone driver.Value) driver.Value {
	s, ok := text(instant)
	if !ok {
		return nil
	}
	name, ok := text(zone)
	if !ok {
		return nil
	}
	loc := location(name)
	if loc == nil {
		return nil
	}
	t, err := time.ParseInLocation(utcLayout, s, time.UTC)
	if err != nil {
		return nil
	}
	local := t.In(loc)
	if local.Nanosecond() == 0 {
		return local.Format("2006-01-02 15:04:05")
	}
	return local.Format(utcLayout)
}

// text reads a TEXT (or BLOB) value.
func text(v driver.Value) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	}
	return "", false
}

// zones caches the zones loaded, by name; a name that names none is not
// kept (a column of arbitrary text would fill the cache).
var zones sync.Map

// location is the zone named name, nil when it names none. Local and ""
// are Go's names for the machine's zone and UTC, not tz database names.
func location(name string) *time.Location {
	if z, ok := zones.Load(name); ok {
		return z.(*time.Location)
	}
	if name == "" || name == "Local" || strings.ContainsAny(name, "\x00\\") {
		return nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	zones.Store(name, loc)
	return loc
}
