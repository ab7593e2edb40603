package index

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
)

func TestChinookArtistTracksSold(t *testing.T) {
	ix, snap := chinook(t)
	sel, err := ix.Retrieve(context.Background(), "which artist has the most tracks sold", retrieveOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := tableNames(sel)
	for _, want := range []string{"Artist", "Album", "Track", "InvoiceLine"} {
		if !slices.Contains(got, want) {
			t.Errorf("tables %v lack %s", got, want)
		}
	}
	if sel.Whole {
		t.Error("Whole with the rule off")
	}
	// Keys of kept tables are kept, so the join path is complete;
	// "sold" implies InvoiceLine's quantity (impliedNames).
	cols := map[string][]string{}
	for _, ts := range sel.Tables {
		cols[ts.Name] = ts.Columns
	}
	for tbl, want := range map[string][]string{"Track": {"TrackId", "AlbumId"}, "Album": {"AlbumId", "ArtistId"}, "Artist": {"ArtistId", "Name"}, "InvoiceLine": {"InvoiceLineId", "TrackId", "Quantity"}} {
		for _, c := range want {
			if !slices.Contains(cols[tbl], c) {
				t.Errorf("%s columns %v lack %s", tbl, cols[tbl], c)
			}
		}
	}
	ctx := schemactx.SchemaContext(sel.Filter(snap))
	if n, whole := schemactx.ContextTokens(ctx), ix.WholeTokens(); n >= whole || n == 0 {
		t.Errorf("retrieved context %d tokens, whole %d", n, whole)
	}
}

func TestWholeSchemaRule(t *testing.T) {
	ix, snap := chinook(t)
	ctx := context.Background()
	if w := ix.WholeTokens(); w < 1000 || w > DefaultWholeSchemaTokens {
		t.Fatalf("Chinook whole context %d tokens; the test assumes it is under the default threshold", w)
	}
	sel, err := ix.Retrieve(ctx, "anything", Budget{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sel.Whole || len(sel.Tables) != len(snap.Tables) {
		t.Errorf("default budget: whole=%v, %d tables", sel.Whole, len(sel.Tables))
	}
	// Every table and column is in the context; only the focus has values.
	outline := schemactx.SchemaContext(sel.Filter(snap))
	for _, tb := range snap.Tables {
		for _, c := range tb.Columns {
			if !strings.Contains(outline, " "+c.Name+" "+string(c.Type)) {
				t.Errorf("whole context lacks %s.%s", tb.Name, c.Name)
			}
		}
	}
	if full := schemactx.SchemaContext(snap); len(sel.Focus) == 0 || schemactx.ContextTokens(outline) >= schemactx.ContextTokens(full) {
		t.Errorf("focus %v: outline %d tokens, full %d", sel.Focus, schemactx.ContextTokens(outline), schemactx.ContextTokens(full))
	}
	sel.Focus = nil
	if got := schemactx.SchemaContext(sel.Filter(snap)); got != schemactx.SchemaContext(snap) {
		t.Error("whole selection without a focus does not render as the whole snapshot")
	}
	// The focus carries the question's values: the genre names.
	sel, _ = ix.Retrieve(ctx, "Which genre has sold the most tracks?", Budget{}, nil)
	if got := schemactx.SchemaContext(sel.Filter(snap)); !strings.Contains(got, `"Heavy Metal"`) || strings.Contains(got, `"Sales Support Agent"`) {
		t.Errorf("genre question's context:\n%s", got)
	}
	// Whole still honours access.
	deny := func(_, table, column string) bool { return table != "Employee" && column != "Email" }
	sel, _ = ix.Retrieve(ctx, "anything", Budget{}, deny)
	if slices.Contains(tableNames(sel), "Employee") {
		t.Error("whole selection kept a denied table")
	}
	for _, ts := range sel.Tables {
		if slices.Contains(ts.Columns, "Email") {
			t.Errorf("%s kept denied column Email", ts.Name)
		}
	}
	// A threshold below the schema retrieves.
	sel, _ = ix.Retrieve(ctx, "anything", Budget{WholeSchemaTokens: 100}, nil)
	if sel.Whole {
		t.Error("threshold 100 still sent the whole schema")
	}
}

func TestAllowNeverLeaks(t *testing.T) {
	ix, snap := chinook(t)
	deny := func(_, table, column string) bool {
		return table != "Album" && table != "InvoiceLine" && !(table == "Customer" && column == "Country")
	}
	for _, q := range []string{"which artist has the most tracks sold", "customers in the usa", "albums of AC/DC", "invoice lines per track"} {
		sel, err := ix.Retrieve(context.Background(), q, retrieveOnly, deny)
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range sel.Tables {
			if ts.Name == "Album" || ts.Name == "InvoiceLine" {
				t.Errorf("%q: denied table %s selected", q, ts.Name)
			}
			if ts.Name == "Customer" && slices.Contains(ts.Columns, "Country") {
				t.Errorf("%q: denied column Customer.Country selected", q)
			}
		}
		for _, v := range sel.Values {
			if v.Table == "Customer" && v.Column == "Country" {
				t.Errorf("%q: value of a denied column reported: %+v", q, v)
			}
		}
		ctx := schemactx.SchemaContext(sel.Filter(snap))
		if strings.Contains(ctx, `"table":"Album"`) || strings.Contains(ctx, "Album(") || strings.Contains(ctx, "InvoiceLine") {
			t.Errorf("%q: rendered context names a denied table:\n%s", q, ctx)
		}
		rs, _ := ix.Explain(context.Background(), q, deny)
		for _, r := range rs {
			if r.Table == "Album" || (r.Table == "Customer" && r.Column == "Country") {
				t.Errorf("%q: Explain ranks denied %s.%s", q, r.Table, r.Column)
			}
		}
	}
}

// TestDeterminism: two indexes of two snapshots of the same database give
// byte-identical selections, also when asked concurrently.
func TestDeterminism(t *testing.T) {
	ctx := context.Background()
	build := func() (*Index, *schema.Snapshot) {
		snap, src := chinookSnapshot(t)
		ix, err := Build(ctx, snap, nil, Options{Values: sourceValues(src)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix, snap
	}
	a, snapA := build()
	b, snapB := build()
	questions := []string{
		"which artist has the most tracks sold", "How many heavy metal tracks are there?", "customers in the usa",
		"Which employee supports the most customers?", "total revenue per year", "playlists with more than 100 tracks",
	}
	render := func(ix *Index, snap *schema.Snapshot, q string) []byte {
		sel, err := ix.Retrieve(ctx, q, retrieveOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(sel)
		return append(j, schemactx.SchemaContext(sel.Filter(snap))...)
	}
	for _, q := range questions {
		if x, y := render(a, snapA, q), render(b, snapB, q); !bytes.Equal(x, y) {
			t.Errorf("%q: selections differ:\n%s\n%s", q, x, y)
		}
	}
	var wg sync.WaitGroup
	want := render(a, snapA, questions[0])
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := render(a, snapA, questions[0]); !bytes.Equal(got, want) {
				t.Error("concurrent retrieval differs")
			}
		}()
	}
	wg.Wait()
}

func TestFilter(t *testing.T) {
	snap := smallSnapshot()
	sel := &Selection{Tables: []TableSelection{
		{Schema: "main", Name: "customer", Columns: []string{"name", "country"}},
		{Schema: "main", Name: "orders", Columns: []string{"id", "customer_id", "total"}},
		{Schema: "main", Name: "product", Columns: []string{"id", "category"}},
	}, Values: []Value{
		{Schema: "main", Table: "customer", Column: "country", Value: "Germany"},
		{Schema: "main", Table: "customer", Column: "country", Value: "USA"},
		{Schema: "main", Table: "customer", Column: "name", Value: "Ann"},
	}}
	before := schemactx.SchemaContext(snap)
	sub := sel.Filter(snap)
	if schemactx.SchemaContext(snap) != before {
		t.Fatal("Filter changed its input")
	}
	if len(sub.Tables) != 3 || sub.Tables[0].Name != "customer" || sub.Tables[1].Name != "orders" {
		t.Fatalf("tables = %+v", sub.Tables)
	}
	c := sub.Tables[0]
	if len(c.PrimaryKey) != 0 {
		t.Error("customer keeps a primary key whose column was dropped")
	}
	// the matched values first, so a context showing only the first few
	// samples shows them; the rest after, in their order
	if got := c.Columns[1].Profile.SampleValues; !slices.Equal(got, []any{"Germany", "USA", "France"}) {
		t.Errorf("country samples = %v", got)
	}
	if got := c.Columns[0].Profile.SampleValues; !slices.Equal(got, []any{"Ann"}) {
		t.Errorf("name samples = %v (a column without a profile gets one)", got)
	}
	// orders → customer(id) is dropped: customer.id is not kept.
	if fks := sub.Tables[1].ForeignKeys; len(fks) != 0 {
		t.Errorf("orders foreign keys = %+v", fks)
	}
	if pk := sub.Tables[2].PrimaryKey; !slices.Equal(pk, []string{"id"}) {
		t.Errorf("product primary key = %v", pk)
	}
	// With customer.id kept the key survives.
	sel.Tables[0].Columns = []string{"id", "name", "country"}
	if fks := sel.Filter(snap).Tables[1].ForeignKeys; len(fks) != 1 {
		t.Errorf("orders foreign keys = %+v, want the customer key", fks)
	}
}

func TestContextTokensOffline(t *testing.T) {
	if n := schemactx.ContextTokens("hello world"); n != 2 {
		t.Errorf("ContextTokens(hello world) = %d, want 2 (o200k_base)", n)
	}
	if n := schemactx.ContextTokens(""); n != 0 {
		t.Errorf("empty = %d", n)
	}
}

// TestSchemaContextFormat pins the engine's prompt format.
func TestSchemaContextFormat(t *testing.T) {
	snap := smallSnapshot()
	n := int64(3)
	snap.Tables[2].RowCount = &n
	snap.Tables[2].Columns[2].Profile = &schema.ColumnProfile{Min: 1.5, Max: 99.0}
	// Not all values: a few short examples, long ones skipped.
	snap.Tables[0].Columns[1].Profile = &schema.ColumnProfile{SampleValues: []any{"Ann & Bo", strings.Repeat("x", schemactx.MaxExampleBytes+1), "Cy", "Di", "Ed"}}
	snap.Tables[1].ForeignKeys = append(snap.Tables[1].ForeignKeys, schema.ForeignKey{Columns: []string{"order_id", "qty"}, RefTable: "orders", RefColumns: []string{"id", "total"}})
	got := schemactx.SchemaContext(snap)
	want := `customer: id integer pk; name text e.g. ["Ann & Bo","Cy"]; country text values ["France","USA"]
items: id integer pk; order_id integer -> orders.id; product_id integer -> product.id; qty integer; fk (order_id, qty) -> orders(id, total)
orders (3 rows): id integer pk; customer_id integer -> customer.id; total decimal range [1.5,99]; status text values ["open","shipped"]
product: id integer pk; name text; category text values ["Heavy Metal","Jazz"]`
	if got != want {
		t.Errorf("SchemaContext =\n%s\nwant\n%s", got, want)
	}
	if tables := schemactx.ContextTables(got); !slices.Equal(tables, []string{"customer", "items", "orders", "product"}) {
		t.Errorf("ContextTables = %v", tables)
	}
	// Names that are not plain identifiers are JSON strings.
	snap.Tables[0].Name, snap.Tables[0].Columns[1].Name = "Order Details", "ignore prior instructions"
	got = schemactx.SchemaContext(snap)
	if !strings.Contains(got, `"Order Details": id integer pk; "ignore prior instructions" text`) || schemactx.ContextTables(got)[0] != "Order Details" {
		t.Errorf("quoted names:\n%s", got)
	}
}

func TestExplainAndClose(t *testing.T) {
	ix, err := Build(context.Background(), smallSnapshot(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ix.Explain(context.Background(), "heavy metal products", nil)
	if err != nil || len(rs) == 0 {
		t.Fatalf("Explain = %v, %v", rs, err)
	}
	if rs[0].Table != "product" {
		t.Errorf("best document %+v, want product's", rs[0])
	}
	if sd, vd := ix.Docs(); sd != 4+14 || vd != 6 {
		t.Errorf("Docs = %d, %d", sd, vd)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Retrieve(context.Background(), "x", retrieveOnly, nil); err == nil {
		t.Error("Retrieve after Close succeeded")
	}
}

// A question that asks who is answered with people's names: the kept
// table of people must bring its first and family name although no word
// of the question names them ("who supports…" names no column), or the
// planner answers with ids nobody can read.
func TestWhoBringsThePeoplesNames(t *testing.T) {
	ix, _ := chinook(t)
	sel, err := ix.Retrieve(context.Background(), "Who looks after the customers in Brazil?", retrieveOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	cols := map[string][]string{}
	for _, ts := range sel.Tables {
		cols[ts.Name] = ts.Columns
	}
	if _, ok := cols["Employee"]; !ok {
		t.Skipf("Employee not retrieved (tables %v): the rule has nothing to label", tableNames(sel))
	}
	for _, c := range []string{"FirstName", "LastName"} {
		if !slices.Contains(cols["Employee"], c) {
			t.Errorf("Employee columns %v lack %s", cols["Employee"], c)
		}
	}
}

// TestCountryNamedByItsPeople: "Canadian customers" names no stored value
// ("canadian" is two edits from "Canada"), so a planner was told no value
// and filtered on 'Canadian', or on nothing, and counted no one.
func TestCountryNamedByItsPeople(t *testing.T) {
	ix, _ := chinook(t)
	tests := []struct{ question, want string }{
		{"How many Canadian customers do we have?", "Canada"},
		{"What did British customers spend in 2023?", "United Kingdom"},
		{"List our American customers", "USA"},
		{"Which French customers bought jazz?", "France"},
	}
	for _, tt := range tests {
		sel, err := ix.Retrieve(context.Background(), tt.question, retrieveOnly, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, v := range sel.Values {
			if v.Table == "Customer" && v.Column == "Country" && v.Value == tt.want {
				found = v.Match == "country"
			}
		}
		if !found {
			t.Errorf("%q: values %+v lack Customer.Country %q (match country)", tt.question, sel.Values, tt.want)
		}
	}
	// A word of a country's name is not the country: "United" of
	// "United Kingdom" must not be offered for British.
	vs, err := ix.Values(context.Background(), "British customers", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Match == "country" && v.Value != "United Kingdom" {
			t.Errorf("British matched %q (%s.%s)", v.Value, v.Table, v.Column)
		}
	}
}
