package planast

// PassedThrough is the column reference q's output column name is, when
// its select item is that bare column (SELECT s.status AS st: "st" is
// s.status); nil for a computed item, an unknown name, or a query with
// set operations (its rows come from several selects). The checks that
// read a column's profile follow a derived table's or a CTE's columns
// through it: their values are the inner column's.
func (q *Query) PassedThrough(name string) *Column {
	if q == nil || len(q.SetOps) > 0 {
		return nil
	}
	for _, it := range q.Select {
		c, ok := it.Expr.(*Column)
		if ok && (it.Alias == name || it.Alias == "" && c.Column == name) {
			return c
		}
	}
	return nil
}
