package render

import (
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Flavors are the distributed SQL engines a postgres datasource may name
// (datasource flavor:), each speaking PostgreSQL's wire protocol. See
// docs/distributed.md for the differences and what is tested.
//
//   - cockroachdb renders with CockroachDB (below);
//   - yugabytedb and citus render as Postgres: YSQL reuses PostgreSQL's
//     query layer, and Citus is a PostgreSQL extension whose limits
//     (cross-shard window functions, correlated subqueries, outer joins off
//     the distribution column) are on the server's side and come back as
//     query errors, not as SQL a renderer could avoid.
var Flavors = []string{"citus", "cockroachdb", "yugabytedb"}

// LookupFlavor returns the dialect for a datasource of dialect name and
// flavor: Lookup(name) when flavor is "", else the flavor's dialect. ok is
// false for an unknown name, or for a flavor on anything but "postgres".
//
//	d, _ := render.LookupFlavor("postgres", "cockroachdb") // render.CockroachDB{}
//	d, _ = render.LookupFlavor("postgres", "citus")        // render.Postgres{}
func LookupFlavor(name, flavor string) (Dialect, bool) {
	if flavor == "" {
		return Lookup(name)
	}
	if !strings.EqualFold(name, "postgres") {
		return nil, false
	}
	switch strings.ToLower(flavor) {
	case "cockroachdb":
		return CockroachDB{}, true
	case "yugabytedb", "citus":
		return Postgres{}, true
	}
	return nil, false
}

// CockroachDB renders for CockroachDB 22.1 or newer (ORDER BY … NULLS
// FIRST/LAST arrived in 22.1). It is Postgres except for:
//
//   - DATE_ADD multiplies a unit interval (INTERVAL '1 month' * n) instead
//     of calling make_interval, which CockroachDB lacks;
//   - CONCAT casts every operand to TEXT (CockroachDB has no || between a
//     string and a number; PostgreSQL's anynonarray || text does that
//     cast implicitly);
//   - a window's ORDER BY sorts NULLs with an explicit (x IS NULL) key,
//     since CockroachDB refuses a non-default NULLS order inside OVER
//     (cockroachdb/cockroach#93419) and its default puts NULLs first in
//     ascending order, PostgreSQL's last.
//
// Each form is also valid PostgreSQL with the same result, which is how it
// is tested (flavor_test.go runs every golden plan both ways on
// PostgreSQL); nothing here has run on CockroachDB itself.
type CockroachDB struct{ Postgres }

func (CockroachDB) Name() string { return "cockroachdb" }

func (c CockroachDB) Func(name string, a []string) (string, bool) {
	if name == "UPPER" || name == "LOWER" {
		return c.foldCase(name, a[0]), true
	}
	if name == "CONCAT" {
		parts := make([]string, len(a))
		for i, x := range a {
			parts[i] = "CAST(" + x + " AS TEXT)"
		}
		return "(" + strings.Join(parts, " || ") + ")", true
	}
	if name == "FROM_EPOCH_SECONDS" {
		// an integer quotient is a DECIMAL on CockroachDB, where an
		// interval times an integer is exact
		return "(TIMESTAMP '1970-01-01 00:00:00' + CAST(FLOOR(" + a[0] + ") AS BIGINT) * INTERVAL '1 millisecond')", true
	}
	if name == "ELAPSED_SECONDS" {
		// CockroachDB has no infinite timestamps
		return elapsedSeconds(a[0], a[1], "NUMERIC", "DOUBLE PRECISION", false), true
	}
	return pgLikeFunc(name, a, "DOUBLE PRECISION", "NUMERIC", crdbShift, func(end, start string) string {
		return "(CAST(" + end + " AS DATE) - CAST(" + start + " AS DATE))"
	})
}

// crdbShift is the timestamp ts moved by n units on CockroachDB.
func crdbShift(unit, n, ts string) string {
	iv := map[string]string{"year": "1 year", "quarter": "3 months", "month": "1 month"}[unit]
	if iv == "" {
		iv = "1 day"
	}
	return ts + " + CAST(" + n + " AS INTEGER) * INTERVAL '" + iv + "'"
}

// AddToTimestamp: see timestampAdder.
func (CockroachDB) AddToTimestamp(unit, n, x string) string {
	return pgAddToTimestamp(unit, n, x, crdbShift)
}

// emulateWindowNulls is implemented by dialects whose window ORDER BY takes
// no NULLS FIRST/LAST.
type emulateWindowNulls interface{ windowNullsByKey() }

func (CockroachDB) windowNullsByKey() {}

// windowOrderKey renders one ORDER BY key of a window: x with its
// direction and NULLS clause, or, for a dialect that emulates it, a
// leading (x IS NULL) key that puts the NULLs where o asks.
func windowOrderKey(d Dialect, x string, o planast.OrderItem) string {
	dir := " ASC"
	if o.Direction == planast.Desc {
		dir = " DESC"
	}
	if _, ok := d.(emulateWindowNulls); ok {
		if o.Nulls == planast.NullsFirst {
			return "(" + x + " IS NULL) DESC, " + x + dir
		}
		return "(" + x + " IS NULL) ASC, " + x + dir
	}
	if o.Nulls == planast.NullsFirst {
		return x + dir + " NULLS FIRST"
	}
	return x + dir + " NULLS LAST"
}

// WithFold returns d folding UPPER and LOWER under the collation coll
// (Postgres.Fold); d itself for "" or a dialect without collations.
func WithFold(d Dialect, coll string) Dialect {
	switch x := d.(type) {
	case Postgres:
		x.Fold = coll
		return x
	case CockroachDB:
		x.Fold = coll
		return x
	}
	return d
}
