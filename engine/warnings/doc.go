// Package warnings reads, off a validated plan, the snapshot's profile and
// the number of rows a run returned, the warnings that keep a host from
// misreading a correct result (a column read through a derived table or
// a CTE that passes it through as it is has its stored column's profile:
// emptyrange.TableOfColumn): rows added by limit with ties or a RANK
// top k (Ties), an empty result whose date filters fall outside the
// profiled range (engine/emptyrange), a value spelled almost as a stored
// one ('Aberdeen' for 'Aberdeen ') or a case-sensitive match that found
// nothing, and a negated filter that silently drops NULLs or a NOT IN
// that a NULL makes never true (Filters), keys that pair rows only once
// letter case and spaces are ignored, in a join, an IN or NOT IN
// subquery, an equality of two columns or a correlated subquery ('C004 '
// against 'C004': keyWarnings), a literal that matches one spelling of a
// value the column holds in several (status = 'paid' beside 'Paid' and
// 'paid ', and in a text column of flags is_vip = '1' beside 'true' and
// 'yes', the spellings of one truth by render.ReadsTrue and ReadsFalse:
// variantLiterals; LOWER(status) = 'paid' beside a stored 'paid '
// that LOWER leaves apart: cleanedApart; a short value whose letters are one other's in
// order, 'Pd' beside 'paid', is named as likely short for it here and in
// splitGroups: abbrev.go), or of a column cleaned with LOWER, UPPER or
// TRIM while values spelled nearly alike stay apart ('delivred':
// foldNearMisses; a GROUP BY that keeps such near spellings apart in a
// column that writes some value several ways: nearGroups), and a GROUP BY that splits them or a
// COUNT(DISTINCT) that counts each (splitGroups), casts and text comparisons of text dates in several
// forms (mixedWarnings, textDateFilters, with the expression that reads
// them: dateFix, which reads a day or month of one digit, and each
// separator in the order it writes; of a SQLite date or timestamp
// column read as its type, dateFix of its text, with its Unix times:
// otherDatesFix), a reading by the written day of text timestamps whose
// UTC offsets put some on another day in UTC (offsetDays, with the
// expression for days in UTC), the hour or day of an instant column
// (timestamptz, text with an offset) read in UTC without AT_TIME_ZONE on
// a datasource holding a column of IANA zone names (localTimes, with the
// conversion reading that column, through the joins its foreign keys
// need; on SQLite, to convert in the answer), an AT_TIME_ZONE reading a
// column of zones some of whose profiled values name no IANA zone (offsets,
// blanks), which read as NULL (unknownZones, with how to map them), a comparison as text of a text column of
// numbers or amounts (textAmountFilters), an order_by on text dates in
// several forms (textDateOrders, with the reading by date or time), a
// comparison, MIN, MAX or order_by of the text of timestamps written both
// with 'T' and with a space (spelledComparison, textExtreme,
// textDateOrders, with the reading as timestamp), a SUM or AVG of amounts in several
// currencies or of a measure in several units (weight beside weight_unit:
// mixedCurrencies, over the one column whose values make the sum: a CASE
// counting rows, a count, a measure whose name says its unit
// (distance_km, rating: measureName) or an amount named in one currency
// is no mix;
// the currency of an amount's own table, a joined one, one its foreign
// keys reach (heldCurrencies) or the tables a summed view reads:
// viewCurrencies; where the plan filters, joins or groups, a run counts
// the currencies of the rows summed: CurrencyProbes), a comparison of such a measure with a number
// (unitFilters),
// a decimal comma removed by a cast's REPLACE (CastProbes), a division by a column that holds 0
// (zeroDivisors), a case-sensitive LIKE that misses stored spellings for
// their case alone (likeCaseMisses), a LIKE pattern written with combining
// marks that composed text never matches (decomposedPatterns), an AVG whose values have more digits
// than a double carries (inexactAverages), a POSITION searching a literal
// (reversedPositions), an aggregate over a table whose own id repeats
// in a few rows (repeatedKeys; or over a subquery with "distinct" that
// keeps those repeats: distinctKeepsRepeats), a COUNT or SUM over a table
// with a nearly unique reference the plan never reads (a bank_ref a few
// rows repeat: repeatedRefs), a period of a column
// selected while the query groups by the column itself (finerGroups), an
// aggregate of a number column whose comment says a value stands for no
// value ('0 = not answered': sentinelAggregates; a column no comment
// speaks of whose values, in the rows a run reads, are a small scale and
// one frequent value apart from it, 0 beside ratings of 1 to 5 or 99
// beside 1 to 10: SentinelProbes), a COUNT or NULL test of a column that
// writes blanks or words for no value ('N/A') beside NULL (blankCounts,
// blankWarning), and an aggregate over a table flagging test or internal
// records (a yes/no flag, or a kind of record such as account_type
// 'test'), or whose rows belong through foreign keys to one (declared, or
// a column named as one other table's unique key that none declares,
// which the warning says: parentLinks), that the plan
// never reads (testRecords; its filter leaves out too the records the
// flag's note adds, an email domain: schemactx.TestNoteRules, and a plan
// reading the flag but not the note's column is told; a run says how many
// of the rows it reads the flag marks, in how many groups, and their
// share of its SUM, or that none is: TestFlagProbes), and a plan reading
// a table whose column marks rows deleted in place (deleted_at,
// is_deleted) without reading it (deletedRows; a table joined by its key
// to the rows counted only when the plan counts or keeps its own rows:
// ownRowsCounted), or a view whose
// definition reads such a table, or one whose rows belong through foreign
// keys to a table flagging test records, without naming the column
// (viewHiddenRows, with the joins there). Unix times: a text comparison of a date or timestamp
// column that also stores them as numbers (unixTextFilters, with the
// reading that counts them), FROM_EPOCH_SECONDS of a column in the wrong
// unit or of numbers that are no Unix time (epochUnits), and of text that
// holds no number (mixedWarnings). A SQLite view whose definition reads
// a boolean column holding 'yes' or 'true', which it takes for false
// where a plan over the table takes them for true (viewBooleans; a plan
// lifted from SQL that reads one: LiftedBooleans); a plan that reads
// one is told which spellings it read as which, and the cast to text
// that counts each spelling as stored (spelledBooleans). A GROUP BY or
// COUNT(DISTINCT) of a cleaned column names the spellings the cleaning
// still leaves apart ('hot desk', 'hot-desk': cleanedSplit). Every quoted
// plan expression is written by planast.JSON, '>' as itself. A long fix two warnings give is written
// once (shareFixes). A count of 0 is a result that matched nothing too
// (matchedNothing); a table the plan reads that was empty when profiled
// is named whatever the result, and when nothing matched that is said
// instead of any guess about the filters (emptyTables; the pipeline
// passes a snapshot that forgets the count of a table holding rows again).
//
// CastProbes and CastProbeWarning count what each cast of an expression
// of a text column (REPLACE(amount, '$', ”)) still reads as NULL, up to
// MaxCastProbes of a plan, with one more query each that the pipeline
// runs as the caller, as HavingProbe does for a having filter that kept
// no group, and SentinelProbes for a value apart from a scale. A warning
// the rows a plan reads may make wrong has a Reword probe, run the same
// way, that words it again with what it found or drops it: the
// currencies summed (CurrencyProbes), the copies and repeated ids among
// the rows the where keeps of a table (RepeatProbes), and the text
// extreme of numbers written as text, which is the numbers' where they
// are of one width (TextOrderProbes).
//
// Static is what Of says of a run that returned rows, but ties: check_plan
// shows it before anything runs, and Of of a run that returned rows is
// its ties and Static (Run.Static may hand it in, kept from an earlier
// run of the same plan on the same snapshot).
//
// It owns those checks and their wording. It never queries a datasource,
// never changes a plan or a result, and never decides whether a run
// succeeds: the pipeline calls Of after execution and appends what it
// returns to the result's warnings.
//
// Worked example, over Chinook (SQLite): the plan
//
//	SELECT a.Name FROM Artist a WHERE a.Name LIKE '%ac/dc%'
//
// returns no rows (LIKE is case-sensitive on every engine), and
//
//	warnings.Of(snap, "sqlite", plan, warnings.Run{})
//
// returns one warning naming a.Name LIKE '%ac/dc%' and case_insensitive,
// and one saying the run had PRAGMA case_sensitive_like = ON, which a plain
// sqlite3 does not.
package warnings
