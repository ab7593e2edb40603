package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
)

// SortTables sorts s.Tables by (Schema, Name), byte-wise, the order a
// Snapshot keeps.
func (s *Snapshot) SortTables() {
	slices.SortStableFunc(s.Tables, func(a, b Table) int {
		if c := strings.Compare(a.Schema, b.Schema); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}

// Fingerprint is the lower-case hex sha256 of the snapshot's canonical JSON:
// encoding/json of the Snapshot, whose field order is fixed by the struct
// definitions and whose tables are sorted (a copy is sorted; s is not
// changed). It covers the profile too, so re-profiling changed data changes
// the fingerprint.
func (s *Snapshot) Fingerprint() string {
	c := *s
	c.Tables = slices.Clone(s.Tables)
	c.SortTables()
	b, err := json.Marshal(&c)
	if err != nil {
		// Only unsupported values (a NaN float, a channel in a profile) can
		// fail; hash their error text so the result stays deterministic.
		b = []byte("unmarshalable snapshot: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
