package lift

import (
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// testCatalog is a small schema for the lift tests: a Spider-like concert
// database and a dated invoice table.
type testCatalog map[string]*planast.TableInfo

func (c testCatalog) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if t, ok := c[name]; ok {
		return t, true
	}
	for k, t := range c {
		if strings.EqualFold(k, name) {
			return t, true
		}
	}
	return nil, false
}

func table(name string, pk string, cols ...string) *planast.TableInfo {
	t := &planast.TableInfo{Schema: "main", Name: name}
	if pk != "" {
		t.PrimaryKey = []string{pk}
	}
	for _, c := range cols {
		n, typ, _ := strings.Cut(c, ":")
		if typ == "timestamptz" {
			t.Columns = append(t.Columns, planast.ColumnInfo{Name: n, Type: planast.TypeTimestamp, Zoned: true})
			continue
		}
		t.Columns = append(t.Columns, planast.ColumnInfo{Name: n, Type: planast.Type(typ)})
	}
	return t
}

var cat = testCatalog{
	"singer":            table("singer", "Singer_ID", "Singer_ID:integer", "Name:text", "Country:text", "Age:integer", "Is_male:boolean"),
	"stadium":           table("stadium", "Stadium_ID", "Stadium_ID:integer", "Name:text", "Capacity:integer", "Average:integer"),
	"concert":           table("concert", "concert_ID", "concert_ID:integer", "concert_Name:text", "Stadium_ID:text", "Year:text"),
	"singer_in_concert": table("singer_in_concert", "", "concert_ID:integer", "Singer_ID:text"),
	"invoice":           table("invoice", "Id", "Id:integer", "InvoiceDate:timestamp", "DueDate:date", "Total:float", "CustomerId:integer", "Note:text"),
	"customer":          table("customer", "Id", "Id:integer", "Name:text", "City:text", "Score:decimal"),
	"visit":             table("visit", "Id", "Id:integer", "StartsAt:timestamptz", "Zone:text", "Fee:decimal"),
}
