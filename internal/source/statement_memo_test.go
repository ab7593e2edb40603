package source

import (
	"fmt"
	"testing"
)

// A text that passed the gate under one dialect is remembered for that
// dialect only: PostgreSQL reads $$a;b$$ as one dollar-quoted string,
// SQLite as two statements, so after PostgreSQL accepted it SQLite must
// still refuse it — every time, and after the memory starts over.
func TestStatementGateRemembersPerDialect(t *testing.T) {
	const text = "SELECT $$a;b$$"
	for round := range 3 {
		if err := CheckStatement("postgres", text); err != nil {
			t.Fatalf("round %d: PostgreSQL refused %q: %v", round, text, err)
		}
		if err := CheckStatement("sqlite", text); err == nil {
			t.Fatalf("round %d: SQLite accepted %q after PostgreSQL did", round, text)
		}
		for i := range maxPassed { // fill the memory until it starts over
			if err := CheckStatement("sqlite", fmt.Sprintf("SELECT %d", i)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
