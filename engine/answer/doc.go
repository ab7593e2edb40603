// Package answer writes the short answer of a result: the template
// summary drawn from the first rows, and the answer model's reply when it
// keeps to them.
//
// It owns the summary's wording (numbers and dates as cellfmt prints
// them; every value of a text or untyped column quoted as a JSON string
// and capped, however much it looks like a number or a date, since the
// column's type, not the text, says what a value is; wide rows counted), the
// answer model's prompt, and the checks that discard a reply quoting a
// number or a text the preview does not hold. It never runs a query,
// never sees a plan, a datasource or a trace: the pipeline hands it the
// rows (Rows), records the call through Model.Trace, and decides what to
// do with a Reply (keep the text, or keep the summary and add the
// warning).
//
// Worked example: for the rows
//
//	Columns: name, n    Rows: ["Ann", 4], ["Bob", 2]
//
// Summarise returns `2 rows. They are: name "Ann", n 4; name "Bob", n 2.`.
// A model replying {"answer": "Ann has 5."} is discarded (5 is not in the
// rows): Answer returns Reply{Calls: 1, Warning: "the answer model quoted
// 5, which is not in the rows; …"} and the pipeline keeps the summary.
package answer
