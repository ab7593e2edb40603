package planast_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
)

// memCatalog is an in-memory planast.Catalog with the lookup rules
// internal/schema.Snapshot has: exact name first, then a case-insensitive match
// when exactly one table has it; an empty schema is the default search path.
type memCatalog []*planast.TableInfo

func (c memCatalog) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	inSchema := func(t *planast.TableInfo) bool {
		if schema == "" {
			return t.Schema == ""
		}
		return strings.EqualFold(t.Schema, schema)
	}
	for _, t := range c {
		if inSchema(t) && t.Name == name {
			return t, true
		}
	}
	var hit *planast.TableInfo
	n := 0
	for _, t := range c {
		if inSchema(t) && strings.EqualFold(t.Name, name) {
			hit, n = t, n+1
		}
	}
	return hit, n == 1
}

// table builds a TableInfo from "name type" column specs; the first column
// is the primary key.
func table(schema, name string, cols []string, fks ...planast.ForeignKeyInfo) *planast.TableInfo {
	t := &planast.TableInfo{Schema: schema, Name: name, ForeignKeys: fks}
	for _, c := range cols {
		i := strings.LastIndexByte(c, ' ')
		t.Columns = append(t.Columns, planast.ColumnInfo{Name: c[:i], Type: planast.Type(c[i+1:])})
	}
	t.PrimaryKey = []string{t.Columns[0].Name}
	return t
}

func fk(col, refTable, refCol string) planast.ForeignKeyInfo {
	return planast.ForeignKeyInfo{Columns: []string{col}, RefTable: refTable, RefColumns: []string{refCol}}
}

// chinook is modelled on the Chinook sample database, plus the awkward names
// of shared/hostile/schema_fixture.sql (reserved words, spaces, quotes,
// mixed case, non-ASCII), a hidden Employee table and an archive schema.
var chinook = memCatalog{
	table("", "Artist", []string{"ArtistId integer", "Name text"}),
	table("", "Album", []string{"AlbumId integer", "Title text", "ArtistId integer"}, fk("ArtistId", "Artist", "ArtistId")),
	table("", "Genre", []string{"GenreId integer", "Name text"}),
	table("", "Track", []string{"TrackId integer", "Name text", "AlbumId integer", "GenreId integer",
		"Composer text", "Milliseconds integer", "UnitPrice decimal"},
		fk("AlbumId", "Album", "AlbumId"), fk("GenreId", "Genre", "GenreId")),
	table("", "Customer", []string{"CustomerId integer", "FirstName text", "LastName text", "Country text",
		"Email text", "SupportRepId integer", "Active boolean", "SignupDate date"},
		fk("SupportRepId", "Employee", "EmployeeId")),
	table("", "Invoice", []string{"InvoiceId integer", "CustomerId integer", "InvoiceDate timestamp",
		"BillingCountry text", "Total decimal"}, fk("CustomerId", "Customer", "CustomerId")),
	table("", "InvoiceLine", []string{"InvoiceLineId integer", "InvoiceId integer", "TrackId integer",
		"UnitPrice decimal", "Quantity integer"}, fk("InvoiceId", "Invoice", "InvoiceId"), fk("TrackId", "Track", "TrackId")),
	table("", "PlaylistTrack", []string{"PlaylistId integer", "TrackId integer"}, fk("TrackId", "Track", "TrackId")),
	table("", "Employee", []string{"EmployeeId integer", "LastName text", "Salary decimal"}),
	table("archive", "Invoice", []string{"InvoiceId integer", "Total decimal"}),
	table("", "order", []string{"select integer", "unit price decimal", "größe text", "客户 text", "Group integer", `a"b text`}),
	table("", "Order Items", []string{"ItemID integer", "OrderSelect integer", "Qty integer"}, fk("OrderSelect", "order", "select")),
}

// denyAccess hides whole tables and single columns ("Table.Column").
type denyAccess map[string]bool

func (d denyAccess) AllowTable(schema, table string) bool { return !d[table] }
func (d denyAccess) AllowColumn(schema, table, column string) bool {
	return !d[table] && !d[table+"."+column]
}

// policy hides the Employee table and Customer.Email.
var policy = denyAccess{"Employee": true, "Customer.Email": true}

func decode(t *testing.T, plan string) *planast.Query {
	t.Helper()
	q, err := planast.Decode([]byte(plan), planast.Limits{})
	if err != nil {
		t.Fatalf("decode: %v\nplan: %s", err, plan)
	}
	return q
}

// issues returns the *planast.Error behind err, failing the test otherwise.
func issues(t *testing.T, err error) []planast.Issue {
	t.Helper()
	var pe *planast.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *planast.Error", err, err)
	}
	if len(pe.Issues) == 0 {
		t.Fatal("a *planast.Error without issues")
	}
	return pe.Issues
}

func hasCode(is []planast.Issue, c planast.Code) bool {
	for _, i := range is {
		if i.Code == c {
			return true
		}
	}
	return false
}

// allCodes lists every code in errors.go; TestEveryCodeIsReachable keeps it honest.
var allCodes = []planast.Code{
	planast.CodeTooLarge, planast.CodeMalformed, planast.CodeUnknownField, planast.CodeBadValue,
	planast.CodeTableNotFound, planast.CodeColumnNotFound, planast.CodeAmbiguous, planast.CodeAmbiguousTable, planast.CodeAliasNotFound,
	planast.CodeDuplicateAlias, planast.CodeNotJoined, planast.CodeBadJoin, planast.CodeFunction,
	planast.CodeArity, planast.CodeType, planast.CodeGrouping, planast.CodeOrder, planast.CodeLimit,
	planast.CodeSetOp, planast.CodeAccessDenied, planast.CodeEmptySelect,
}
