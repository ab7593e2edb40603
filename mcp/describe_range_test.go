package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// describe_schema's text shows the profiled range of date, timestamp and
// numeric columns, as the planners' schema context does: a host that sees
// only five sample dates asks for a year the data does not hold and gets
// an empty answer.
func TestDescribeSchemaShowsRanges(t *testing.T) {
	c := chinookClient(t)
	res := callTool(t, c, "describe_schema", map[string]any{"datasource": "chinook", "table": "Invoice"})
	if res.IsError {
		t.Fatal(text(res))
	}
	var out struct {
		Tables []struct {
			Columns []struct {
				Name    string `json:"name"`
				Profile *struct {
					Min any `json:"min"`
					Max any `json:"max"`
				} `json:"profile"`
			} `json:"columns"`
		} `json:"tables"`
	}
	structured(t, res, &out)
	lines := strings.Split(text(res), "\n")
	checked := 0
	for _, col := range out.Tables[0].Columns {
		if col.Name != "InvoiceDate" && col.Name != "Total" {
			continue
		}
		if col.Profile == nil || col.Profile.Min == nil {
			t.Fatalf("%s has no profiled range", col.Name)
		}
		lo, _ := json.Marshal(col.Profile.Min)
		hi, _ := json.Marshal(col.Profile.Max)
		want := "[" + string(lo) + ", " + string(hi) + "]"
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(strings.TrimSpace(l), col.Name+" ") && strings.Contains(l, "range "+want)
		}
		if !found {
			t.Errorf("describe_schema's text has no line for %s with range %s:\n%s", col.Name, want, text(res))
		}
		checked++
	}
	if checked != 2 {
		t.Fatalf("checked %d columns, want InvoiceDate and Total", checked)
	}
}
