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
