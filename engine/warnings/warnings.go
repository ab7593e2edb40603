package warnings

import (
	"slices"

	"github.com/nl2sql/nl2sql/engine/emptyrange"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// Of lists the warnings a run earns from its plan, in order: ties, the
// columns read as their type and the text columns whose cast read values
// as NULL (mixedWarnings), the tables read that were empty when profiled
// (emptyTables: then, if its filters matched nothing, no other warning
// but the SQLite notes), then (when its filters matched nothing: no rows,
// or an ungrouped aggregate of nothing such as a count of 0) the date
// ranges, then the keys that pair rows only loosely (keyWarnings),
// then the filters, then the literals that match one of several spellings
// (variantLiterals), then the text literals no stored value equals that
// those did not already quote (absentLiterals). A long fix two warnings
// give is written once (shareFixes).
func Of(snap *schema.Snapshot, dialect string, plan *planast.Query, run Run) []string {
	empty := matchedNothing(plan, run.Rows)
	if !empty {
		// rows came back: the ties, then what the plan earns before it runs
		var out []string
		if w := Ties(plan, len(run.Rows)); w != "" {
			out = append(out, w)
		}
		out = append(out, zeroRatios(plan, run.Rows)...)
		if run.Static != nil {
			return append(out, run.Static()...)
		}
		return append(out, Static(snap, dialect, plan, run.Stored)...)
	}
	out := append(mixedWarnings(snap, plan), zeroRatios(plan, run.Rows)...)
	if w := emptyTables(snap, plan, true); w != "" {
		// the filters are not why: no guess at ranges, case or spelling
		return append(out, append([]string{w}, Filters(snap, dialect, plan, false, nil)...)...)
	}
	// cheap: the plan and the profile in the snapshot, no query
	out = append(out, emptyrange.Warnings(snap, plan)...)
	out = append(out, roundedIntegers(plan)...)
	return shareFixes(append(out, unread(snap, dialect, plan, run.Stored, true, out)...))
}

// Static are the warnings a plan earns before it runs, from the
// snapshot's profile and the stored values alone: what Of would say of a
// run that returned rows, but ties. check_plan shows them, so a host that
// checks before it runs is told what the run would tell it.
func Static(snap *schema.Snapshot, dialect string, plan *planast.Query, stored func(string, string, string) []string) []string {
	out := mixedWarnings(snap, plan)
	if w := emptyTables(snap, plan, false); w != "" {
		out = append(out, w)
	}
	return shareFixes(append(out, unread(snap, dialect, plan, stored, false, out)...))
}

// unread are the warnings of Of and Static that need no row: the keys
// (those that pair loosely, those often NULL, those the other side never
// holds), the filters, the literals that match one spelling of several, the
// case-sensitive likes that miss stored values for their case, the
// groups split by spelling, the text comparisons of dates written in
// several forms and the pieces of their text taken or grouped by
// (textDatePieces), the divisions by a column holding 0, the views that
// count test or deleted rows their definitions never filter, and the literals
// no stored value equals that the warnings before them (said) do not
// already quote.
func unread(snap *schema.Snapshot, dialect string, plan *planast.Query, stored func(string, string, string) []string, empty bool, said []string) []string {
	out := keyWarnings(snap, plan, stored, empty)
	out = append(out, nullKeys(snap, plan)...)
	out = append(out, unpairedKeys(snap, plan, stored)...)
	out = append(out, Filters(snap, dialect, plan, empty, stored)...)
	out = append(out, variantLiterals(snap, plan, stored)...)
	out = append(out, foldNearMisses(snap, plan, stored)...)
	out = append(out, nearGroups(snap, plan, stored)...)
	out = append(out, likeCaseMisses(snap, plan, stored, empty)...)
	out = append(out, decomposedPatterns(plan)...)
	out = append(out, splitGroups(snap, plan, stored)...)
	out = append(out, textDateFilters(snap, plan)...)
	out = append(out, epochUnits(snap, plan)...)
	out = append(out, unixTextFilters(snap, plan, empty)...)
	out = append(out, viewBooleans(snap, plan)...)
	out = append(out, spelledBooleans(snap, plan)...)
	out = append(out, offsetDays(snap, plan)...)
	out = append(out, localTimes(snap, plan)...)
	out = append(out, unknownZones(snap, plan)...)
	out = append(out, textAmountFilters(snap, plan)...)
	out = append(out, textAmountOrders(snap, plan)...)
	out = append(out, textDateOrders(snap, plan)...)
	out = append(out, textDatePieces(snap, plan)...)
	out = append(out, blankCounts(snap, plan)...)
	out = append(out, blankGroups(snap, plan)...)
	out = append(out, inexactAverages(snap, plan)...)
	out = append(out, reversedPositions(plan)...)
	out = append(out, finerGroups(plan)...)
	out = append(out, sentinelAggregates(snap, plan)...)
	out = append(out, nullTerms(snap, plan)...)
	columns := readColumns(plan)
	out = append(out, repeatedKeys(snap, plan, columns)...)
	out = append(out, zeroDivisors(snap, plan)...)
	out = append(out, inexactLiterals(dialect, plan)...)
	out = append(out, specialAggregates(snap, plan)...)
	out = append(out, mixedCurrencies(snap, plan, stored)...)
	out = append(out, unitFilters(snap, plan, stored)...)
	out = append(out, testRecords(snap, plan, columns)...)
	out = append(out, deletedRows(snap, plan, columns)...)
	out = append(out, viewHiddenRows(snap, plan, columns)...)
	return append(out, absentLiterals(snap, plan, stored, append(slices.Clone(said), out...))...)
}
