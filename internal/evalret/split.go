package evalret

import (
	"fmt"
	"hash/fnv"
)

// Split halves of a benchmark's databases. The ranking's constants may be
// tuned on SplitTuning only; SplitHeldOut measures how retrieval does on
// schemas nobody looked at while tuning.
const (
	SplitAll     = ""
	SplitTuning  = "tuning"
	SplitHeldOut = "heldout"
)

// HalfOf is the split half a database belongs to: held out when the
// 32-bit FNV-1a hash of its name (db_id, as written) is odd, tuning when it
// is even. The rule depends on the name only, so adding or removing a
// database never moves another one, and it was fixed before any figure of
// either half was looked at.
func HalfOf(db string) string {
	h := fnv.New32a()
	h.Write([]byte(db))
	if h.Sum32()%2 == 1 {
		return SplitHeldOut
	}
	return SplitTuning
}

// CheckSplit validates a Config.Split value.
func CheckSplit(s string) error {
	switch s {
	case SplitAll, SplitTuning, SplitHeldOut:
		return nil
	}
	return fmt.Errorf("split %q: want %q, %q or empty (all databases)", s, SplitTuning, SplitHeldOut)
}
