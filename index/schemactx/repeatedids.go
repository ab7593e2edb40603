package schemactx

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nl2sql/nl2sql/index/lex"
	"github.com/nl2sql/nl2sql/internal/plural"
	"github.com/nl2sql/nl2sql/internal/schema"
)

// idWords are the last words of a column's name that say it names one
// thing each (gateway_txn_id, confirmation_no, order_ref, event_uuid).
var idWords = []string{"id", "ref", "reference", "uuid", "guid", "no", "number", "key"}

// RepeatedIDs reports how many rows of t repeat a value of c where c
// names one thing per row nearly everywhere: an identifier by its name,
// not the table's primary key nor a declared foreign key, whose values
// are distinct on at least 90% of its rows but not all. A payment whose
// gateway transaction id another row carries too may be a copy from a
// retried import, which a sum counts twice, or a row of one thing with
// it (a commission and its reversal): the note says which to check, not
// what to do. A foreign key repeats by nature (each order of one
// customer) and is left out, declared, named after another table of the
// snapshot (customer_id beside a customers table) or named as a key
// another table declares (credit_notes.customer_id where invoices
// declares customer_id a foreign key), as is any column that repeats
// more.
func RepeatedIDs(snap *schema.Snapshot, t *schema.Table, c *schema.Column) (int64, bool) {
	p := c.Profile
	if p == nil || t.RowCount == nil || slices.Contains(t.PrimaryKey, c.Name) {
		return 0, false
	}
	n := *t.RowCount
	if p.SampledRows > 0 {
		n = p.SampledRows
	}
	rows := int64(float64(n)*(1-p.NullFraction) + 0.5)
	if rows < 20 || p.DistinctCount >= rows || p.DistinctCount*10 < rows*9 {
		return 0, false
	}
	for _, fk := range t.ForeignKeys {
		if slices.Contains(fk.Columns, c.Name) {
			return 0, false
		}
	}
	words := lex.SplitWords(c.Name)
	if len(words) < 2 || !slices.Contains(idWords, words[len(words)-1]) {
		return 0, false // a bare id is the key's; a name with no id word is data
	}
	if namesTable(snap, t, words[:len(words)-1]) || foreignElsewhere(snap, c.Name) {
		return 0, false
	}
	return rows - p.DistinctCount, true
}

// foreignElsewhere reports whether a table of snap declares a foreign key
// on a column named name (invoices.customer_id pointing at account_keys):
// the same name in another table is the same reference, undeclared there.
func foreignElsewhere(snap *schema.Snapshot, name string) bool {
	if snap == nil {
		return false
	}
	for i := range snap.Tables {
		for _, fk := range snap.Tables[i].ForeignKeys {
			if slices.ContainsFunc(fk.Columns, func(c string) bool { return strings.EqualFold(c, name) }) {
				return true
			}
		}
	}
	return false
}

// namesTable reports whether words (a column's name before its id word)
// name another table of snap, in the singular or plural: the column then
// points at that table's rows, many of its own to one of them.
func namesTable(snap *schema.Snapshot, self *schema.Table, words []string) bool {
	if snap == nil {
		return false
	}
	want := plural.Singular(strings.Join(words, ""))
	for i := range snap.Tables {
		o := &snap.Tables[i]
		if o.Name == self.Name && o.Schema == self.Schema {
			continue
		}
		if plural.Singular(strings.Join(lex.SplitWords(o.Name), "")) == want {
			return true
		}
	}
	return false
}

// RepeatedIDsNote is what a schema says of such a column, for a planner.
func RepeatedIDsNote(extra int64) string {
	return fmt.Sprintf("nearly unique: %d rows repeat another row's value, copies from a retried import or several rows of one thing (a reversal, a re-issue): check which before counting or summing", extra)
}
