package duckcompute

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/nl2sql/nl2sql/planast"
)

// Column is one typed column of a table: a name and a portable type.
type Column struct {
	Name string       `json:"name"`
	Type planast.Type `json:"type"`
}

// Shape is a table's name and typed columns, in order.
type Shape struct {
	Name    string
	Columns []Column
}

// nameRe is what a table or column name may be: an identifier of at most
// 63 characters. DuckDB compares identifiers case-insensitively, so names
// of one table's columns must differ in more than case.
var nameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}$`)

// ValidName reports whether s may name a table or a column here.
func ValidName(s string) bool { return nameRe.MatchString(s) }

// loadable lists the portable types a table column may have.
var loadable = map[planast.Type]bool{
	planast.TypeInteger: true, planast.TypeDecimal: true, planast.TypeFloat: true, planast.TypeText: true,
	planast.TypeBoolean: true, planast.TypeDate: true, planast.TypeTimestamp: true, planast.TypeBlob: true,
}

// Loadable reports whether a column may be declared with type t (every
// portable type but unknown).
func Loadable(t planast.Type) bool { return loadable[t] }

// check reports what is wrong with a shape, or nil.
func (s Shape) check() error {
	if !ValidName(s.Name) {
		return fmt.Errorf("table name %q is not an identifier of at most 63 characters", s.Name)
	}
	if len(s.Columns) == 0 {
		return fmt.Errorf("table %s has no columns", s.Name)
	}
	seen := map[string]bool{}
	for _, c := range s.Columns {
		if !ValidName(c.Name) {
			return fmt.Errorf("table %s: column name %q is not an identifier of at most 63 characters", s.Name, c.Name)
		}
		if seen[strings.ToLower(c.Name)] {
			return fmt.Errorf("table %s: two columns are named %q (names differing only in case clash)", s.Name, c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		if !Loadable(c.Type) {
			return fmt.Errorf("table %s: column %s has type %q; use one of integer, decimal, float, text, boolean, date, timestamp, blob", s.Name, c.Name, c.Type)
		}
	}
	return nil
}

// Catalog is a planast.Catalog over shapes, all in schema "main". Table
// names resolve exactly, else case-insensitively (as DuckDB does).
type Catalog struct {
	tables map[string]*planast.TableInfo // by lower-cased name
}

// NewCatalog builds a catalog of shapes. Shapes must be valid (see Load);
// a later shape replaces an earlier one of the same name.
func NewCatalog(shapes ...Shape) *Catalog {
	c := &Catalog{tables: map[string]*planast.TableInfo{}}
	for _, s := range shapes {
		c.add(s)
	}
	return c
}

func (c *Catalog) add(s Shape) {
	ti := &planast.TableInfo{Schema: "main", Name: s.Name}
	for _, col := range s.Columns {
		ti.Columns = append(ti.Columns, planast.ColumnInfo{Name: col.Name, Type: col.Type})
	}
	c.tables[strings.ToLower(s.Name)] = ti
}

// LookupTable implements planast.Catalog.
func (c *Catalog) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if schema != "" && !strings.EqualFold(schema, "main") {
		return nil, false
	}
	t, ok := c.tables[strings.ToLower(name)]
	return t, ok
}

// Shape returns the shape of table name.
func (c *Catalog) Shape(name string) (Shape, bool) {
	t, ok := c.LookupTable("", name)
	if !ok {
		return Shape{}, false
	}
	s := Shape{Name: t.Name}
	for _, col := range t.Columns {
		s.Columns = append(s.Columns, Column{Name: col.Name, Type: col.Type})
	}
	return s, true
}

// Names lists the catalog's table names, sorted.
func (c *Catalog) Names() []string {
	out := make([]string, 0, len(c.tables))
	for _, t := range c.tables {
		out = append(out, t.Name)
	}
	sort.Strings(out)
	return out
}

// overlay is a catalog with extra tables on top (compiled groups).
type overlay struct {
	base  planast.Catalog
	extra *Catalog
}

func (o overlay) LookupTable(schema, name string) (*planast.TableInfo, bool) {
	if t, ok := o.extra.LookupTable(schema, name); ok {
		return t, true
	}
	return o.base.LookupTable(schema, name)
}
