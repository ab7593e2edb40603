// Package retrieval is the retrieve step for one caller: which part of a
// datasource's schema the planner sees for a question, what search_schema
// returns for a client that plans itself, and which stored values a
// warning may name.
//
// It owns keeping all three within the caller's scope: the snapshot is
// filtered by the scope, the index is asked with the scope's reader as
// its filter, and matched or listed values are dropped for tables the
// caller reads through a row filter (the index holds values of every
// row). Without an index, or when the index fails, the planner sees the
// whole visible schema. It never opens or builds an index
// (engine/indexing), renders the schema context (the engine does, with
// the semantic layer) or writes the trace: Retrieve returns the selection
// for the caller to record.
//
// Worked example, Chinook with a role that may not read Customer.Email
// and reads Invoice through a row filter:
//
//	r := retrieval.For{Datasource: "chinook", Snap: snap, Index: idx, Scope: sc, Budget: budget, Log: log}
//	kept, sel := r.Retrieve(ctx, "How much did customers in Brazil spend?")
//	// kept: Customer (without Email), Invoice, … as ranked; sel.Values
//	//   names "Brazil" in Customer.Country, and no value of Invoice
//	_, err := r.Search(ctx, "email")
//	// no Customer.Email among the columns: the scope filtered the index
//	r.StoredValues()("main", "Invoice", "BillingCountry") // nil: row-filtered
package retrieval
