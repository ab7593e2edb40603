package sqlitestats

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"modernc.org/sqlite"
)

// Names are the registered aggregates, lower-case, each with its result.
var Names = []string{"stddev_samp", "stddev_pop", "var_samp", "var_pop"}

// registrar is what both the package-level driver and a *sqlite.Driver
// offer.
type registrar func(name string, impl *sqlite.FunctionImpl) error

// Register adds the aggregates to d, reaching only the connections d opens.
func Register(d *sqlite.Driver) error { return register(d.RegisterFunction) }

// RegisterDefault adds the aggregates to the driver registered as "sqlite"
// (the connections sql.Open("sqlite", ...) opens after it); a second call
// fails as modernc refuses a name twice.
func RegisterDefault() error { return register(sqlite.RegisterFunction) }

func register(reg registrar) error {
	for _, n := range Names {
		sample, root := n == "stddev_samp" || n == "var_samp", n == "stddev_samp" || n == "stddev_pop"
		impl := &sqlite.FunctionImpl{NArgs: 1, Deterministic: true,
			MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) {
				return &exact{sample: sample, root: root}, nil
			}}
		if err := reg(n, impl); err != nil {
			return fmt.Errorf("register %s: %w", n, err)
		}
	}
	return nil
}

// sumsPrec is the precision of the running sums: a square of a double
// needs 106 bits, and 1024 keep sums of values of very different sizes
// exact, so the only roundings left are the final division and root.
const sumsPrec = 1024

// exact is one running aggregate: the count and the exact sums of the
// values and of their squares.
type exact struct {
	sample, root bool
	n            int64
	s1, s2       *big.Float
	inf          bool
}

func (w *exact) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	x, ok, err := number(args[0])
	if err != nil || !ok {
		return err
	}
	if math.IsInf(x, 0) || math.IsNaN(x) {
		w.inf = true
		return nil
	}
	if w.s1 == nil {
		w.s1, w.s2 = new(big.Float).SetPrec(sumsPrec), new(big.Float).SetPrec(sumsPrec)
	}
	w.n++
	bx := new(big.Float).SetPrec(sumsPrec).SetFloat64(x)
	w.s1.Add(w.s1, bx)
	w.s2.Add(w.s2, bx.Mul(bx, bx))
	return nil
}

// WindowInverse is never needed: plans do not use these aggregates over
// windows (the validator refuses it).
func (w *exact) WindowInverse(*sqlite.FunctionContext, []driver.Value) error {
	return errors.New("sliding window frames are not supported")
}

func (w *exact) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	div := w.n
	if w.sample {
		div--
	}
	if div <= 0 || w.inf {
		// an infinite input: PostgreSQL gives NaN, which SQLite has not
		return nil, nil
	}
	// n·Σx² − (Σx)² = n·Σ(x − mean)², exactly
	const p = 2*sumsPrec + 64
	d := new(big.Float).SetPrec(p).Mul(new(big.Float).SetPrec(p).SetInt64(w.n), w.s2)
	d.Sub(d, new(big.Float).SetPrec(p).Mul(w.s1, w.s1))
	d.Quo(d, new(big.Float).SetPrec(p).SetInt64(w.n*div))
	v, _ := d.Float64()
	if w.root {
		v = math.Sqrt(v)
	}
	return v, nil
}

func (w *exact) Final(*sqlite.FunctionContext) {}

// number reads one argument as a double; ok is false for NULL. Text that
// is no number fails, as PostgreSQL's cast would.
func number(v driver.Value) (float64, bool, error) {
	switch v := v.(type) {
	case nil:
		return 0, false, nil
	case int64:
		return float64(v), true, nil
	case float64:
		return v, true, nil
	case string:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, false, fmt.Errorf("not a number: %q", v)
		}
		return f, true, nil
	}
	return 0, false, fmt.Errorf("not a number: %T", v)
}
