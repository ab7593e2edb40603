package evalret

import (
	"regexp"
	"strings"

	"github.com/nl2sql/nl2sql/internal/schema"
)

// DDLComments fills each empty Column.Comment of snap from the
// "-- …" comments of SQLite CREATE TABLE statements (ddl maps a table name
// to its sqlite_master.sql). A column's comment is the comment lines just
// above its definition plus any comment at the end of its line (tables get
// none: SQLite has no convention for theirs). Lines that start
// with "Stats:" (machine-made profile notes) are dropped.
//
// The engine's SQLite adapter does not read these comments (yet); the
// evaluation uses this stand-in so databases that document themselves in
// their DDL (the BIRD databases do) are indexed with their descriptions.
func DDLComments(snap *schema.Snapshot, ddl map[string]string) {
	for i := range snap.Tables {
		t := &snap.Tables[i]
		text, ok := ddl[t.Name]
		if !ok {
			continue
		}
		cols := parseDDLComments(text)
		for j := range t.Columns {
			c := &t.Columns[j]
			if c.Comment == "" {
				c.Comment = cols[strings.ToLower(c.Name)]
			}
		}
	}
}

var colNameRe = regexp.MustCompile(`^\s*(?:"((?:[^"]|"")+)"|` + "`([^`]+)`" + `|\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_$]*))`)

func parseDDLComments(ddl string) map[string]string {
	cols := map[string]string{}
	lines := strings.Split(ddl, "\n")
	var pending []string
	started := false
	for _, line := range lines {
		if !started {
			if k := strings.Index(line, "("); k >= 0 {
				started = true
				line = line[k+1:]
			} else {
				continue
			}
		}
		code, comment, _ := strings.Cut(line, "--")
		comment = strings.TrimSpace(comment)
		if strings.TrimSpace(code) == "" {
			if comment != "" && !strings.HasPrefix(comment, "Stats:") {
				pending = append(pending, comment)
			}
			continue
		}
		m := colNameRe.FindStringSubmatch(code)
		if m == nil {
			pending = nil
			continue
		}
		name := m[1] + m[2] + m[3] + m[4]
		name = strings.ReplaceAll(name, `""`, `"`)
		switch strings.ToUpper(name) {
		case "PRIMARY", "FOREIGN", "UNIQUE", "CHECK", "CONSTRAINT":
			pending = nil
			continue
		}
		parts := append(pending, comment)
		cols[strings.ToLower(name)] = strings.TrimSpace(strings.Join(nonEmpty(parts), " "))
		pending = nil
	}
	return cols
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" && !strings.HasPrefix(s, "Stats:") {
			out = append(out, s)
		}
	}
	return out
}
