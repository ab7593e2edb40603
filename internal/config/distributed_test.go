package config

import (
	"strings"
	"testing"
)

// TestLoadSharedStoreAndFlavor: storage.postgres (with ${env:…}) and a
// postgres datasource's flavor load; a flavor elsewhere, or unknown, is a
// key error.
func TestLoadSharedStoreAndFlavor(t *testing.T) {
	cases := []struct {
		name, body string
		env        []string
		wantStore  string
		wantFlavor string
		wantErr    []string
	}{
		{"shared store from env", "storage: {path: st, postgres: \"${env:NL2SQL_STORE_DSN}\"}\n", nil,
			"postgres://n@127.0.0.1/state", "", nil},
		{"shared store from override", "storage: {path: st}\n", []string{"NL2SQL_STORAGE__POSTGRES=postgres://o@h/s"},
			"postgres://o@h/s", "", nil},
		{"cockroachdb flavor", "datasources:\n  - {id: a, engine: postgres, dsn: postgres://h/db, flavor: cockroachdb}\n", nil,
			"", "cockroachdb", nil},
		{"flavor on sqlite", "datasources:\n  - {id: a, engine: sqlite, path: a.db, flavor: citus}\n", nil,
			"", "", []string{"datasources[0].flavor", "needs engine postgres"}},
		{"unknown flavor", "datasources:\n  - {id: a, engine: postgres, dsn: postgres://h/db, flavor: tidb}\n", nil,
			"", "", []string{"datasources[0].flavor", `"tidb"`, "citus, cockroachdb, yugabytedb"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeConfig(t, c.body)
			cfg, err := load(p, c.env, lookupIn(map[string]string{"NL2SQL_STORE_DSN": "postgres://n@127.0.0.1/state"}))
			if c.wantErr != nil {
				if err == nil {
					t.Fatal("loaded")
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Storage.Postgres != c.wantStore {
				t.Errorf("storage.postgres = %q, want %q", cfg.Storage.Postgres, c.wantStore)
			}
			if c.wantFlavor != "" && cfg.Datasources[0].Flavor != c.wantFlavor {
				t.Errorf("flavor = %q", cfg.Datasources[0].Flavor)
			}
		})
	}
}
