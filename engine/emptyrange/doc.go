// Package emptyrange explains an empty result: when a plan compares a date
// or timestamp column with literals outside the range the snapshot's
// profile recorded for that column, the host reads "no rows" as "no
// sales" unless it is told the data stop earlier.
//
// It owns that one check, read from the validated plan and the snapshot
// only. It never queries a datasource, never changes a plan or a result,
// and never decides whether a warning is shown: the pipeline calls it
// after an empty execution and appends what it returns.
//
// Worked example: Chinook's invoices run 2021..2025 in the
// profile; for the plan
//
//	SELECT i.InvoiceId FROM Invoice i
//	WHERE i.InvoiceDate BETWEEN '1997-01-01' AND '1997-12-31'
//
// Warnings(snap, plan) returns one warning naming Invoice.InvoiceDate and
// its profiled range, while a filter inside 2021..2025 returns none.
package emptyrange
