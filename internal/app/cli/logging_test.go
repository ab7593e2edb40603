package cli

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

func TestNewLogger(t *testing.T) {
	base := slog.New(slog.DiscardHandler)
	cases := []struct {
		format, level string
		json          bool   // the line written at info is one JSON object
		logged        bool   // an info line is written at all
		err           string // substring of the error
	}{
		{"json", "info", true, true, ""},
		{"JSON", "debug", true, true, ""},
		{"text", "info", false, true, ""},
		{"json", "", true, false, ""}, // default level warn
		{"xml", "", false, false, "--log-format"},
		{"", "loud", false, false, "--log-level"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		l, err := newLogger(base, &buf, c.format, c.level)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s/%s: err %v, want %q", c.format, c.level, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		l.Info("serving", "addr", "127.0.0.1:8080")
		if got := buf.Len() > 0; got != c.logged {
			t.Errorf("%s/%s: logged %v, want %v", c.format, c.level, got, c.logged)
		}
		var m map[string]any
		if isJSON := json.Unmarshal(buf.Bytes(), &m) == nil && m["msg"] == "serving" && m["addr"] == "127.0.0.1:8080"; c.logged && isJSON != c.json {
			t.Errorf("%s/%s: JSON %v, want %v: %s", c.format, c.level, isJSON, c.json, buf.String())
		}
	}
	if l, _ := newLogger(base, nil, "", ""); l != base {
		t.Error("no flags should keep the logger")
	}
}
