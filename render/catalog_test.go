package render_test

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sql/nl2sql/internal/source/sqlitefold"
	"github.com/nl2sql/nl2sql/internal/source/sqlitestats"
	"github.com/nl2sql/nl2sql/internal/source/sqlitezone"
	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/render"

	_ "modernc.org/sqlite"
)

// memCatalog is an in-memory planast.Catalog: exact name first, then a
// unique case-insensitive match.
type memCatalog []*planast.TableInfo

func (c memCatalog) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if schema != "" {
		return nil, false
	}
	for _, t := range c {
		if t.Name == name {
			return t, true
		}
	}
	var hit *planast.TableInfo
	n := 0
	for _, t := range c {
		if strings.EqualFold(t.Name, name) {
			hit, n = t, n+1
		}
	}
	return hit, n == 1
}

// table builds a TableInfo from "name type" specs, the first column being
// the primary key, and "col>Table.col" foreign keys.
func table(name string, cols []string, fks ...string) *planast.TableInfo {
	t := &planast.TableInfo{Name: name}
	for _, c := range cols {
		i := strings.LastIndexByte(c, ' ')
		t.Columns = append(t.Columns, planast.ColumnInfo{Name: c[:i], Type: planast.Type(c[i+1:])})
	}
	t.PrimaryKey = []string{t.Columns[0].Name}
	for _, f := range fks {
		col, ref, _ := strings.Cut(f, ">")
		rt, rc, _ := strings.Cut(ref, ".")
		t.ForeignKeys = append(t.ForeignKeys, planast.ForeignKeyInfo{Columns: []string{col}, RefTable: rt, RefColumns: []string{rc}})
	}
	return t
}

// goldenCatalog is modelled on Chinook, plus the awkward names of
// shared/hostile/schema_fixture.sql.
var goldenCatalog = memCatalog{
	table("Artist", []string{"ArtistId integer", "Name text"}),
	table("Album", []string{"AlbumId integer", "Title text", "ArtistId integer"}, "ArtistId>Artist.ArtistId"),
	table("Genre", []string{"GenreId integer", "Name text"}),
	table("Track", []string{"TrackId integer", "Name text", "AlbumId integer", "GenreId integer", "Composer text",
		"Milliseconds integer", "UnitPrice decimal"}, "AlbumId>Album.AlbumId", "GenreId>Genre.GenreId"),
	table("Customer", []string{"CustomerId integer", "FirstName text", "LastName text", "Country text", "Email text",
		"Active boolean", "SignupDate date"}),
	table("Invoice", []string{"InvoiceId integer", "CustomerId integer", "InvoiceDate timestamp", "BillingCountry text",
		"Total decimal"}, "CustomerId>Customer.CustomerId"),
	table("InvoiceLine", []string{"InvoiceLineId integer", "InvoiceId integer", "TrackId integer", "UnitPrice decimal",
		"Quantity integer"}, "InvoiceId>Invoice.InvoiceId", "TrackId>Track.TrackId"),
	table("order", []string{"select integer", "unit price decimal", "größe text", "客户 text", "Group integer", `a"b text`}),
	table("Order Items", []string{"ItemID integer", "OrderSelect integer", "Qty integer"}, `OrderSelect>order.select`),
}

// goldenRows are a few rows per table: enough for joins to match, NULLs,
// ties and quarter/month boundaries.
var goldenRows = map[string][]string{
	"Artist": {`1, 'AC/DC'`, `2, 'Accept'`, `3, 'Aerosmith'`, `4, NULL`},
	"Album":  {`1, 'For Those About To Rock', 1`, `2, 'Balls to the Wall', 2`, `3, 'Restless and Wild', 2`, `4, 'Big Ones', 3`},
	"Genre":  {`1, 'Rock'`, `2, 'Jazz'`, `3, 'Metal'`},
	"Track": {`1, 'For Those About To Rock', 1, 1, 'Angus Young', 343719, 0.99`, `2, 'Balls to the Wall', 2, 1, NULL, 342562, 0.99`,
		`3, 'Fast As a Shark', 3, 3, 'F. Baltes', 230619, 0.99`, `4, 'Walk On Water', 4, 1, 'Steven Tyler', 295680, 1.99`, `5, 'Love In An Elevator', 4, 2, NULL, 321828, 1.99`},
	"Customer": {`1, 'Luís', 'Gonçalves', 'Brazil', 'luisg@embraer.com.br', TRUE, '2021-01-31'`, `2, 'Leonie', 'Köhler', 'Germany', 'leonekohler@surfeu.de', FALSE, '2021-05-15'`,
		`3, 'François', 'Tremblay', 'Canada', NULL, TRUE, '2021-11-30'`, `4, 'Bjørn', 'Hansen', NULL, 'bjorn.hansen@yahoo.no', NULL, NULL`},
	"Invoice": {`1, 2, '2021-01-01 00:00:00', 'Germany', 1.98`, `2, 4, '2021-01-02 00:00:00', 'Norway', 3.96`, `3, 1, '2021-03-31 12:30:00', 'Brazil', 5.94`,
		`4, 3, '2021-12-31 23:59:59', 'Canada', 0.99`},
	"InvoiceLine": {`1, 1, 1, 0.99, 1`, `2, 1, 2, 0.99, 1`, `3, 2, 3, 0.99, 2`, `4, 2, 4, 1.99, 1`, `5, 3, 5, 1.99, 3`, `6, 4, 1, 0.99, 1`},
	"order":       {`1, 9.99, 'klein', '甲', 1, 'x'`, `2, 0.10, 'groß', '乙', 2, 'y'`},
	"Order Items": {`1, 1, 3`, `2, 1, 4`, `3, 2, 5`},
}

var sqliteTypes = map[planast.Type]string{
	planast.TypeInteger: "INTEGER", planast.TypeDecimal: "NUMERIC", planast.TypeFloat: "REAL", planast.TypeText: "TEXT",
	planast.TypeBoolean: "BOOLEAN", planast.TypeDate: "DATE", planast.TypeTimestamp: "TIMESTAMP", planast.TypeBlob: "BLOB",
}

// statsOnce registers the standard deviation aggregates and the letter
// folding upper and lower on the default SQLite driver, as the adapter
// registers them on its own.
var (
	statsOnce sync.Once
	statsErr  error
)

// openSQLite opens a fresh in-memory SQLite database, set up as the engine
// adapter sets it up (case-sensitive LIKE), holding cat's tables and rows.
func openSQLite(t testing.TB, cat memCatalog, rows map[string][]string) *sql.DB {
	t.Helper()
	statsOnce.Do(func() {
		statsErr = errors.Join(sqlitestats.RegisterDefault(), sqlitefold.RegisterDefault(), sqlitezone.RegisterDefault())
	})
	if statsErr != nil {
		t.Fatal(statsErr)
	}
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	t.Cleanup(func() { db.Close() })
	stmts := []string{"PRAGMA case_sensitive_like=ON"}
	for _, tb := range cat {
		var cols []string
		for i, c := range tb.Columns {
			def := render.QuoteIdent(c.Name) + " " + sqliteTypes[c.Type]
			if i == 0 {
				def += " PRIMARY KEY"
			}
			cols = append(cols, def)
		}
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s (%s)", render.QuoteIdent(tb.Name), strings.Join(cols, ", ")))
		for _, r := range rows[tb.Name] {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES (%s)", render.QuoteIdent(tb.Name), r))
		}
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return db
}

// queryAll runs q and returns its rows as strings ("NULL" for NULL).
func queryAll(db *sql.DB, q string) ([][]string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				row[i] = "NULL"
			case []byte:
				row[i] = string(x)
			default:
				row[i] = fmt.Sprint(x)
			}
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

var sqliteDialect, _ = render.Lookup("sqlite")

// dialects returns the three dialects in a fixed order.
func dialects() []render.Dialect {
	var out []render.Dialect
	for _, n := range render.Names() {
		d, _ := render.Lookup(n)
		out = append(out, d)
	}
	return out
}
