package tools

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// A datasource's schema resource (nl2sql://{datasource}/schema) is the
// visible snapshot as JSON when it fits the result budget. A catalog too
// large for that is paged instead, the way a client reads it without a
// cursor (resources/read has none): the schema resource becomes an index
// (SchemaIndex) with the totals and one entry per page, each page is its
// own resource (nl2sql://{datasource}/schema/page/{n}, SchemaPage) with
// the full tables and the address of the next page, and any one table is
// nl2sql://{datasource}/schema/table/{schema.name}. Pages are packed in
// the snapshot's (schema, name) order by each table's tokens, so the same
// visible snapshot and budget always give the same pages, byte for byte.

// SchemaIndex is the schema resource of a catalog too large to send whole.
type SchemaIndex struct {
	Datasource string `json:"datasource"`
	Dialect    string `json:"dialect"`
	Paged      bool   `json:"paged"`
	// TotalTables and TotalViews count the tables and the views apart, as
	// every other surface does.
	TotalTables  int `json:"total_tables"`
	TotalViews   int `json:"total_views"`
	TotalColumns int `json:"total_columns"`
	// Pages lists the page resources; when even the list passes the
	// budget it holds the leading ones and PagesTruncated is set (each
	// page names the next).
	Pages          []SchemaPageRef `json:"pages"`
	TotalPages     int             `json:"total_pages"`
	PagesTruncated bool            `json:"pages_truncated,omitempty"`
	TableURI       string          `json:"table_uri"`
	Hint           string          `json:"hint"`
}

// SchemaPageRef is one page in a SchemaIndex.
type SchemaPageRef struct {
	URI        string `json:"uri"`
	FirstTable string `json:"first_table"`
	LastTable  string `json:"last_table"`
	Tables     int    `json:"tables"`
}

// SchemaPage is one page resource of a paged schema.
type SchemaPage struct {
	Datasource   string         `json:"datasource"`
	Dialect      string         `json:"dialect"`
	Page         int            `json:"page"`
	TotalPages   int            `json:"total_pages"`
	TotalTables  int            `json:"total_tables"` // tables, not views
	TotalViews   int            `json:"total_views"`
	TotalColumns int            `json:"total_columns"`
	FirstTable   int            `json:"first_table"` // 1-based position of the page's first table or view
	Tables       []schema.Table `json:"tables"`
	// ProfilesOmitted is set when the page's one table alone would pass
	// the budget and is shown without its columns' profiles.
	ProfilesOmitted bool   `json:"profiles_omitted,omitempty"`
	Next            string `json:"next,omitempty"` // the next page's URI; absent on the last
}

// SchemaURI is the address of a datasource's schema resource; PageURI and
// TableURI those of its pages and tables.
func SchemaURI(ds string) string { return "nl2sql://" + ds + "/schema" }

// SchemaPageURI is the address of page n (1-based) of ds's schema.
func SchemaPageURI(ds string, n int) string { return SchemaURI(ds) + "/page/" + strconv.Itoa(n) }

// SchemaTableURI is the address of one table of ds's schema.
func SchemaTableURI(ds string, t schema.Table) string {
	return SchemaURI(ds) + "/table/" + url.PathEscape(t.Schema+"."+t.Name)
}

// pageCache keeps the page boundaries of recent (snapshot, budget) pairs.
var pageCache memo[[]int]

// schemaPages returns the start index of each page of snap's tables
// within budget, plus len(snap.Tables) as the end.
func schemaPages(snap *schema.Snapshot, budget int) []int {
	key := digest(snap, budget)
	if p, ok := pageCache.get(key); ok {
		return p
	}
	head, _ := json.Marshal(SchemaPage{Datasource: snap.Datasource, Dialect: snap.Dialect, Page: 1 << 20, TotalPages: 1 << 20,
		TotalTables: len(snap.Tables), TotalColumns: 1 << 30, FirstTable: len(snap.Tables), Tables: []schema.Table{}, Next: SchemaPageURI(snap.Datasource, 1<<20)})
	base := quotedTokens(string(head)) + 20
	starts := []int{0}
	used := base
	for i, t := range snap.Tables {
		tb, _ := json.Marshal(t)
		cost := quotedTokens(string(tb)) + 1
		if i > starts[len(starts)-1] && used+cost > budget {
			starts = append(starts, i)
			used = base
		}
		used += cost
	}
	starts = append(starts, len(snap.Tables))
	pageCache.put(key, starts)
	return starts
}

// resourceBudget is what a schema resource's body may hold: the target
// less the resources/read envelope around it (the URI, the MIME type and
// mcp-go's _meta, about 60 tokens).
func resourceBudget(eng any) int { return target(BudgetOf(eng)) - 80 }

func columnCount(tables []schema.Table) int {
	n := 0
	for _, t := range tables {
		n += len(t.Columns)
	}
	return n
}

// SchemaResourceJSON is the body of nl2sql://{ds}/schema: the snapshot
// when it fits eng's budget, else its SchemaIndex.
func SchemaResourceJSON(eng any, snap *schema.Snapshot) (string, error) {
	budget := resourceBudget(eng)
	b, err := json.Marshal(snap)
	if err != nil {
		return "", err
	}
	if len(b) <= budget/2 || quotedTokens(string(b)) <= budget {
		return string(b), nil
	}
	starts := schemaPages(snap, budget)
	pages := len(starts) - 1
	idx := SchemaIndex{Datasource: snap.Datasource, Dialect: snap.Dialect, Paged: true, TotalTables: len(snap.Tables) - snap.Views(), TotalViews: snap.Views(),
		TotalColumns: columnCount(snap.Tables), TotalPages: pages, Pages: []SchemaPageRef{},
		TableURI: SchemaURI(snap.Datasource) + "/table/{schema.table}",
		Hint:     fmt.Sprintf("the schema passes this resource's %d-token budget, so it is paged: read each page's uri (each names the next), one table by table_uri, or call describe_schema (it pages with a cursor and filters)", budget)}
	for p := range pages {
		first, last := snap.Tables[starts[p]], snap.Tables[starts[p+1]-1]
		idx.Pages = append(idx.Pages, SchemaPageRef{URI: SchemaPageURI(snap.Datasource, p+1),
			FirstTable: first.Schema + "." + first.Name, LastTable: last.Schema + "." + last.Name, Tables: starts[p+1] - starts[p]})
	}
	for {
		out, err := json.Marshal(idx)
		if err != nil {
			return "", err
		}
		if quotedTokens(string(out)) <= budget || len(idx.Pages) <= 1 {
			return string(out), nil
		}
		// the list of pages alone passes the budget: keep the leading
		// ones, the pages chain on through next
		idx.Pages, idx.PagesTruncated = idx.Pages[:len(idx.Pages)*9/10], true
	}
}

// SchemaPageJSON is the body of page n (1-based) of snap's schema, and
// false when there is no such page.
func SchemaPageJSON(eng any, snap *schema.Snapshot, n int) (string, bool) {
	budget := resourceBudget(eng)
	starts := schemaPages(snap, budget)
	if n < 1 || n > len(starts)-1 {
		return "", false
	}
	page := SchemaPage{Datasource: snap.Datasource, Dialect: snap.Dialect, Page: n, TotalPages: len(starts) - 1,
		TotalTables: len(snap.Tables) - snap.Views(), TotalViews: snap.Views(), TotalColumns: columnCount(snap.Tables), FirstTable: starts[n-1] + 1,
		Tables: snap.Tables[starts[n-1]:starts[n]]}
	if n < len(starts)-1 {
		page.Next = SchemaPageURI(snap.Datasource, n+1)
	}
	out, _ := json.Marshal(page)
	if quotedTokens(string(out)) > budget && len(page.Tables) == 1 {
		page.Tables, page.ProfilesOmitted = []schema.Table{withoutProfiles(page.Tables[0])}, true
		out, _ = json.Marshal(page)
	}
	return string(out), true
}

// SchemaTableJSON is the body of one table's resource (name is
// "schema.table" or a bare table name, any case), and false when the
// caller sees no such table.
func SchemaTableJSON(eng any, snap *schema.Snapshot, name string) (string, bool) {
	i := slices.IndexFunc(snap.Tables, func(t schema.Table) bool { return tableListed(t, []string{name}) })
	if i < 0 {
		return "", false
	}
	t := snap.Tables[i]
	one := SchemaPage{Datasource: snap.Datasource, Dialect: snap.Dialect, Page: 1, TotalPages: 1, TotalTables: 1,
		TotalColumns: len(t.Columns), FirstTable: 1, Tables: []schema.Table{t}}
	if t.Kind == schema.KindView {
		one.TotalTables, one.TotalViews = 0, 1
	}
	out, _ := json.Marshal(one)
	if quotedTokens(string(out)) > resourceBudget(eng) {
		one.Tables, one.ProfilesOmitted = []schema.Table{withoutProfiles(t)}, true
		out, _ = json.Marshal(one)
	}
	return string(out), true
}

// withoutProfiles is t with its columns' profiles dropped.
func withoutProfiles(t schema.Table) schema.Table {
	t.Columns = slices.Clone(t.Columns)
	for i := range t.Columns {
		t.Columns[i].Profile = nil
	}
	return t
}

// ParseSchemaURI splits a schema resource address: the datasource, and
// "" (the schema), "page" with its number or "table" with its name.
func ParseSchemaURI(uri string) (ds, kind, arg string, ok bool) {
	rest, ok := strings.CutPrefix(uri, "nl2sql://")
	if !ok {
		return "", "", "", false
	}
	ds, rest, _ = strings.Cut(rest, "/")
	if ds == "" {
		return "", "", "", false
	}
	if rest == "schema" {
		return ds, "", "", true
	}
	if n, ok := strings.CutPrefix(rest, "schema/page/"); ok && n != "" && !strings.Contains(n, "/") {
		return ds, "page", n, true
	}
	if seg, ok := strings.CutPrefix(rest, "schema/table/"); ok && seg != "" && !strings.Contains(seg, "/") {
		name, err := url.PathUnescape(seg)
		return ds, "table", name, err == nil && name != ""
	}
	return "", "", "", false
}
