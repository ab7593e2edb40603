package config

import (
	"fmt"
	"os"
	"path/filepath"
)

// FlagsLabel is what a configuration made from command-line flags (nl2sql
// serve --db FILE) is called where a config file's name would be: Config.File
// and error messages.
const FlagsLabel = "--db"

// FlagDatasource is one database named on the command line.
type FlagDatasource struct {
	ID     string
	Engine string // one of Engines
	Path   string // absolute database file (sqlite, duckdb)
	DSN    string // postgres
	// AllowWritableRole sets allow_writable_role (postgres only; see
	// Datasource.AllowWritableRole).
	AllowWritableRole bool
}

// FromFlags builds a configuration from databases named on the command
// line, without a file: the datasources with their defaults, storage at
// storagePath (absolute), no llm section (the host plans), no roles
// (single-user). It goes through the same environment overrides
// (NL2SQL_STORAGE__PATH, NL2SQL_LLM__DEFAULT__PROVIDER, …) and checks as
// Load, and errors name FlagsLabel where Load's name the file.
func FromFlags(dss []FlagDatasource, storagePath string) (*Config, error) {
	return fromFlags(dss, storagePath, os.Environ(), os.LookupEnv)
}

func fromFlags(dss []FlagDatasource, storagePath string, environ []string, lookup func(string) (string, bool)) (*Config, error) {
	list := make([]any, len(dss))
	for i, d := range dss {
		m := map[string]any{"id": d.ID, "engine": d.Engine}
		if d.Path != "" {
			m["path"] = d.Path
		}
		if d.DSN != "" {
			m["dsn"] = d.DSN
		}
		if d.AllowWritableRole {
			m["allow_writable_role"] = true
		}
		list[i] = m
	}
	raw := map[string]any{"storage": map[string]any{"path": storagePath}, "datasources": list}
	if err := applyEnv(raw, environ); err != nil {
		return nil, fmt.Errorf("%s: %w", FlagsLabel, err)
	}
	if err := expandEnv(raw, "", lookup); err != nil {
		return nil, fmt.Errorf("%s: %w", FlagsLabel, err)
	}
	var fc fileConfig
	if err := decode(raw, &fc); err != nil {
		return nil, perFile(FlagsLabel, err)
	}
	// Paths are absolute already; relative overrides resolve against the
	// working directory.
	wd, err := os.Getwd()
	if err != nil {
		wd = string(filepath.Separator)
	}
	c, err := build(FlagsLabel, filepath.Join(wd, FlagsLabel), &fc)
	if err != nil {
		return nil, err
	}
	c.File = FlagsLabel
	return c, nil
}
