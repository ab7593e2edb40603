package values

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// A rebuild after a schema change to a few tables of a large catalog
// should not read every other column's values from the database again:
// that read is most of a build. Build therefore records what it fetched
// per column under a FetchKey, and takes a column's values from
// Options.Prior, an earlier build's record, when the key is the same.
//
// The key hashes the column's whole table as the snapshot describes it
// (names, types, row count and every column's profile: samples, distinct
// counts, ranges) with the column and the fetch limit. It is the rule the
// snapshot loader already applies to profiles: a table whose schema and
// row count are unchanged keeps its stored profile, so its values are
// taken as unchanged too; a table whose row count or profile changed is
// read again.

// tableKey hashes one table as the snapshot describes it.
func tableKey(t schema.Table) string {
	b, err := json.Marshal(t)
	if err != nil { // an unsupported profile value: never reuse
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// fetchKey is the key of one column's fetch, "" when none can be made.
func fetchKey(tkey, column string, limit int) string {
	if tkey == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(tkey + "\x00" + column + "\x00" + strconv.Itoa(limit)))
	return hex.EncodeToString(sum[:16])
}

// Fetched is what the build fetched (or took from Options.Prior), per
// FetchKey: the record a later build takes as its Prior. Read only; nil
// for an index opened from storage.
func (x *Index) Fetched() map[string][]string { return x.fetched }

// Reused is how many columns' values the build took from Options.Prior
// instead of asking the Source.
func (x *Index) Reused() int { return x.reused }
