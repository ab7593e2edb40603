package lift

import "testing"

// DATE_ADD of a timestamp keeps its time of day, so the days from it to
// another time are the elapsed fraction SQLite's julianday difference
// gives, not whole calendar days (DATE_DIFF_DAYS), which the lift wrote
// while DATE_ADD gave a date.
func TestLiftDateAddOfATimestampIsATimestamp(t *testing.T) {
	checkLift(t, liftCase{"julianday difference from a shifted timestamp", "SELECT julianday(DATE_ADD('day', 1, invoicedate)) - julianday(duedate) AS d FROM invoice",
		`{"select":[{"expr":{"kind":"binary","op":"/","left":{"kind":"func","name":"ELAPSED_SECONDS","args":[
		  {"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","value":"day"},{"kind":"literal","value":1},{"kind":"column","table":"t1","column":"InvoiceDate"}]},
		  {"kind":"column","table":"t1","column":"DueDate"}]},"right":{"kind":"literal","type":"decimal","value":"86400.0"}},"alias":"d"}],"from":[{"table":"invoice","alias":"t1"}]}`}, DialectSQLite)
}
