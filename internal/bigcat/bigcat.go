// Package bigcat writes a catalog-sized SQLite database for tests and
// measurements: many tables of many columns with realistic-ish names, a
// few rows each and foreign keys between neighbouring tables, in one
// transaction so that 2,000 tables take a second or two.
//
//	bigcat.Write(filepath.Join(t.TempDir(), "big.sqlite"), 2000, 20)
//
// Table i is named "<domain>_<entity>_<i>" (e.g. "sales_order_0007"),
// zero-padded so names sort as the tables were made; every table has an
// id primary key, a name, and columns of text, real, integer and date
// type; every fifth table but the first has a foreign key to the table
// before it.
package bigcat

import (
	"database/sql"
	"fmt"
	"strings"

	_ "modernc.org/sqlite" // the writable "sqlite" driver
)

var (
	domains  = []string{"sales", "hr", "finance", "inventory", "support", "marketing", "logistics", "billing"}
	entities = []string{"order", "employee", "invoice", "item", "ticket", "campaign", "shipment", "payment", "customer", "vendor", "contract", "asset"}
	attrs    = []string{"status", "amount", "created_at", "region", "quantity", "description", "priority", "price", "updated_at", "country", "category", "score", "currency", "channel", "owner", "due_date", "discount", "rating", "segment", "code"}
)

// TableName is the name Write gives table i.
func TableName(i int) string {
	return fmt.Sprintf("%s_%s_%04d", domains[i%len(domains)], entities[(i/len(domains))%len(entities)], i)
}

// Write creates path with tables tables of cols columns each (at least 3:
// id, name and a foreign key or attribute), two rows per table.
func Write(path string, tables, cols int) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i := range tables {
		defs := []string{"id INTEGER PRIMARY KEY", "name TEXT NOT NULL"}
		fk := i > 0 && i%5 == 0
		if fk {
			defs = append(defs, "parent_id INTEGER REFERENCES "+TableName(i-1)+"(id)")
		}
		for c := len(defs); c < cols; c++ {
			defs = append(defs, attrs[(c+i)%len(attrs)]+fmt.Sprintf("_%02d ", c)+attrType(attrs[(c+i)%len(attrs)]))
		}
		if _, err := tx.Exec("CREATE TABLE " + TableName(i) + " (" + strings.Join(defs, ", ") + ")"); err != nil {
			return fmt.Errorf("table %d: %w", i, err)
		}
		for r := 1; r <= 2; r++ {
			vals := []string{fmt.Sprint(r), fmt.Sprintf("'%s %d'", entities[(i/len(domains))%len(entities)], r)}
			if fk {
				vals = append(vals, fmt.Sprint(r))
			}
			for c := len(vals); c < cols; c++ {
				vals = append(vals, attrValue(attrs[(c+i)%len(attrs)], r+c))
			}
			if _, err := tx.Exec("INSERT INTO " + TableName(i) + " VALUES (" + strings.Join(vals, ", ") + ")"); err != nil {
				return fmt.Errorf("row of table %d: %w", i, err)
			}
		}
	}
	return tx.Commit()
}

func attrType(a string) string {
	switch {
	case strings.HasSuffix(a, "_at"), strings.HasSuffix(a, "_date"):
		return "DATE"
	case a == "amount", a == "price", a == "discount", a == "score":
		return "REAL"
	case a == "quantity", a == "priority", a == "rating":
		return "INTEGER"
	}
	return "TEXT"
}

func attrValue(a string, n int) string {
	switch attrType(a) {
	case "DATE":
		return fmt.Sprintf("'2024-%02d-%02d'", n%12+1, n%28+1)
	case "REAL":
		return fmt.Sprintf("%d.5", n*3)
	case "INTEGER":
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("'%s %d'", a, n)
}
