package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/plural"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// SchemaDescriber is what describe_schema needs of the engine: the
// datasource's snapshot as the caller may see it.
type SchemaDescriber interface {
	VisibleSnapshot(ctx context.Context, datasource string) (*schema.Snapshot, error)
	SemanticReader
}

// DescribeArgs is describe_schema's input.
type DescribeArgs struct {
	Datasource string   `json:"datasource"`
	Table      string   `json:"table,omitempty"`
	Tables     []string `json:"tables,omitempty"`
	Filter     string   `json:"filter,omitempty"`
	Cursor     string   `json:"cursor,omitempty"`
}

// DescribeOutput is describe_schema's structured output.
type DescribeOutput struct {
	Datasource string `json:"datasource"`
	Dialect    string `json:"dialect"`
	// TotalTables and TotalViews count the tables and the views matching
	// the request, over all pages, apart: "14 tables" for twelve tables
	// and two views read as two tables more than the user made.
	TotalTables int `json:"total_tables"`
	TotalViews  int `json:"total_views"`
	// TotalColumns counts the columns of those tables, over all pages.
	TotalColumns int `json:"total_columns"`
	// FirstTable is the 1-based position of the page's first table or
	// view among all total_tables + total_views (0 on an empty page).
	FirstTable int `json:"first_table"`
	// Page and TotalPages number this page among the listing's pages
	// (absent when it fits one, or a cursor starts it elsewhere).
	Page       int `json:"page,omitempty"`
	TotalPages int `json:"total_pages,omitempty"`
	// OtherPages names the tables and views of every other page, with
	// the cursor that describes them; OtherTables counts them instead
	// when their names would take too much of the budget.
	OtherPages  []OtherPage    `json:"other_pages,omitempty"`
	OtherTables int            `json:"other_tables,omitempty"`
	Tables      []schema.Table `json:"tables"`
	// Truncated is set when tables follow this page (next_cursor).
	Truncated       bool   `json:"truncated,omitempty"`
	TruncatedReason string `json:"truncated_reason,omitempty"`
	NextCursor      string `json:"next_cursor,omitempty"`
	// Semantic holds the semantic layer's entries for this page's tables.
	Semantic *SemanticInfo `json:"semantic,omitempty"`
	// ProfilesOmitted is set when the page's one table alone would pass
	// the budget and is shown without its columns' profiles.
	ProfilesOmitted bool `json:"profiles_omitted,omitempty"`
	// NotFound lists the names of tables that matched no table the caller
	// may see, each with the TABLE_NOT_FOUND message and its suggestion;
	// the tables that were found are described all the same.
	NotFound []NotFoundTable `json:"not_found,omitempty"`
}

// OtherPage is one other page of a describe_schema listing: its number,
// the cursor that asks for it (absent for the first: call without one)
// and the names of its tables and views.
type OtherPage struct {
	Page   int      `json:"page"`
	Cursor string   `json:"cursor,omitempty"`
	Tables []string `json:"tables"`
	Views  []string `json:"views,omitempty"`
}

// NotFoundTable is one name of describe_schema's tables that matched no
// visible table.
type NotFoundTable struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

const describeShape = `{"datasource"?: string, "table"?: string, "tables"?: [string], "filter"?: string, "cursor"?: string}`

// maxDescribeTables caps describe_schema's tables argument.
const maxDescribeTables = 200

// DescribeSchemaTool describes the describe_schema tool.
func DescribeSchemaTool() mcpgo.Tool {
	return readOnlyTool("describe_schema", "Describe a schema",
		"Describe a datasource's tables: columns with types, keys, foreign keys and sample values, only what you may see. Ask for exact tables by name (table, or tables for several) or filter by a substring of table or column names; results come in pages that fit the result's token budget, with total_tables, total_views, total_columns and a next_cursor for the next page; every page names the tables and views of the others.",
		json.RawMessage(`{
  "type": "object",
  "properties": {
    "datasource": {"type": "string", "maxLength": 128, "description": "A datasource id from list_datasources; may be omitted when only one is configured."},
    "table": {"type": "string", "maxLength": 256, "description": "Exact table name (any case)."},
    "tables": {"type": "array", "maxItems": 200, "items": {"type": "string", "maxLength": 256}, "description": "Exact table names (any case), e.g. those a plan_it_yourself result left out."},
    "filter": {"type": "string", "maxLength": 256, "description": "Substring of a table or column name (any case)."},
    "cursor": {"type": "string", "maxLength": 1024, "description": "next_cursor of the previous page, with the same other arguments."}
  },
  "additionalProperties": false
}`),
		json.RawMessage(`{"type": "object", "properties": {"datasource": {"type": "string"}, "dialect": {"type": "string"}, "total_tables": {"type": "integer", "description": "Tables (not views) matching the request over all pages."}, "total_views": {"type": "integer", "description": "Views matching the request over all pages."}, "total_columns": {"type": "integer"}, "first_table": {"type": "integer", "description": "1-based position of this page's first table or view among total_tables + total_views."}, "page": {"type": "integer"}, "total_pages": {"type": "integer"}, "other_pages": {"type": "array", "description": "The tables and views of every other page, with the cursor that describes them (none: call without cursor).", "items": {"type": "object", "properties": {"page": {"type": "integer"}, "cursor": {"type": "string"}, "tables": {"type": "array", "items": {"type": "string"}}, "views": {"type": "array", "items": {"type": "string"}}}}}, "other_tables": {"type": "integer", "description": "Tables and views on other pages, too many to name: find them with filter or search_schema."}, "tables": {"type": "array", "items": {"type": "object"}}, "truncated": {"type": "boolean", "description": "True when more tables follow (next_cursor)."}, "truncated_reason": {"type": "string"}, "next_cursor": {"type": "string", "description": "Pass as cursor, with the same other arguments, for the next page; absent on the last page."}, "profiles_omitted": {"type": "boolean", "description": "True when a table too large for one page is shown without its columns' sample values and ranges."}, "not_found": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "message": {"type": "string"}}}, "description": "Names in tables that matched no table, with a suggestion; the others are described."}}, "required": ["datasource", "total_tables", "total_views", "tables"]}`))
}

// DescribeSchemaHandler answers describe_schema calls.
func DescribeSchemaHandler(eng SchemaDescriber) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		var args DescribeArgs
		if bad := bindStrict(req, &args, describeShape); bad != nil {
			return bad, nil
		}
		if len(args.Tables) > maxDescribeTables {
			return invalidRequest(fmt.Sprintf("tables names %d tables, more than %d", len(args.Tables), maxDescribeTables), "ask for fewer tables at a time, or use filter"), nil
		}
		snap, err := eng.VisibleSnapshot(ctx, args.Datasource)
		if err != nil {
			return errorResult(err), nil
		}
		args.Datasource = snap.Datasource // the one configured, when omitted
		bind := describeBinding(args)
		after, err := DecodeCursor(args.Cursor, "describe_schema", bind...)
		if err != nil {
			return errorResult(err), nil
		}
		var match []schema.Table
		for _, t := range snap.Tables {
			if tableMatches(t, args.Table, args.Filter) && tableListed(t, args.Tables) {
				match = append(match, t)
			}
		}
		if args.Table != "" && len(match) == 0 {
			return errorResult(tableNotFound(snap, args.Table)), nil
		}
		// a misspelt name among several loses none of the others: they are
		// described and the name is reported with its suggestion
		var missing []NotFoundTable
		for _, name := range args.Tables {
			if !slices.ContainsFunc(match, func(t schema.Table) bool { return tableListed(t, []string{name}) }) {
				nf := tableNotFound(snap, name)
				if len(match) == 0 {
					return errorResult(nf), nil
				}
				missing = append(missing, NotFoundTable{Name: name, Message: nf.Msg})
			}
		}
		start := 0
		if args.Cursor != "" {
			// the first table after the cursor's, in the snapshot's (schema,
			// name) order: a page boundary stays put when the budget or
			// tables before it change
			start = sort.Search(len(match), func(i int) bool { return tableKey(match[i]) > after })
		}
		return describePage(ctx, eng, snap, match, start, args.Datasource, bind, missing, target(BudgetOf(eng)))
	}
}

// describePage answers with the tables of match from start that fit
// budget (at least one; a table that alone passes it loses its columns'
// profiles), and names the tables and views of the other pages (pageIndex).
// Each table is counted once (its JSON and its text); the page is then
// counted once to verify, dropping tables from its end in the rare case
// the estimate was short.
func describePage(ctx context.Context, eng SchemaDescriber, snap *schema.Snapshot, match []schema.Table, start int, datasource string, bind []string, missing []NotFoundTable, budget int) (*mcpgo.CallToolResult, error) {
	whole := snap.WithTables(match)
	views := whole.Views()
	columns := columnCount(match)
	build := func(from int, tables []schema.Table, omitted bool, idx *pageIndex) (*mcpgo.CallToolResult, error) {
		out := DescribeOutput{Datasource: snap.Datasource, Dialect: snap.Dialect, TotalTables: len(match) - views, TotalViews: views, TotalColumns: columns, Tables: tables, ProfilesOmitted: omitted, NotFound: missing}
		if len(tables) > 0 {
			out.FirstTable = from + 1
		}
		if end := from + len(tables); len(tables) > 0 && end < len(match) {
			out.NextCursor = EncodeCursor("describe_schema", tableKey(tables[len(tables)-1]), bind...)
			out.Truncated, out.TruncatedReason = true, TruncatedTokenBudget
		}
		page := snap.WithTables(tables)
		var err error
		if out.Semantic, err = semanticFor(ctx, eng, datasource, page.TableNames()); err != nil {
			return nil, err
		}
		var text strings.Builder
		for _, m := range missing {
			fmt.Fprintf(&text, "not found: %s\n", m.Message)
		}
		if len(missing) > 0 {
			text.WriteString("(the other tables asked for follow)\n\n")
		}
		fmt.Fprintf(&text, "datasource %s (%s), %s", snap.Datasource, snap.Dialect, plural.Relations(len(match), views))
		if len(tables) < len(match) && len(tables) > 0 {
			fmt.Fprintf(&text, "; this page describes %d-%d of them (%s)", from+1, from+len(tables), plural.Relations(len(tables), page.Views()))
		}
		text.WriteString("\n")
		if idx != nil {
			idx.fill(&out, from)
			text.WriteString(idx.text(from, len(tables)))
		}
		text.WriteString(snapshotBody(page, snap) + out.Semantic.Text())
		if omitted {
			text.WriteString("\n(sample values and ranges omitted: this table alone would pass the result's token budget)\n")
		}
		if out.NextCursor != "" {
			fmt.Fprintf(&text, "\n(%d-%d of %d: %s, %d columns in all; the rest would pass the result's token budget; pass cursor %q with the same arguments for the next page)\n", from+1, from+len(tables), len(match), plural.Relations(len(match), views), columns, out.NextCursor)
		}
		return mcpgo.NewToolResultStructured(out, text.String()), nil
	}
	if start >= len(match) {
		res, err := build(start, []schema.Table{}, false, nil)
		if err != nil {
			return errorResult(err), nil
		}
		return res, nil
	}
	// fit is how many tables of match from `from` fit budget less
	// reserve, and whether the one table alone passes it (its profiles
	// are then dropped); 0 when not even that fits.
	fit := func(from, reserve int) (int, bool, error) {
		empty, err := build(from, []schema.Table{}, false, nil)
		if err != nil {
			return 0, false, err
		}
		used := sentTokens(empty) + 50 + reserve // the cursor and the page line
		n := 0
		for _, t := range match[from:] {
			b, _ := json.Marshal(t)
			one := &schema.Snapshot{Tables: []schema.Table{t}}
			cost := Tokens(string(b)) + Tokens(SnapshotText(one))
			if n > 0 && used+cost > budget {
				break
			}
			used += cost
			n++
		}
		for ; n > 0; n-- {
			res, err := build(from, match[from:from+n], false, nil)
			if err != nil {
				return 0, false, err
			}
			if ok, got := fits(res, budget); ok && got+reserve <= budget {
				return n, false, nil
			}
		}
		return 1, true, nil
	}
	idx, reserve, err := indexPages(match, budget, bind, fit)
	if err != nil {
		return errorResult(err), nil
	}
	n, omitted, err := fit(start, reserve)
	if err != nil {
		return errorResult(err), nil
	}
	tables := match[start : start+n]
	if omitted {
		tables = []schema.Table{withoutProfiles(match[start])}
	}
	res, err := build(start, tables, omitted, idx)
	if err != nil {
		return errorResult(err), nil
	}
	// the index's estimate fell short, or one table alone fills the
	// page: the count alone of the other pages' tables, then no index
	for _, less := range []*pageIndex{idx.unnamed(), nil} {
		if ok, _ := fits(res, budget); ok || idx == nil {
			break
		}
		if res, err = build(start, tables, omitted, less); err != nil {
			return errorResult(err), nil
		}
	}
	if ok, got := fits(res, budget); !ok {
		return tooLarge(got, budget), nil
	}
	return res, nil
}

// pageIndex is what a describe_schema page says of the others: a host
// that reads the first page alone (12 tables of a 14, sites and both
// views on page 2) took those for all there is. Each page names the
// tables and views of every other page with the cursor that describes
// them, in the listing's (schema, name) order; when the names would take
// more than maxIndexShare of the budget (a catalog of 2,000 tables), it
// says how many there are and how to find one.
type pageIndex struct {
	starts   []int // each page's first position in match, then len(match)
	cursors  []string
	names    []string // each table's or view's name as listed
	view     []bool
	unlisted bool
}

// maxIndexShare is the share of a page's budget the index may take.
const maxIndexShare = 5

// indexPages is the index of match's pages within budget, as fit packs
// them, and the tokens it reserves on each page; nil when match fits one
// page.
func indexPages(match []schema.Table, budget int, bind []string, fit func(from, reserve int) (int, bool, error)) (*pageIndex, int, error) {
	idx := &pageIndex{}
	schemas := map[string]bool{}
	for _, t := range match {
		schemas[t.Schema] = true
	}
	for _, t := range match {
		name := t.Name
		if len(schemas) > 1 {
			name = t.Schema + "." + t.Name
		}
		idx.names = append(idx.names, name)
		idx.view = append(idx.view, t.Kind == schema.KindView)
	}
	all, _ := json.Marshal(idx.names)
	reserve := 2*Tokens(string(all)) + 60
	if reserve > budget/maxIndexShare {
		// names alone past a fifth of the budget: the tables are surely
		// on several pages, and the page says how many and how to search
		idx.unlisted = true
		return idx, 120, nil
	}
	key := digest(match, budget, bind)
	if hit, ok := indexCache.get(key); ok {
		if hit.starts == nil {
			return nil, 0, nil
		}
		idx.starts, idx.cursors = hit.starts, hit.cursors
		return idx, hit.reserve, nil
	}
	keep := func(idx *pageIndex, reserve int) (*pageIndex, int, error) {
		e := indexEntry{reserve: reserve}
		if idx != nil {
			e.starts, e.cursors = idx.starts, idx.cursors
		}
		indexCache.put(key, e)
		return idx, reserve, nil
	}
	for range 3 {
		idx.starts, idx.cursors = nil, nil
		for from := 0; from < len(match); {
			n, _, err := fit(from, reserve)
			if err != nil {
				return nil, 0, err
			}
			cursor := ""
			if from > 0 {
				cursor = EncodeCursor("describe_schema", tableKey(match[from-1]), bind...)
			}
			idx.starts, idx.cursors = append(idx.starts, from), append(idx.cursors, cursor)
			from += max(n, 1)
		}
		idx.starts = append(idx.starts, len(match))
		if len(idx.starts) == 2 && idx.starts[0] == 0 {
			return keep(nil, 0) // one page holds them all
		}
		var out DescribeOutput
		idx.fill(&out, 0)
		b, _ := json.Marshal(out.OtherPages)
		need := Tokens(string(b)) + Tokens(idx.text(0, 0)) + 20
		if need <= reserve {
			return keep(idx, reserve)
		}
		reserve = need + 40
	}
	return idx.unnamed(), 120, nil
}

// indexCache keeps the pages of recent listings (their tables, budget
// and arguments), which every page names.
var indexCache memo[indexEntry]

// indexEntry is one listing's pages: nil starts when one page holds it.
type indexEntry struct {
	starts  []int
	cursors []string
	reserve int
}

// unnamed is idx saying the count of the other pages' tables alone.
func (idx *pageIndex) unnamed() *pageIndex {
	if idx == nil {
		return nil
	}
	c := *idx
	c.unlisted = true
	return &c
}

// page is the 0-based page that starts at from; -1 when none does (a
// cursor of another listing's boundary).
func (idx *pageIndex) page(from int) int {
	return slices.Index(idx.starts[:len(idx.starts)-1], from)
}

// fill sets out's index fields for the page starting at from.
func (idx *pageIndex) fill(out *DescribeOutput, from int) {
	if idx.unlisted {
		out.OtherTables = len(idx.names) - len(out.Tables)
		return
	}
	cur := idx.page(from)
	if cur >= 0 {
		out.Page, out.TotalPages = cur+1, len(idx.starts)-1
	}
	for p := range len(idx.starts) - 1 {
		if p == cur {
			continue
		}
		op := OtherPage{Page: p + 1, Cursor: idx.cursors[p], Tables: []string{}}
		for i := idx.starts[p]; i < idx.starts[p+1]; i++ {
			if idx.view[i] {
				op.Views = append(op.Views, idx.names[i])
			} else {
				op.Tables = append(op.Tables, idx.names[i])
			}
		}
		out.OtherPages = append(out.OtherPages, op)
	}
}

// text is the index's lines on the page of shown tables starting at
// from.
func (idx *pageIndex) text(from, shown int) string {
	if idx.unlisted {
		return fmt.Sprintf("(the other %d tables and views are on other pages, too many to name here: find one by name with filter (a substring of a table or column name) or with search_schema, or follow the cursor below)\n", len(idx.names)-shown)
	}
	var b strings.Builder
	cur := idx.page(from)
	for p := range len(idx.starts) - 1 {
		if p == cur {
			continue
		}
		var names []string
		for i := idx.starts[p]; i < idx.starts[p+1]; i++ {
			n := idx.names[i]
			if idx.view[i] {
				n += " (view)"
			}
			names = append(names, n)
		}
		how := "call without cursor"
		if idx.cursors[p] != "" {
			how = fmt.Sprintf("cursor %q", idx.cursors[p])
		}
		fmt.Fprintf(&b, "on page %d of %d (%s): %s\n", p+1, len(idx.starts)-1, how, strings.Join(names, ", "))
	}
	return b.String()
}

// tableKey orders tables as a snapshot does, by schema then name; cursors
// carry the key of a page's last table.
func tableKey(t schema.Table) string { return t.Schema + "\x00" + t.Name }

// describeBinding is what a describe_schema cursor is bound to: the
// request's other arguments, so a cursor cannot resume another listing.
func describeBinding(a DescribeArgs) []string {
	names := make([]string, len(a.Tables))
	for i, n := range a.Tables {
		names[i] = strings.ToLower(n)
	}
	slices.Sort(names)
	return []string{a.Datasource, strings.ToLower(a.Table), strings.Join(names, "\x00"), strings.ToLower(a.Filter)}
}

// tableListed reports whether t is one of names (any case, with or
// without its schema); every table is listed when names is empty.
func tableListed(t schema.Table, names []string) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if strings.EqualFold(t.Name, n) || strings.EqualFold(t.Schema+"."+t.Name, n) {
			return true
		}
	}
	return false
}

// tableNotFound is describe_schema's answer for a table the caller cannot
// see: the plan validator's own TABLE_NOT_FOUND message over the caller's
// visible snapshot, so its "did you mean" suggestion is drawn only from
// tables the caller may see and a hidden table is answered exactly like a
// missing one.
func tableNotFound(visible *schema.Snapshot, table string) *engine.Error {
	from := map[string]any{"table": table, "alias": "t"}
	if sch, name, ok := strings.Cut(table, "."); ok {
		from = map[string]any{"schema": sch, "table": name, "alias": "t"}
	}
	doc, _ := json.Marshal(map[string]any{"select": []any{map[string]any{"expr": map[string]any{"kind": "literal", "value": 1}, "alias": "x"}}, "from": []any{from}})
	msg := fmt.Sprintf("there is no table named %q", table)
	if q, err := planast.Decode(doc, planast.DefaultLimits); err == nil {
		if _, err := validate.Plan(q, visible, validate.Options{}); err != nil {
			var pe *planast.Error
			if errors.As(err, &pe) {
				for _, is := range pe.Issues {
					if is.Code == planast.CodeTableNotFound {
						msg = is.Message
						break
					}
				}
			}
		}
	}
	return &engine.Error{Code: engine.Code(planast.CodeTableNotFound), Msg: msg, Hint: "call describe_schema without table or tables (or with filter) to list the tables you may see"}
}

func tableMatches(t schema.Table, table, filter string) bool {
	if table != "" && !strings.EqualFold(t.Name, table) && !strings.EqualFold(t.Schema+"."+t.Name, table) {
		return false
	}
	if filter == "" {
		return true
	}
	f := strings.ToLower(filter)
	if strings.Contains(strings.ToLower(t.Name), f) {
		return true
	}
	for _, c := range t.Columns {
		if strings.Contains(strings.ToLower(c.Name), f) {
			return true
		}
	}
	return false
}
