package hooks_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/hooks"
)

func Example() {
	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Invoice"}}
	r, err := hooks.NewRunner([]hooks.Entry{{Name: "no_invoices", Points: rule.Points(), Hook: rule}}, nil)
	if err != nil {
		panic(err)
	}
	_, err = r.Run(context.Background(), hooks.AfterPlanning, hooks.Input{Tables: []string{"chinook.main.Invoice"}})
	var de *hooks.DeniedError
	fmt.Println(errors.As(err, &de), de.Point, de.Hook, de.Reason)
	fmt.Println(hooks.Permits(hooks.AfterExecution, hooks.Modify))
	// Output:
	// true after_planning no_invoices the plan reads table chinook.main.Invoice
	// false
}
