package planast

import "encoding/json"

// Questions about an expression that several stages ask (the validator,
// the lifter): answered once here, by walking the closed node set.

// IsAggregate reports whether f calls an aggregate function.
func IsAggregate(f *Func) bool {
	spec, ok := LookupFunc(f.Name)
	return ok && spec.Kind == Aggregate
}

// ContainsAggregate reports an aggregate call in e outside subqueries.
func ContainsAggregate(e Expr) bool {
	found := false
	Inspect(e, func(n Node) bool {
		switch x := n.(type) {
		case *Query:
			return false
		case *Func:
			if IsAggregate(x) {
				found = true
			}
		}
		return !found
	})
	return found
}

// Constant reports whether e names nothing that varies by row: no
// column, aggregate, window or subquery. As a sort or grouping key it
// means nothing (engines read a constant integer there as a column
// position); as a function's argument it cannot make the result NULL
// row by row.
func Constant(e Expr) bool {
	c := true
	Inspect(e, func(n Node) bool {
		switch x := n.(type) {
		case *Column, *Window, *Query:
			c = false
		case *Func:
			if spec, ok := LookupFunc(x.Name); !ok || spec.Kind != Scalar {
				c = false
			}
		}
		return c
	})
	return c
}

// ContainsWindow reports a window call in e outside subqueries.
func ContainsWindow(e Expr) bool {
	found := false
	Inspect(e, func(n Node) bool {
		switch n.(type) {
		case *Query:
			return false
		case *Window:
			found = true
		}
		return !found
	})
	return found
}

// Key is a structural key of an expression: two expressions have equal
// keys exactly when they encode alike (the encoding is canonical:
// encode.go), so "the same expression" means the same thing to every
// stage.
func Key(e Expr) string {
	b, _ := json.Marshal(e)
	return string(b)
}
