package normalize_test

import (
	"fmt"

	"github.com/nl2sql/nl2sql/planast/lift/normalize"
)

func ExampleSQL() {
	n := normalize.SQL("SELECT `a b` FROM t JOIN u LIMIT 5, 10", "sqlite")
	fmt.Println(n.SQL)
	fmt.Println(n.OrigPos(7))
	// Output:
	// SELECT "a b" FROM t JOIN u ON TRUE LIMIT 10 OFFSET 5
	// 7
}
