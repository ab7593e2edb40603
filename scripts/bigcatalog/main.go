// Command bigcatalog writes a large SQLite catalog for measuring how
// nl2sql indexes, restarts and serves at real-world size: by default 2,000
// tables of 20 columns with realistic names, a foreign key from most
// tables to an earlier one, and a few rows in each (text columns of low
// and high cardinality, numbers, dates). The output is deterministic for a
// given seed.
//
//	go run ./scripts/bigcatalog -out /tmp/big.sqlite
//	go run ./scripts/bigcatalog -out /tmp/big.sqlite -tables 2000 -columns 20 -rows 20
//
// It also writes nl2sql.yaml beside the database (datasource "big", and a
// small "chinook" one when -chinook names a Chinook file), so
// `nl2sql index --config DIR/nl2sql.yaml` measures the first index build.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite"
)

var domains = []string{"sales", "crm", "hr", "fin", "inv", "ops", "mkt", "sup", "log", "prod", "qa", "it", "legal", "proc", "ship"}
var nouns = []string{"customer", "order", "invoice", "payment", "shipment", "product", "supplier", "employee", "contract",
	"ticket", "account", "ledger", "warehouse", "campaign", "lead", "asset", "vendor", "refund", "budget", "region",
	"store", "device", "policy", "claim", "visit", "booking", "route", "carrier", "batch", "quote"}
var suffixes = []string{"", "_line", "_history", "_item", "_event", "_log", "_detail", "_note", "_status", "_snapshot"}
var textCols = []string{"name", "status", "category", "city", "country", "code", "description", "email", "channel",
	"segment", "priority", "currency", "source", "owner_name", "label", "tier", "reason", "state", "title", "notes"}
var numCols = []string{"amount", "quantity", "price", "discount", "score", "weight", "total", "balance", "rate", "cost"}
var dateCols = []string{"created_at", "updated_at", "due_date", "shipped_at", "closed_on"}
var words = []string{"alpha", "north", "south", "east", "west", "open", "closed", "pending", "gold", "silver", "bronze",
	"Paris", "Berlin", "Lisbon", "Oslo", "Madrid", "Rome", "Vienna", "Prague", "Dublin", "Tokyo", "Lima", "Quito"}

func main() {
	out := flag.String("out", "big.sqlite", "database file to write (replaced)")
	tables := flag.Int("tables", 2000, "tables")
	columns := flag.Int("columns", 20, "columns per table (at least 4)")
	rows := flag.Int("rows", 20, "rows per table")
	seed := flag.Uint64("seed", 1, "random seed")
	chinook := flag.String("chinook", "", "a Chinook SQLite file to configure as a second, small datasource")
	flag.Parse()
	if *columns < 4 {
		log.Fatal("bigcatalog: -columns must be at least 4")
	}
	if err := write(*out, *tables, *columns, *rows, *seed); err != nil {
		log.Fatal(err)
	}
	if err := writeConfig(*out, *chinook); err != nil {
		log.Fatal(err)
	}
}

// tableName is unique per index: domain, noun, suffix, and a number when
// the combinations run out.
func tableName(i int) string {
	d := domains[i%len(domains)]
	n := nouns[(i/len(domains))%len(nouns)]
	s := suffixes[(i/(len(domains)*len(nouns)))%len(suffixes)]
	name := d + "_" + n + s
	if k := i / (len(domains) * len(nouns) * len(suffixes)); k > 0 {
		name += fmt.Sprintf("_%d", k+1)
	}
	return name
}

func write(path string, tables, columns, rows int, seed uint64) error {
	_ = os.Remove(path)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for ti := 0; ti < tables; ti++ {
		name := tableName(ti)
		cols := []string{"id INTEGER PRIMARY KEY"}
		kinds := []byte{'i'}
		parent := -1
		if ti > 0 && ti%3 != 0 { // most tables reference an earlier one
			parent = r.IntN(ti)
			cols = append(cols, fmt.Sprintf("%s_id INTEGER REFERENCES %s(id)", tableName(parent), tableName(parent)))
			kinds = append(kinds, 'f')
		}
		for len(cols) < columns {
			k := len(cols)
			switch k % 4 {
			case 0, 1:
				cols = append(cols, fmt.Sprintf("%s TEXT", uniqueCol(cols, textCols[(ti+k)%len(textCols)])))
				kinds = append(kinds, 't')
			case 2:
				cols = append(cols, fmt.Sprintf("%s REAL", uniqueCol(cols, numCols[(ti+k)%len(numCols)])))
				kinds = append(kinds, 'n')
			default:
				cols = append(cols, fmt.Sprintf("%s TEXT", uniqueCol(cols, dateCols[(ti+k)%len(dateCols)])))
				kinds = append(kinds, 'd')
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %s (%s)", name, strings.Join(cols, ", "))); err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
		ph := strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",")
		ins, err := tx.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %s VALUES (%s)", name, ph))
		if err != nil {
			return err
		}
		for ri := 1; ri <= rows; ri++ {
			args := make([]any, len(cols))
			for ci, k := range kinds {
				switch k {
				case 'i':
					args[ci] = ri
				case 'f':
					args[ci] = 1 + r.IntN(max(rows, 1))
				case 't':
					if ci%3 == 0 { // high cardinality
						args[ci] = fmt.Sprintf("%s %s %d", words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(100000))
					} else {
						args[ci] = words[r.IntN(len(words))]
					}
				case 'n':
					args[ci] = float64(r.IntN(100000)) / 100
				case 'd':
					args[ci] = fmt.Sprintf("2024-%02d-%02d", 1+r.IntN(12), 1+r.IntN(28))
				}
			}
			if _, err := ins.ExecContext(ctx, args...); err != nil {
				ins.Close()
				return err
			}
		}
		ins.Close()
	}
	return tx.Commit()
}

// uniqueCol suffixes base with a number when cols already has it.
func uniqueCol(cols []string, base string) string {
	name := base
	for n := 2; ; n++ {
		taken := false
		for _, c := range cols {
			if strings.HasPrefix(c, name+" ") {
				taken = true
				break
			}
		}
		if !taken {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, n)
	}
}

func writeConfig(dbPath, chinook string) error {
	abs, err := filepath.Abs(dbPath)
	if err != nil {
		return err
	}
	dir := filepath.Dir(abs)
	var b strings.Builder
	fmt.Fprintf(&b, "storage:\n  path: %s\ndatasources:\n  - id: big\n    engine: sqlite\n    path: %s\n", filepath.Join(dir, ".nl2sql"), abs)
	if chinook != "" {
		c, err := filepath.Abs(chinook)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "  - id: chinook\n    engine: sqlite\n    path: %s\n", c)
	}
	return os.WriteFile(filepath.Join(dir, "nl2sql.yaml"), []byte(b.String()), 0o644)
}
