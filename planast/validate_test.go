package planast_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// Expression shorthands for the plan tables.
func c(table, column string) string {
	if table == "" {
		return `{"kind":"column","column":"` + column + `"}`
	}
	return `{"kind":"column","table":"` + table + `","column":"` + column + `"}`
}

func lit(v string) string { return `{"kind":"literal","value":` + v + `}` }
func bin(op, l, r string) string {
	return `{"kind":"binary","op":"` + op + `","left":` + l + `,"right":` + r + `}`
}
func fn(name string, args ...string) string {
	return `{"kind":"func","name":"` + name + `","args":[` + strings.Join(args, ",") + `]}`
}
func item(e, alias string) string { return `{"expr":` + e + `,"alias":"` + alias + `"}` }
func from(table, alias string) string {
	return `{"table":"` + table + `","alias":"` + alias + `"}`
}

// sel builds a select list; bare expressions (not items) get no alias.
func sel(items ...string) string {
	for i, it := range items {
		if strings.HasPrefix(it, `{"kind"`) {
			items[i] = `{"expr":` + it + `}`
		}
	}
	return `"select":[` + strings.Join(items, ",") + `]`
}

func plan(parts ...string) string { return `{` + strings.Join(parts, ",") + `}` }
func frm(items ...string) string  { return `"from":[` + strings.Join(items, ",") + `]` }
func joinOn(typ, l, r, lc, rc string) string {
	return `{"type":"` + typ + `","left":"` + l + `","right":"` + r + `","on":[{"left_column":"` + lc + `","right_column":"` + rc + `"}]}`
}
func joins(js ...string) string { return `"joins":[` + strings.Join(js, ",") + `]` }
func where(e string) string     { return `"where":` + e }
func orderBy(e, dir string) string {
	return `"order_by":[{"expr":` + e + `,"direction":"` + dir + `"}]`
}

// albumArtist is Album al joined to Artist ar.
var albumArtist = []string{frm(from("Album", "al"), from("Artist", "ar")), joins(joinOn("inner", "al", "ar", "ArtistId", "ArtistId"))}

func TestValidateAccepts(t *testing.T) {
	cases := []struct {
		name, plan string
		opts       validate.Options
		cols       string // comma-separated output columns, "" = do not check
	}{
		{"minimal", minimal, validate.Options{}, "Name"},
		{"every kind", allKindsPlan, validate.Options{Access: policy}, "id,bucket,big_n,rn,has_first"},
		{"case-insensitive names", plan(sel(c("", "name")), frm(from("artist", "a"))), validate.Options{}, "Name"},
		{"schema-qualified table", plan(sel(c("i", "Total")), `"from":[{"schema":"archive","table":"Invoice","alias":"i"}]`), validate.Options{}, "Total"},
		{"awkward names", plan(sel(item(c("o", "unit price"), "unit price"), c("o", "größe"), c("o", "客户"), c("o", "Group"), c("o", `a\"b`), item(fn("SUM", c("oi", "Qty")), "select")),
			frm(from("order", "o"), from("Order Items", "oi")), joins(joinOn("left", "o", "oi", "select", "OrderSelect")),
			`"group_by":[`+c("o", "select")+`]`), validate.Options{Joins: validate.JoinDeclared}, `unit price,größe,客户,Group,a"b,select`},
		{"uncorrelated scalar subquery", plan(sel(c("t", "Name"), item(`{"kind":"subquery","query":`+plan(sel(item(fn("MAX", c("", "Milliseconds")), "m")), frm(from("Track", "t2")))+`}`, "longest")), frm(from("Track", "t"))), validate.Options{}, "Name,longest"},
		{"correlated scalar subquery", plan(sel(c("ar", "Name"), item(`{"kind":"subquery","query":`+plan(sel(item(fn("COUNT"), "n")), frm(from("Album", "al")), where(bin("=", c("al", "ArtistId"), c("ar", "ArtistId"))))+`}`, "albums")), frm(from("Artist", "ar"))), validate.Options{}, ""},
		{"correlated exists, unqualified outer column", plan(sel(c("", "Name")), frm(from("Artist", "ar")),
			where(`{"kind":"exists","negated":true,"subquery":`+plan(sel(c("", "AlbumId")), frm(from("Album", "al")), where(bin("=", c("al", "ArtistId"), c("ar", "ArtistId"))))+`}`)), validate.Options{}, ""},
		{"in subquery", plan(sel(c("", "Name")), frm(from("Track", "t")), where(`{"kind":"in","expr":`+c("", "GenreId")+`,"subquery":`+plan(sel(c("", "GenreId")), frm(from("Genre", "g")), where(`{"kind":"like","expr":`+c("", "Name")+`,"pattern":`+lit(`"R%"`)+`}`))+`}`)), validate.Options{}, ""},
		{"in list negated", plan(sel(c("", "Name")), frm(from("Genre", "g")), where(`{"kind":"in","negated":true,"expr":`+c("", "GenreId")+`,"list":[`+lit("1")+`,`+lit("2")+`]}`)), validate.Options{}, ""},
		{"derived table", plan(sel(c("d", "ArtistId"), c("d", "n")), `"from":[{"subquery":`+plan(sel(c("", "ArtistId"), item(fn("COUNT"), "n")), frm(from("Album", "al")), `"group_by":[`+c("", "ArtistId")+`]`)+`,"alias":"d"}]`,
			where(bin(">", c("d", "n"), lit("1")))), validate.Options{}, "ArtistId,n"},
		{"derived table joined to a table", plan(sel(c("ar", "Name"), c("d", "n")), `"from":[{"table":"Artist","alias":"ar"},{"subquery":`+plan(sel(c("", "ArtistId"), item(fn("COUNT"), "n")), frm(from("Album", "al")), `"group_by":[`+c("", "ArtistId")+`]`)+`,"alias":"d"}]`,
			joins(joinOn("inner", "ar", "d", "ArtistId", "ArtistId"))), validate.Options{Joins: validate.JoinDeclared}, ""},
		{"CTE reads an earlier CTE", plan(`"with":[{"name":"rock","query":`+plan(sel(c("", "GenreId")), frm(from("Genre", "g")), where(bin("=", c("", "Name"), lit(`"Rock"`))))+`},`+
			`{"name":"rock_tracks","query":`+plan(sel(c("t", "TrackId"), c("t", "Name")), frm(from("Track", "t"), from("rock", "r")), joins(joinOn("inner", "t", "r", "GenreId", "GenreId")))+`}]`,
			sel(item(fn("COUNT", c("", "TrackId")), "n")), frm(from("ROCK_TRACKS", "rt"))), validate.Options{}, "n"},
		{"CTE shadows a table", plan(`"with":[{"name":"Artist","query":`+plan(sel(item(c("", "Title"), "Name")), frm(from("Album", "al")))+`}]`, sel(c("", "Name")), frm(from("Artist", "a"))), validate.Options{}, "Name"},
		{"inner WITH shadows a pending CTE name", plan(`"with":[{"name":"Genre","query":`+plan(sel(c("", "GenreId")), frm(from("Track", "t")),
			where(`{"kind":"exists","subquery":`+plan(`"with":[{"name":"Genre","query":`+plan(sel(c("", "Title")), frm(from("Album", "al")))+`}]`, sel(c("", "Title")), frm(from("Genre", "g")))+`}`))+`}]`,
			sel(c("", "GenreId")), frm(from("Genre", "g"))), validate.Options{}, ""},
		{"chained set ops, order by alias", plan(sel(item(c("", "Name"), "n")), frm(from("Artist", "a")),
			`"set_ops":[{"op":"union","query":`+plan(sel(c("", "Name")), frm(from("Genre", "g")))+`},{"op":"except","query":`+plan(sel(c("", "Name")), frm(from("Track", "t")))+`},`+
				`{"op":"intersect","query":`+plan(sel(c("", "Title")), frm(from("Album", "al")))+`},{"op":"union_all","query":`+plan(sel(c("", "LastName")), frm(from("Customer", "cu")))+`}]`,
			orderBy(c("", "N"), "desc"), `"limit":10`), validate.Options{}, "n"},
		{"windows", plan(sel(c("t", "Name"),
			item(`{"kind":"window","name":"RANK","args":[],"partition_by":[`+c("t", "AlbumId")+`],"order_by":[{"expr":`+c("t", "Milliseconds")+`,"direction":"desc","nulls":"first"}]}`, "r"),
			item(`{"kind":"window","name":"LAG","args":[`+c("t", "Milliseconds")+`,`+lit("1")+`,`+lit("0")+`],"order_by":[{"expr":`+c("t", "TrackId")+`}]}`, "prev"),
			item(`{"kind":"window","name":"SUM","args":[`+c("t", "UnitPrice")+`],"partition_by":[`+c("t", "GenreId")+`]}`, "genre_total"),
			item(`{"kind":"window","name":"COUNT","args":[]}`, "total")),
			frm(from("Track", "t")), `"order_by":[{"expr":{"kind":"window","name":"DENSE_RANK","args":[],"order_by":[{"expr":`+c("t", "Name")+`}]}}]`), validate.Options{}, ""},
		{"window over aggregates in a grouped query", plan(sel(c("", "GenreId"), item(`{"kind":"window","name":"RANK","args":[],"order_by":[{"expr":`+fn("SUM", c("", "Milliseconds"))+`,"direction":"desc"}]}`, "r")),
			frm(from("Track", "t")), `"group_by":[`+c("", "GenreId")+`]`), validate.Options{}, ""},
		{"case with operand, cast, between", plan(sel(item(`{"kind":"case","operand":`+c("", "GenreId")+`,"whens":[{"when":`+lit("1")+`,"then":`+lit(`"rock"`)+`}],"else":`+`{"kind":"cast","expr":`+c("", "GenreId")+`,"type":"text"}`+`}`, "g")),
			frm(from("Track", "t")), where(`{"kind":"between","negated":true,"expr":`+c("", "UnitPrice")+`,"low":`+lit("0.5")+`,"high":`+lit("1")+`}`)), validate.Options{}, ""},
		{"aggregates with distinct, group by, having", plan(sel(c("", "Country"), item(`{"kind":"func","name":"count","distinct":true,"args":[`+c("", "LastName")+`]}`, "n"), item(fn("AVG", c("", "SupportRepId")), "a")),
			frm(from("Customer", "cu")), `"group_by":[`+c("", "Country")+`]`, `"having":`+bin(">", fn("COUNT"), lit("1")), orderBy(fn("MAX", c("", "CustomerId")), "desc")), validate.Options{}, ""},
		{"functional dependency on a grouped primary key", plan(sel(c("ar", "ArtistId"), c("ar", "Name"), item(fn("COUNT"), "albums")), albumArtist[0], albumArtist[1],
			`"group_by":[`+c("ar", "ArtistId")+`]`, orderBy(c("ar", "Name"), "asc")), validate.Options{}, ""},
		{"correlated reference to a grouped column", plan(sel(c("al", "ArtistId"), item(`{"kind":"subquery","query":`+plan(sel(c("", "Name")), frm(from("Artist", "ar")), where(bin("=", c("ar", "ArtistId"), c("al", "ArtistId"))))+`}`, "name")),
			frm(from("Album", "al")), `"group_by":[`+c("al", "ArtistId")+`]`), validate.Options{}, ""},
		{"aggregate query without group by", plan(sel(item(fn("COUNT"), "n"), item(fn("SUM", c("", "Total")), "s")), frm(from("Invoice", "i")), `"having":`+bin(">", fn("COUNT"), lit("0"))), validate.Options{}, "n,s"},
		{"order by output alias, offset with order", plan(sel(item(c("", "Name"), "artist")), frm(from("Artist", "a")), orderBy(c("", "artist"), "asc"), `"limit":5,"offset":10`), validate.Options{}, ""},
		{"distinct with order by a selected expression", plan(`"distinct":true`, sel(item(fn("UPPER", c("", "Name")), "u")), frm(from("Artist", "a")), orderBy(fn("upper", c("", "Name")), "asc")), validate.Options{}, ""},
		{"joins of every type with a condition", plan(sel(c("t", "Name"), item(c("g", "Name"), "genre"), c("al", "Title")), frm(from("Track", "t"), from("Genre", "g"), from("Album", "al"), from("Artist", "ar")),
			`"joins":[`+joinOn("left", "t", "g", "GenreId", "GenreId")+`,`+joinOn("right", "t", "al", "AlbumId", "AlbumId")+`,`+
				`{"type":"full","left":"al","right":"ar","on":[{"left_column":"ArtistId","right_column":"ArtistId"}],"condition":`+bin("!=", c("g", "Name"), c("ar", "Name"))+`}]`), validate.Options{Joins: validate.JoinDeclared}, ""},
		{"join on a condition only", plan(sel(c("a", "Name")), frm(from("Artist", "a"), from("Genre", "g")), `"joins":[{"left":"a","right":"g","on":[],"condition":`+bin("=", c("a", "Name"), c("g", "Name"))+`}]`), validate.Options{}, ""},
		{"inferable join on same-named columns", plan(sel(c("a", "Name")), frm(from("Artist", "a"), from("Genre", "g")), joins(joinOn("inner", "a", "g", "Name", "Name"))), validate.Options{Joins: validate.JoinInferable}, ""},
		{"date functions and literals", plan(sel(item(fn("DATE_PART", lit(`"QUARTER"`), c("", "InvoiceDate")), "q"), item(fn("DATE_TRUNC", lit(`"month"`), c("", "InvoiceDate")), "m"),
			item(fn("DATE_ADD", lit(`"day"`), lit("-7"), c("", "InvoiceDate")), "d"), item(fn("DATE_DIFF_DAYS", c("", "InvoiceDate"), `{"kind":"literal","type":"date","value":"2020-01-01"}`), "age")),
			frm(from("Invoice", "i")), where(bin(">=", c("", "InvoiceDate"), `{"kind":"literal","type":"timestamp","value":"2021-01-01T00:00:00"}`))), validate.Options{}, "q,m,d,age"},
		{"text, number and null functions", plan(sel(item(fn("CONCAT", c("", "FirstName"), lit(`" "`), c("", "LastName")), "full"), item(fn("ROUND", bin("/", c("", "CustomerId"), lit("3")), lit("2")), "r"),
			item(fn("COALESCE", c("", "Country"), lit(`"?"`)), "co"), item(fn("SUBSTR", fn("TRIM", fn("LOWER", c("", "LastName"))), lit("1"), lit("3")), "s"),
			item(fn("LENGTH", fn("REPLACE", c("", "FirstName"), lit(`"a"`), lit(`"b"`))), "l"), item(fn("ABS", fn("NULLIF", c("", "SupportRepId"), lit("0"))), "ab"),
			item(bin("%", c("", "CustomerId"), lit("7")), "m"), item(bin("div", c("", "CustomerId"), lit("7")), "dv")),
			frm(from("Customer", "cu")), where(bin("and", c("", "Active"), `{"kind":"unary","op":"not","expr":`+bin("=", c("", "Country"), lit(`"USA"`))+`}`))), validate.Options{Access: policy}, ""},
		{"expected columns", minimal, validate.Options{ExpectedColumns: []string{"Name"}}, "Name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := decode(t, tc.plan)
			assertHostAccepts(t, tc.plan)
			before := string(q.Canonical())
			v, err := validate.Plan(q, chinook, tc.opts)
			if err != nil {
				t.Fatalf("refused: %v\nplan: %s", err, q.Canonical())
			}
			if string(q.Canonical()) != before {
				t.Error("Validate modified its input")
			}
			if tc.cols != "" && strings.Join(v.Columns, ",") != tc.cols {
				t.Errorf("columns %q, want %q", v.Columns, tc.cols)
			}
			if len(v.Types) != len(v.Columns) {
				t.Errorf("%d types for %d columns", len(v.Types), len(v.Columns))
			}
			// validating the validated plan again is a fixed point
			v2, err := validate.Plan(v.Plan, chinook, tc.opts)
			if err != nil || string(v2.Plan.Canonical()) != string(v.Plan.Canonical()) {
				t.Errorf("revalidation differs: %v", err)
			}
		})
	}
}

func TestValidateCanonicalises(t *testing.T) {
	q := decode(t, plan(sel(c("", "name"), item(fn("count"), "n")), frm(from("ARTIST", "a")), `"group_by":[`+c("A", "NAME")+`]`,
		`"order_by":[{"expr":`+c("", "N")+`}]`))
	v, err := validate.Plan(q, chinook, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"select":[{"expr":{"kind":"column","table":"a","column":"Name"},"alias":"Name"},{"expr":{"kind":"func","name":"COUNT","args":[]},"alias":"n"}],` +
		`"from":[{"table":"Artist","alias":"a"}],"group_by":[{"kind":"column","table":"a","column":"Name"}],` +
		`"order_by":[{"expr":{"kind":"column","column":"n"},"direction":"asc"}]}`
	if got := string(v.Plan.Canonical()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !slices.Equal(v.Types, []planast.Type{planast.TypeText, planast.TypeInteger}) {
		t.Errorf("types %v", v.Types)
	}
}

// A column that depends on a grouped primary key is added to group_by in
// the validated plan (DuckDB needs it), once, wherever it is used.
func TestValidateGroupsDependentColumns(t *testing.T) {
	q := decode(t, plan(sel(c("ar", "Name"), item(fn("COUNT"), "n")), albumArtist[0], albumArtist[1], `"group_by":[`+c("ar", "ArtistId")+`]`,
		`"having":`+bin("!=", c("ar", "Name"), lit(`"x"`)), orderBy(fn("LOWER", c("ar", "Name")), "asc")))
	v, err := validate.Plan(q, chinook, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range v.Plan.GroupBy {
		col := g.(*planast.Column)
		got = append(got, col.Table+"."+col.Column)
	}
	if !slices.Equal(got, []string{"ar.ArtistId", "ar.Name"}) {
		t.Errorf("group_by %v", got)
	}
	if len(q.GroupBy) != 1 {
		t.Error("the input plan was modified")
	}
}

// Comparisons of dates, timestamps and date strings are made explicit in
// the validated plan so that SQLite (which compares ISO text) agrees with
// PostgreSQL and DuckDB; a date compared with a timestamp covers its whole
// day.
func TestValidateDateComparisons(t *testing.T) {
	for _, tc := range []struct{ where, want string }{
		{bin("=", c("", "InvoiceDate"), `{"kind":"literal","type":"date","value":"2021-01-01"}`),
			`{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-01-01 00:00:00"},"temporal":"timestamp"},"right":{"kind":"binary","op":"\u003c","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-01-02 00:00:00"},"temporal":"timestamp"}}`},
		{bin("<=", c("", "InvoiceDate"), lit(`"2021-12-31"`)),
			`{"kind":"binary","op":"\u003c","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2022-01-01 00:00:00"},"temporal":"timestamp"}`},
		{bin("<", `{"kind":"literal","type":"date","value":"2021-02-28"}`, c("", "InvoiceDate")),
			`{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-03-01 00:00:00"},"temporal":"timestamp"}`},
		{bin("!=", c("", "InvoiceDate"), `{"kind":"literal","type":"date","value":"2021-01-01"}`),
			`{"kind":"binary","op":"or","left":{"kind":"binary","op":"\u003c","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-01-01 00:00:00"},"temporal":"timestamp"},"right":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-01-02 00:00:00"},"temporal":"timestamp"}}`},
		{`{"kind":"between","expr":` + c("", "InvoiceDate") + `,"low":` + lit(`"2021-03-01"`) + `,"high":{"kind":"literal","type":"date","value":"2021-03-31"},"negated":true}`,
			`{"kind":"unary","op":"not","expr":{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-03-01 00:00:00"},"temporal":"timestamp"},"right":{"kind":"binary","op":"\u003c","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-04-01 00:00:00"},"temporal":"timestamp"}}}`},
		{bin(">=", c("", "InvoiceDate"), lit(`"2021-01-01"`)),
			`{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"literal","type":"timestamp","value":"2021-01-01 00:00:00"},"temporal":"timestamp"}`},
		{bin("<", lit(`"2021-01-01T10:00:00"`), c("", "InvoiceDate")),
			`{"kind":"binary","op":"\u003c","left":{"kind":"literal","type":"timestamp","value":"2021-01-01 10:00:00"},"right":{"kind":"column","table":"i","column":"InvoiceDate"},"temporal":"timestamp"}`},
		{bin("=", c("cu", "SignupDate"), c("i", "InvoiceDate")),
			`{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"cast","expr":{"kind":"column","table":"cu","column":"SignupDate"},"type":"timestamp"},"temporal":"timestamp"},"right":{"kind":"binary","op":"\u003c","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"cast","expr":{"kind":"func","name":"DATE_ADD","args":[{"kind":"literal","type":"string","value":"day"},{"kind":"literal","type":"integer","value":1},{"kind":"column","table":"cu","column":"SignupDate"}]},"type":"timestamp"},"temporal":"timestamp"}}`},
		{`{"kind":"between","expr":` + c("cu", "SignupDate") + `,"low":` + lit(`"2021-01-01"`) + `,"high":` + c("i", "InvoiceDate") + `}`,
			`{"kind":"binary","op":"and","left":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"cu","column":"SignupDate"},"right":{"kind":"literal","type":"date","value":"2021-01-01"},"temporal":"date"},"right":{"kind":"binary","op":"\u003e=","left":{"kind":"column","table":"i","column":"InvoiceDate"},"right":{"kind":"cast","expr":{"kind":"column","table":"cu","column":"SignupDate"},"type":"timestamp"},"temporal":"timestamp"}}`},
		{`{"kind":"in","expr":` + c("cu", "SignupDate") + `,"list":[` + lit(`"2021-01-31"`) + `]}`,
			`{"kind":"in","expr":{"kind":"column","table":"cu","column":"SignupDate"},"list":[{"kind":"literal","type":"date","value":"2021-01-31"}],"temporal":"date"}`},
	} {
		q := decode(t, plan(sel(c("i", "Total")), frm(from("Invoice", "i"), from("Customer", "cu")), joins(joinOn("inner", "i", "cu", "CustomerId", "CustomerId")), where(tc.where)))
		v, err := validate.Plan(q, chinook, validate.Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.where, err)
			continue
		}
		got, _ := json.Marshal(v.Plan.Where)
		if string(got) != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
		if _, err := validate.Plan(v.Plan, chinook, validate.Options{}); err != nil {
			t.Errorf("the rewritten plan does not validate: %v", err)
		}
	}
}

func TestValidateNil(t *testing.T) {
	if _, err := validate.Plan(nil, chinook, validate.Options{}); err == nil {
		t.Fatal("nil plan accepted")
	}
}

// group_by and having may name output aliases: the validated plan holds
// the aliased expression.
func TestValidateOutputAliases(t *testing.T) {
	upper := fn("UPPER", c("", "Composer"))
	for _, tc := range []struct{ plan, want string }{
		{plan(sel(item(upper, "who"), item(fn("COUNT"), "n")), frm(from("Track", "t")), `"group_by":[`+c("", "who")+`]`, `"having":`+bin(">", c("", "n"), lit("1"))),
			`"group_by":[{"kind":"func","name":"UPPER","args":[{"kind":"column","table":"t","column":"Composer"}]}],"having":{"kind":"binary","op":"\u003e","left":{"kind":"func","name":"COUNT","args":[]},"right":{"kind":"literal","type":"integer","value":1}}`},
		// "Name" is an alias and a column of Track: group_by means the column
		{plan(sel(item(c("", "Name"), "Name"), item(fn("COUNT"), "n")), frm(from("Track", "t")), `"group_by":[`+c("", "Name")+`]`),
			`"group_by":[{"kind":"column","table":"t","column":"Name"}]`},
	} {
		v, err := validate.Plan(decode(t, tc.plan), chinook, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.plan, err)
		}
		if got := string(v.Plan.Canonical()); !strings.Contains(got, tc.want) {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// A host that groups by its alias "Composer" over UPPER(Composer) means the
// upper-cased names; grouping by the raw column instead is valid SQL that
// splits 'AC/DC' from 'ac/dc' and returns more rows than asked, silently.
// The alias of a rewrite of that very column means the rewrite, which is
// grouped by; an alias that is another column's name is refused as
// ambiguous (the host may mean either).
func TestValidateGroupByAliasShadowingAColumn(t *testing.T) {
	for _, alias := range []string{"Composer", "composer"} {
		q := decode(t, plan(sel(item(fn("UPPER", c("", "Composer")), alias), item(fn("COUNT"), "n")), frm(from("Track", "t")), `"group_by":[`+c("", alias)+`]`))
		v, err := validate.Plan(q, chinook, validate.Options{})
		if err != nil {
			t.Fatalf("group_by %q over UPPER(Composer) AS %q: %v, want it grouped by the rewrite", alias, alias, err)
		}
		if got := string(v.Plan.Canonical()); !strings.Contains(got, `"group_by":[{"kind":"func","name":"UPPER"`) {
			t.Errorf("group_by %q: %s, want the rewrite UPPER(Composer) grouped by, not the raw column", alias, got)
		}
	}
	q0 := decode(t, plan(sel(item(fn("UPPER", c("", "Composer")), "Name"), item(fn("COUNT"), "n")), frm(from("Track", "t")), `"group_by":[`+c("", "Name")+`]`))
	if _, err := validate.Plan(q0, chinook, validate.Options{}); err == nil || !strings.Contains(err.Error(), string(planast.CodeAmbiguous)) || !strings.Contains(err.Error(), "both an output alias and a column") {
		t.Errorf("group_by \"Name\" with an alias Name over UPPER(Composer): %v, want AMBIGUOUS naming the clash", err)
	}
	// the alias naming the column itself is no clash
	q := decode(t, plan(sel(item(c("t", "Composer"), "composer"), item(fn("COUNT"), "n")), frm(from("Track", "t")), `"group_by":[`+c("", "composer")+`]`))
	if _, err := validate.Plan(q, chinook, validate.Options{}); err != nil {
		t.Errorf("group_by an alias of the column itself: %v", err)
	}
	// nor when two joined tables hold the column: the alias says which
	// (a host grouping by its alias "AlbumId" of t.AlbumId was refused
	// as ambiguous between t and al)
	q = decode(t, plan(sel(item(c("t", "AlbumId"), "AlbumId"), item(fn("COUNT"), "n")), frm(from("Track", "t"), from("Album", "al")),
		joins(joinOn("inner", "t", "al", "AlbumId", "AlbumId")), `"group_by":[`+c("", "AlbumId")+`],"having":`+bin(">", c("", "AlbumId"), `{"kind":"literal","value":3}`)))
	v, err := validate.Plan(q, chinook, validate.Options{})
	if err != nil {
		t.Fatalf("group_by and having an alias of a column two joined tables hold: %v", err)
	}
	if got := string(v.Plan.Canonical()); !strings.Contains(got, `"group_by":[{"kind":"column","table":"t","column":"AlbumId"}]`) {
		t.Errorf("grouped by %s, want t.AlbumId", got)
	}
}

// The threat: a host grouping by its alias "Name" of ar.Name, second in
// group_by as the plan guide writes aliases, over tables that all hold a
// Name, was told the alias was ambiguous; and where the alias is another
// expression's, told only to "qualify it", it guessed at the table. The
// alias of the column itself groups by that column; a clash names the
// column to write for each source that holds it and the expression, or
// another alias, for the select item.
func TestValidateGroupByAliasClashSaysWhatToWrite(t *testing.T) {
	three := []string{frm(from("Track", "t"), from("Album", "al"), from("Artist", "ar")),
		joins(joinOn("inner", "t", "al", "AlbumId", "AlbumId"), joinOn("inner", "al", "ar", "ArtistId", "ArtistId"))}
	q := decode(t, plan(append([]string{sel(item(c("ar", "Name"), "Name"), item(fn("COUNT"), "n"))}, append(three, `"group_by":[`+c("ar", "ArtistId")+`,`+c("", "Name")+`]`)...)...))
	v, err := validate.Plan(q, chinook, validate.Options{})
	if err != nil {
		t.Fatalf("group_by the alias of ar.Name: %v", err)
	}
	if got := string(v.Plan.Canonical()); !strings.Contains(got, `"group_by":[{"kind":"column","table":"ar","column":"ArtistId"},{"kind":"column","table":"ar","column":"Name"}]`) {
		t.Errorf("grouped by %s, want ar.Name", got)
	}
	upper := fn("UPPER", c("al", "Title"))
	for _, clause := range []string{`"group_by":[` + c("al", "AlbumId") + `,` + c("", "Name") + `]`, `"group_by":[` + c("al", "AlbumId") + `],"having":` + bin("=", c("", "Name"), `{"kind":"literal","value":"X"}`)} {
		q = decode(t, plan(append([]string{sel(item(upper, "Name"), item(fn("COUNT"), "n"))}, append(three, clause)...)...))
		_, err = validate.Plan(q, chinook, validate.Options{})
		var pe *planast.Error
		if !errors.As(err, &pe) || pe.Issues[0].Code != planast.CodeAmbiguous {
			t.Fatalf("%s over UPPER(al.Title) AS Name: %v, want AMBIGUOUS_COLUMN first", clause, err)
		}
		for _, want := range []string{`{"kind":"column","table":"t","column":"Name"} or {"kind":"column","table":"ar","column":"Name"}`,
			`its expression {"kind":"func","name":"UPPER","args":[{"kind":"column","table":"al","column":"Title"}]}`, `rename its alias "Name"`} {
			if !strings.Contains(pe.Issues[0].Hint, want) {
				t.Errorf("%s: hint %q, want it to say %s", clause, pe.Issues[0].Hint, want)
			}
		}
	}
}

// A join on keys that are no foreign key (in either direction) is valid
// but warned about, so that a planner joining Album.AlbumId to
// Artist.ArtistId hears of it; under JoinDeclared it is refused.
func TestValidateWarnsUndeclaredJoins(t *testing.T) {
	for _, tc := range []struct {
		plan string
		opts validate.Options
		want []string
	}{
		{plan(sel(c("ar", "Name")), albumArtist[0], albumArtist[1]), validate.Options{}, nil},
		// the foreign key read the other way round
		{plan(sel(c("ar", "Name")), frm(from("Artist", "ar"), from("Album", "al")), joins(joinOn("inner", "ar", "al", "ArtistId", "ArtistId"))), validate.Options{}, nil},
		{plan(sel(c("ar", "Name")), frm(from("Album", "al"), from("Artist", "ar")), joins(joinOn("inner", "al", "ar", "AlbumId", "ArtistId"))), validate.Options{},
			[]string{"joins[0].on[0]: no foreign key or declared relationship joins al.AlbumId to ar.ArtistId; check that these are the keys the tables are related by"}},
		// two foreign keys to the same key (Track.TrackId) relate their rows
		{plan(sel(c("il", "Quantity")), frm(from("InvoiceLine", "il"), from("PlaylistTrack", "pt")), joins(joinOn("inner", "il", "pt", "TrackId", "TrackId"))), validate.Options{}, nil},
		// foreign keys to different keys do not
		{plan(sel(c("il", "Quantity")), frm(from("InvoiceLine", "il"), from("PlaylistTrack", "pt")), joins(joinOn("inner", "il", "pt", "InvoiceId", "TrackId"))), validate.Options{},
			[]string{"joins[0].on[0]: no foreign key or declared relationship joins il.InvoiceId to pt.TrackId; check that these are the keys the tables are related by"}},
		{plan(sel(c("ar", "Name")), frm(from("Album", "al"), from("Artist", "ar")), joins(joinOn("inner", "al", "ar", "AlbumId", "ArtistId"))), validate.Options{Joins: validate.JoinInferable},
			[]string{"joins[0].on[0]: no foreign key or declared relationship joins al.AlbumId to ar.ArtistId; check that these are the keys the tables are related by"}},
	} {
		v, err := validate.Plan(decode(t, tc.plan), chinook, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.plan, err)
		}
		if !slices.Equal(v.Warnings, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.plan, v.Warnings, tc.want)
		}
	}
	// a schema that declares no keys: a key and the column named after it
	// relate the tables, two keys of one name or two plain columns do not
	bare := memCatalog{
		table("", "races", []string{"raceId integer", "circuitId integer", "id integer"}),
		table("", "circuits", []string{"circuitId integer", "name text", "id integer"}),
		table("", "laps", []string{"id integer", "raceId integer"}),
		table("", "pits", []string{"id integer", "raceId integer"}),
		table("", "products", []string{"id integer", "name text"}),
		table("", "order_items", []string{"id integer", "product_id integer", "ProductId integer", "qty integer"}),
		table("", "categories", []string{"id integer", "label text"}),
	}
	for _, tc := range []struct {
		from, join string
		warned     bool
	}{
		{frm(from("races", "r"), from("circuits", "c")), joins(joinOn("inner", "r", "c", "circuitId", "circuitId")), false},
		{frm(from("circuits", "c"), from("races", "r")), joins(joinOn("inner", "c", "r", "circuitId", "circuitId")), false},
		{frm(from("laps", "l"), from("pits", "p")), joins(joinOn("inner", "l", "p", "id", "id")), true},
		{frm(from("laps", "l"), from("pits", "p")), joins(joinOn("inner", "l", "p", "raceId", "raceId")), true},
		// a key and the column named for its table's row
		{frm(from("order_items", "oi"), from("products", "p")), joins(joinOn("inner", "oi", "p", "product_id", "id")), false},
		{frm(from("products", "p"), from("order_items", "oi")), joins(joinOn("inner", "p", "oi", "id", "ProductId")), false},
		// a column named for another table's row is no key of this one
		{frm(from("order_items", "oi"), from("categories", "c")), joins(joinOn("inner", "oi", "c", "product_id", "id")), true},
		{frm(from("order_items", "oi"), from("products", "p")), joins(joinOn("inner", "oi", "p", "qty", "id")), true},
	} {
		q := plan(sel(item(fn("COUNT"), "n")), tc.from, tc.join)
		v, err := validate.Plan(decode(t, q), bare, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := len(v.Warnings) > 0; got != tc.warned {
			t.Errorf("%s: warnings %q, want a warning: %v", q, v.Warnings, tc.warned)
		}
	}
	// tables that declare no primary key at all (a DuckDB file): a column
	// named "id" or for the table's row is its key, and a column named for
	// that row, after a role or not, or whose comment names the other
	// column or table, joins it without a warning on every join (a host
	// learns to skip warnings)
	noPK := func(t *planast.TableInfo) *planast.TableInfo { t.PrimaryKey = nil; return t }
	undeclared := memCatalog{
		noPK(table("", "customers", []string{"customer_id integer", "name text"})),
		noPK(table("", "warehouses", []string{"warehouse_id integer", "city text"})),
		noPK(table("", "shipments", []string{"shipment_id integer", "customer_id integer", "origin_warehouse_id integer", "pieces integer"})),
		noPK(table("", "drivers", []string{"id integer", "home_warehouse integer"})),
		// a schema whose comments say what a column refers to
		noPK(commented(table("", "meter_reads", []string{"read_id integer", "replaces_read_id integer", "kwh integer"}),
			"replaces_read_id", "Set when this row corrects an earlier reading (the read_id it replaces).")),
		noPK(commented(table("", "credit_notes", []string{"note_id integer", "invoice_ref integer", "batch integer"}),
			"invoice_ref", "The invoice credited.")),
		noPK(table("", "invoices", []string{"invoice_no integer", "total integer"})),
	}
	for _, tc := range []struct {
		from, join string
		warned     bool
	}{
		{frm(from("shipments", "s"), from("customers", "c")), joins(joinOn("inner", "s", "c", "customer_id", "customer_id")), false},
		{frm(from("shipments", "s"), from("warehouses", "w")), joins(joinOn("inner", "s", "w", "origin_warehouse_id", "warehouse_id")), false},
		{frm(from("warehouses", "w"), from("shipments", "s")), joins(joinOn("inner", "w", "s", "warehouse_id", "origin_warehouse_id")), false},
		// two keys, and two columns that are no key, still pair by accident
		{frm(from("customers", "c"), from("warehouses", "w")), joins(joinOn("inner", "c", "w", "customer_id", "warehouse_id")), true},
		{frm(from("shipments", "s"), from("drivers", "d")), joins(joinOn("inner", "s", "d", "pieces", "home_warehouse")), true},
		{frm(from("shipments", "s"), from("drivers", "d")), joins(joinOn("inner", "s", "d", "customer_id", "id")), true},
		// a join the schema's comments document, by the column or the table
		// it names, and one they do not
		{frm(from("meter_reads", "c"), from("meter_reads", "o")), joins(joinOn("inner", "c", "o", "replaces_read_id", "read_id")), false},
		{frm(from("credit_notes", "n"), from("invoices", "i")), joins(joinOn("inner", "n", "i", "invoice_ref", "invoice_no")), false},
		{frm(from("credit_notes", "n"), from("invoices", "i")), joins(joinOn("inner", "n", "i", "batch", "invoice_no")), true},
	} {
		q := plan(sel(item(fn("COUNT"), "n")), tc.from, tc.join)
		v, err := validate.Plan(decode(t, q), undeclared, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := len(v.Warnings) > 0; got != tc.warned {
			t.Errorf("no primary keys: %s: warnings %q, want a warning: %v", q, v.Warnings, tc.warned)
		}
	}
	_, err := validate.Plan(decode(t, plan(sel(c("ar", "Name")), frm(from("Album", "al"), from("Artist", "ar")), joins(joinOn("inner", "al", "ar", "AlbumId", "ArtistId")))), chinook, validate.Options{Joins: validate.JoinDeclared})
	if err == nil || !strings.Contains(err.Error(), "INVALID_JOIN") {
		t.Errorf("JoinDeclared: %v, want an INVALID_JOIN issue", err)
	}
}

// The threat: a host converting invoices with a monthly rate table,
// joined on its whole key (currency, month), was told on every query
// that no foreign key joins the currencies, and learns to skip warnings;
// a currency is a code, which no foreign key declares. A join whose key
// pairs (or condition equalities) cover one side's declared primary key,
// by columns of one name or documented, is a lookup: no note. A join on
// part of the key, on a table that declares no key, on columns of other
// names, or one pairing the other side's own key (customers.id =
// orders.id: orders' whole key, but customers' own) keeps it.
func TestValidateLookupJoinOnWholeKeyIsNotWarned(t *testing.T) {
	noPK := func(t *planast.TableInfo) *planast.TableInfo { t.PrimaryKey = nil; return t }
	keyed := func(t *planast.TableInfo, pk ...string) *planast.TableInfo { t.PrimaryKey = pk; return t }
	cat := memCatalog{
		table("", "invoices", []string{"invoice_id integer", "currency text", "month date", "ccy text", "billing_month date", "amount decimal"}),
		keyed(table("", "fx_rates", []string{"currency text", "month date", "usd_per_unit decimal"}), "currency", "month"),
		noPK(table("", "fx_loose", []string{"currency text", "month date", "usd_per_unit decimal"})),
		table("", "customers", []string{"id integer", "name text"}),
		table("", "orders", []string{"id integer", "customer_id integer"}),
	}
	on := func(l, r string, pairs ...string) string {
		var ps []string
		for i := 0; i+1 < len(pairs); i += 2 {
			ps = append(ps, `{"left_column":"`+pairs[i]+`","right_column":"`+pairs[i+1]+`"}`)
		}
		return `{"type":"inner","left":"` + l + `","right":"` + r + `","on":[` + strings.Join(ps, ",") + `]`
	}
	cond := func(j, e string) string { return j + `,"condition":` + e + `}` }
	month := fn("DATE_TRUNC", lit(`"month"`), c("i", "month"))
	for _, tc := range []struct {
		name, from, join string
		warned           bool
	}{
		{"both key columns as pairs", frm(from("invoices", "i"), from("fx_rates", "x")), on("i", "x", "currency", "currency", "month", "month") + "}", false},
		{"the lookup table on the left", frm(from("fx_rates", "x"), from("invoices", "i")), on("x", "i", "currency", "currency", "month", "month") + "}", false},
		{"month pinned by the condition", frm(from("invoices", "i"), from("fx_rates", "x")), cond(on("i", "x", "currency", "currency"), bin("=", c("x", "month"), month)), false},
		{"month pinned to a literal", frm(from("invoices", "i"), from("fx_rates", "x")), cond(on("i", "x", "currency", "currency"), bin("=", c("x", "month"), lit(`"2024-01-01"`))), false},
		{"part of the key", frm(from("invoices", "i"), from("fx_rates", "x")), on("i", "x", "currency", "currency") + "}", true},
		{"month compared, not pinned", frm(from("invoices", "i"), from("fx_rates", "x")), cond(on("i", "x", "currency", "currency"), bin(">=", c("x", "month"), c("i", "month"))), true},
		{"no declared key", frm(from("invoices", "i"), from("fx_loose", "x")), on("i", "x", "currency", "currency", "month", "month") + "}", true},
		{"a column of another name beside one of its name", frm(from("invoices", "i"), from("fx_rates", "x")), on("i", "x", "currency", "currency", "billing_month", "month") + "}", false},
		{"columns of other names", frm(from("invoices", "i"), from("fx_rates", "x")), on("i", "x", "ccy", "currency", "billing_month", "month") + "}", true},
		{"two keys of one name", frm(from("customers", "c"), from("orders", "o")), on("c", "o", "id", "id") + "}", true},
	} {
		q := plan(sel(item(fn("COUNT"), "n")), tc.from, joins(tc.join))
		v, err := validate.Plan(decode(t, q), cat, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %s: %v", tc.name, q, err)
		}
		warned := slices.ContainsFunc(v.Warnings, func(w string) bool { return strings.Contains(w, "no foreign key or declared relationship joins") })
		if warned != tc.warned {
			t.Errorf("%s: warnings %q, want the foreign key note: %v", tc.name, v.Warnings, tc.warned)
		}
	}
}

// The threat: a filter comparing with a null literal (x = null, x > null)
// is never true in SQL, so the result is empty and reads as "none"; a
// JavaScript host sends a number it cannot hold (1e400) as null without
// knowing. The validator warns of it, and of nothing in a plan that tests
// NULL as it should.
func TestValidateWarnsComparisonWithNull(t *testing.T) {
	null := `{"kind":"literal","value":null}`
	for _, tc := range []struct {
		where string
		warn  bool
	}{
		{bin(">", c("t", "Milliseconds"), null), true},
		{bin("=", null, c("t", "Composer")), true},
		{`{"kind":"is_null","expr":` + c("t", "Composer") + `}`, false},
		{bin("=", c("t", "Composer"), `{"kind":"literal","value":"AC/DC"}`), false},
	} {
		q := decode(t, plan(sel(item(fn("COUNT"), "n")), frm(from("Track", "t")), `"where":`+tc.where))
		v, err := validate.Plan(q, chinook, validate.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.where, err)
		}
		got := strings.Contains(strings.Join(v.Warnings, "\n"), "null is never true")
		if got != tc.warn {
			t.Errorf("%s: warned %v, want %v (%q)", tc.where, got, tc.warn, v.Warnings)
		}
	}
}

// commented gives t's column col the comment text.
func commented(t *planast.TableInfo, col, text string) *planast.TableInfo {
	for i := range t.Columns {
		if t.Columns[i].Name == col {
			t.Columns[i].Comment = text
		}
	}
	return t
}
