package dictionary

import "time"

// SetBudget sets the time limit of the whole read and returns what
// restores it.
func SetBudget(d time.Duration) func() {
	old := budget
	budget = d
	return func() { budget = old }
}
