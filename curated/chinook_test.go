package curated

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sourcetest"
	"github.com/nl2sql/nl2sql/internal/source/sqlite"

	"github.com/nl2sql/nl2sql/internal/config"
	"github.com/nl2sql/nl2sql/internal/source"
	"github.com/nl2sql/nl2sql/scope"
)

const chinookRoles = `
datasources:
  - {id: chinook, engine: sqlite, path: CHINOOK}
roles:
  analyst:
    allow: ["chinook"]
    deny:  ["chinook.main.Employee", "chinook.main.Customer.Email"]
  rep:
    allow: ["chinook.main.Customer", "chinook.main.Invoice"]
    row_filters:
      - {table: chinook.main.Customer, where: "SupportRepId = :employee_id"}
users:
  - {name: alice, roles: [analyst]}
  - {name: jane, roles: [rep], attributes: {employee_id: 3}}
  - {name: janeless, roles: [rep]}
local_user: alice
`

func q(id, sql string, params ...map[string]any) vq {
	return vq{"id": id, "datasource": "chinook", "description": strings.ReplaceAll(id, "_", " "),
		"questions": []string{strings.ReplaceAll(id, "_", " ")}, "sql": sql, "params": params}
}

var yearParam = map[string]any{"name": "year", "type": "string", "required": true, "pattern": "^[0-9]{4}$", "example": "2024"}

// chinookQueries: the query and ones that read Customer in every
// position, plus some only some callers may run.
var chinookQueries = []vq{
	{"id": "revenue_by_country", "datasource": "chinook", "description": "Revenue per billing country for one year",
		"questions": []string{"What was revenue by country in 2024?", "Sales per country last year"},
		"sql":       "SELECT BillingCountry, SUM(Total) AS revenue FROM Invoice\nWHERE strftime('%Y', InvoiceDate) = :year GROUP BY BillingCountry",
		"params":    []map[string]any{yearParam}},
	q("revenue_unchecked", "SELECT count(*) AS n FROM Invoice WHERE strftime('%Y', InvoiceDate) = :year -- no pattern",
		map[string]any{"name": "year", "type": "string", "required": true, "example": "2024"}),
	q("my_customers", "SELECT CustomerId, SupportRepId FROM Customer ORDER BY CustomerId"),
	q("customer_totals", "SELECT c.CustomerId, round(sum(i.Total), 2) AS total FROM main.Customer AS c JOIN Invoice i ON i.CustomerId = c.CustomerId GROUP BY c.CustomerId ORDER BY 1"),
	q("invoices_of_customers", "SELECT count(*) AS n FROM Invoice WHERE CustomerId IN (SELECT CustomerId FROM Customer)"),
	q("customers_cte", "WITH c AS (SELECT * FROM Customer) SELECT count(*) AS n FROM c"),
	q("customer_emails", "SELECT Email FROM Customer ORDER BY 1"),
	q("customer_star", "SELECT * FROM Customer ORDER BY SupportRepId DESC, CustomerId LIMIT 1"),
	q("customer_cities", "SELECT City, count(*) AS n FROM Customer GROUP BY City ORDER BY City"),
	q("tracks", "SELECT count(*) AS n FROM Track"),
	q("employees", "SELECT LastName FROM Employee"),
}

type chinookEnv struct {
	cfg  *config.Config
	pol  *scope.Policy
	set  *Set
	src  *sqlite.SQLite
	path string
}

func setupChinook(t *testing.T) *chinookEnv {
	t.Helper()
	path := sourcetest.CopyToTemp(t, "../examples/chinook/chinook.sqlite")
	cfg := writeSetup(t, strings.ReplaceAll(chinookRoles, "CHINOOK", path), nil, chinookQueries...)
	set, refused, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Employee is readable by no role: refused at validation.
	if len(refused) != 1 || refused[0].ID != "employees" || refused[0].Err.Code != CodeUnreadable {
		t.Fatalf("refused = %v", refused)
	}
	pol, err := scope.New(cfg.Access())
	if err != nil {
		t.Fatal(err)
	}
	src, err := sqlite.OpenSQLite(context.Background(), "chinook", path, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return &chinookEnv{cfg: cfg, pol: pol, set: set, src: src, path: path}
}

func (e *chinookEnv) user(t *testing.T, name string) *scope.Scope {
	s, ok := e.pol.ForUser(name)
	if !ok {
		t.Fatal(name)
	}
	return s
}

func (e *chinookEnv) raw(t *testing.T, sql string) [][]any {
	t.Helper()
	res, err := e.src.Query(context.Background(), sql, nil, 1000)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res.Rows
}

func (e *chinookEnv) run(t *testing.T, sc *scope.Scope, id string, params map[string]any) ([][]any, error) {
	t.Helper()
	ex, err := e.set.RunByID(context.Background(), e.src, id, params, sc, 1000)
	if err != nil {
		return nil, err
	}
	return ex.Result.Rows, nil
}

func code(err error) string {
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// Jane sees only her customers through every verified query that reads
// Customer; the row filter wraps each table reference.
func TestJaneVerifiedQueriesFiltered(t *testing.T) {
	e := setupChinook(t)
	jane := e.user(t, "jane")
	tests := []struct{ id, want string }{
		{"my_customers", "SELECT CustomerId, SupportRepId FROM Customer WHERE SupportRepId = 3 ORDER BY CustomerId"},
		{"customer_totals", "SELECT c.CustomerId, round(sum(i.Total), 2) FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId WHERE c.SupportRepId = 3 GROUP BY c.CustomerId ORDER BY 1"},
		{"invoices_of_customers", "SELECT count(*) FROM Invoice WHERE CustomerId IN (SELECT CustomerId FROM Customer WHERE SupportRepId = 3)"},
		{"customers_cte", "SELECT count(*) FROM Customer WHERE SupportRepId = 3"},
		{"customer_emails", "SELECT Email FROM Customer WHERE SupportRepId = 3 ORDER BY 1"},
		{"customer_star", "SELECT * FROM Customer WHERE SupportRepId = 3 ORDER BY SupportRepId DESC, CustomerId LIMIT 1"},
	}
	for _, tt := range tests {
		got, err := e.run(t, jane, tt.id, nil)
		if err != nil {
			t.Errorf("%s: %v", tt.id, err)
			continue
		}
		want := e.raw(t, tt.want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v\nwant %v", tt.id, got, want)
		}
		all, err := e.run(t, scope.SingleUser(), tt.id, nil)
		if err != nil || reflect.DeepEqual(all, got) {
			t.Errorf("%s: unfiltered answer is the same (%v)", tt.id, err)
		}
	}
	for _, r := range mustRows(t, e, jane, "my_customers") {
		if r[1] != int64(3) {
			t.Fatalf("jane sees customer %v of rep %v", r[0], r[1])
		}
	}
	// jane may not run what reads beyond Customer and Invoice
	if _, err := e.run(t, jane, "tracks", nil); code(err) != CodeNotFound {
		t.Errorf("tracks: %v", err)
	}
	if ids := listIDs(e.set.List(jane, "chinook")); !slices.Equal(ids, []string{"revenue_by_country", "revenue_unchecked", "my_customers", "customer_totals",
		"invoices_of_customers", "customers_cte", "customer_emails", "customer_star", "customer_cities"}) {
		t.Errorf("jane lists %v", ids)
	}
	// without the attribute the filter cannot be applied: nothing reading
	// Customer runs, and the refusal is ROW_FILTER, never unfiltered rows
	janeless := e.user(t, "janeless")
	if _, err := e.run(t, janeless, "my_customers", nil); code(err) != CodeNotFound {
		t.Errorf("janeless by id: %v", err)
	}
	q, _ := e.set.Get("my_customers")
	if _, err := Run(context.Background(), e.src, q, nil, janeless, 0); code(err) != CodeRowFilter {
		t.Errorf("janeless: %v", err)
	}
	if ids := listIDs(e.set.List(janeless, "")); !slices.Equal(ids, []string{"revenue_by_country", "revenue_unchecked"}) {
		t.Errorf("janeless lists %v", ids)
	}
}

func mustRows(t *testing.T, e *chinookEnv, sc *scope.Scope, id string) [][]any {
	rows, err := e.run(t, sc, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func listIDs(s []Summary) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.ID)
	}
	return out
}

// Alice (analyst) may not read Customer.Email: queries that name it or
// use * on Customer are neither listed nor run; the others run unfiltered.
func TestAnalystVerifiedQueries(t *testing.T) {
	e := setupChinook(t)
	alice := e.user(t, "alice")
	for _, id := range []string{"customer_emails", "customer_star", "customers_cte"} {
		if _, err := e.run(t, alice, id, nil); code(err) != CodeNotFound {
			t.Errorf("%s: %v", id, err)
		}
		q, _ := e.set.Get(id)
		if _, err := Run(context.Background(), e.src, q, nil, alice, 0); code(err) != CodeNotAllowed || strings.Contains(err.Error(), "Email") {
			t.Errorf("%s: %v", id, err)
		}
	}
	got := mustRows(t, e, alice, "customer_cities")
	if want := e.raw(t, "SELECT City, count(*) FROM Customer GROUP BY City ORDER BY City"); !reflect.DeepEqual(got, want) {
		t.Errorf("cities %v", got)
	}
	if ids := listIDs(e.set.List(alice, "chinook")); slices.Contains(ids, "customer_emails") || !slices.Contains(ids, "tracks") {
		t.Errorf("alice lists %v", ids)
	}
	if _, err := e.run(t, scope.SingleUser(), "nope", nil); code(err) != CodeNotFound {
		t.Error(err)
	}
}

// fakeFiller answers a fixed JSON object and counts its calls.
type fakeFiller struct {
	answer string
	calls  int
	last   ParamRequest
}

func (f *fakeFiller) FillParams(_ context.Context, req ParamRequest) ([]byte, error) {
	f.calls++
	f.last = req
	return []byte(f.answer), nil
}

// A verified query answers a matching question with no planner call; the
// model only fills the year. An injection value is refused by the param
// check, or, without a pattern, compared as a value; Invoice survives.
func TestAnswerFromVerifiedQuery(t *testing.T) {
	e := setupChinook(t)
	ctx := context.Background()
	alice := e.user(t, "alice")
	planner := 0
	ask := func(question string, f *fakeFiller) (*Answer, error) {
		ans, ok, err := e.set.Answer(ctx, nil, f, e.src, "chinook", question, alice, 0)
		if !ok {
			planner++ // the generated path would run here
		}
		return ans, err
	}
	f := &fakeFiller{answer: `{"year": "2024"}`}
	ans, err := ask("What was the revenue by country in 2024?", f)
	if err != nil || ans == nil || ans.Query.ID != "revenue_by_country" || planner != 0 || f.calls != 1 {
		t.Fatalf("ans %+v err %v planner %d fills %d", ans, err, planner, f.calls)
	}
	want := e.raw(t, "SELECT BillingCountry, SUM(Total) FROM Invoice WHERE strftime('%Y', InvoiceDate) = '2024' GROUP BY BillingCountry")
	if len(want) == 0 || !reflect.DeepEqual(ans.Result.Rows, want) {
		t.Errorf("rows %v, want %v", ans.Result.Rows, want)
	}
	if strings.Contains(string(mustJSON(t, f.last)), "SELECT") {
		t.Error("the model saw the SQL")
	}
	if _, err := ask("Which artist has the most albums?", &fakeFiller{}); err != nil || planner != 1 {
		t.Errorf("an unrelated question must take the generated path: %v %d", err, planner)
	}

	sum := fileSum(t, e.path)
	invoices := e.raw(t, "SELECT count(*) FROM Invoice")
	hostile := `{"year": "2024'; DROP TABLE Invoice; --"}`
	if _, err := ask("What was revenue by country in 2024?", &fakeFiller{answer: hostile}); code(err) != CodeParams {
		t.Errorf("the pattern must refuse it: %v", err)
	}
	params, _ := DecodeParams([]byte(hostile))
	rows, err := e.run(t, alice, "revenue_unchecked", params)
	if err != nil || rows[0][0] != int64(0) {
		t.Errorf("compared as a value: %v %v", rows, err)
	}
	if got := e.raw(t, "SELECT count(*) FROM Invoice"); !reflect.DeepEqual(got, invoices) || fileSum(t, e.path) != sum {
		t.Error("Invoice changed")
	}
	for _, bad := range []string{`{"year": 2024}`, `{}`, `{"year": "2024", "extra": 1}`, `[]`} {
		if _, err := ask("What was revenue by country in 2024?", &fakeFiller{answer: bad}); code(err) != CodeParams {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestMatch(t *testing.T) {
	set := &Set{MinSimilarity: DefaultMinSimilarity}
	qs := []*Query{
		{ID: "revenue_by_country", Description: "Revenue per billing country for one year",
			Questions: []string{"What was revenue by country in 2024?", "Sales per country last year"}},
		{ID: "top_artists", Description: "Artists with the most albums", Questions: []string{"Which artists have the most albums?"}},
	}
	tests := []struct {
		question, want string
	}{
		{"What was revenue by country in 2023?", "revenue_by_country"},
		{"revenue per country 2021", "revenue_by_country"},
		{"SALES PER COUNTRY LAST YEAR", "revenue_by_country"},
		{"which artist has the most albums", "top_artists"},
		{"revenue by genre", ""},
		{"", ""},
		{"How many tracks are longer than five minutes?", ""},
	}
	for _, tt := range tests {
		got, score, ok := set.Match(nil, tt.question, qs)
		id := ""
		if ok {
			id = got.ID
		}
		if id != tt.want {
			t.Errorf("%q matched %q (%.2f), want %q", tt.question, id, score, tt.want)
		}
	}
	// deterministic: ties go to the earlier candidate
	dup := []*Query{{ID: "a", Questions: []string{"x y"}}, {ID: "b", Questions: []string{"x y"}}}
	for range 10 {
		if got, _, _ := set.Match(TokenMatcher{}, "x y", dup); got.ID != "a" {
			t.Fatal("tie broken differently")
		}
	}
}

// `curated validate` and `curated test` over Chinook.
func TestValidateAndTestCommands(t *testing.T) {
	e := setupChinook(t)
	var out bytes.Buffer
	err := Validate(context.Background(), e.cfg, &out)
	if !errors.Is(err, ErrRefused) || !strings.Contains(out.String(), "refused employees: TABLE_NOT_READABLE") || !strings.Contains(out.String(), "ok revenue_by_country\n") {
		t.Errorf("validate: %v\n%s", err, out.String())
	}
	out.Reset()
	err = Test(context.Background(), e.cfg, &out)
	if !errors.Is(err, ErrRefused) || !strings.Contains(out.String(), "ok revenue_by_country: ") {
		t.Errorf("test: %v\n%s", err, out.String())
	}
	// a clean file passes both
	path := sourcetest.CopyToTemp(t, "../examples/chinook/chinook.sqlite")
	cfg := writeSetup(t, "datasources: [{id: chinook, engine: sqlite, path: '"+path+"'}]", nil, chinookQueries[0], chinookQueries[2])
	out.Reset()
	if err := Validate(context.Background(), cfg, &out); err != nil {
		t.Errorf("%v\n%s", err, out.String())
	}
	out.Reset()
	if err := Test(context.Background(), cfg, &out); err != nil || !strings.Contains(out.String(), "2 verified queries passed") {
		t.Errorf("%v\n%s", err, out.String())
	}
	// a required param without an example fails the test
	cfg = writeSetup(t, "datasources: [{id: chinook, engine: sqlite, path: '"+path+"'}]", nil,
		q("no_example", "SELECT count(*) FROM Invoice WHERE BillingCountry = :c", map[string]any{"name": "c", "type": "string", "required": true}))
	out.Reset()
	if err := Test(context.Background(), cfg, &out); !errors.Is(err, ErrRefused) || !strings.Contains(out.String(), "no example") {
		t.Errorf("%v\n%s", err, out.String())
	}
}
