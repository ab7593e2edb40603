package config

import (
	"github.com/nl2sql/nl2sql/planast"

	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/v2"
)

// Load reads the config file at path: the YAML, then the environment
// overrides (see applyEnv), then ${env:VAR} expansion (see expandEnv), then
// strict decoding and validation. Every error names the file and the key
// (or the environment variable); all problems are reported together.
func Load(path string) (*Config, error) {
	return load(path, os.Environ(), os.LookupEnv)
}

// load is Load with the environment passed in (tests).
func load(path string, environ []string, lookup func(string) (string, bool)) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	k := koanf.New(".")
	if err := k.Load(file.Provider(abs), yaml.Parser()); err != nil {
		return nil, fmt.Errorf("%s: %w", path, yamlHint(abs, err))
	}
	raw := k.Raw()
	if err := applyEnv(raw, environ); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := expandEnv(raw, "", lookup); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var fc fileConfig
	if err := decode(raw, &fc); err != nil {
		return nil, perFile(path, err)
	}
	return build(path, abs, &fc)
}

// perFile prefixes each of err's joined errors (mapstructure joins one per
// bad key) with the file's name.
func perFile(path string, err error) error {
	one := func(e error) error {
		if de := (*mapstructure.DecodeError)(nil); errors.As(e, &de) && errors.Is(e, errTooLarge) {
			return keyError(path, mapKeyIndex.ReplaceAllString(de.Name(), ".$1"), "%s", tooLarge(de.Name()))
		}
		return fmt.Errorf("%s: %w", path, e)
	}
	var joined interface{ Unwrap() []error }
	if !errors.As(err, &joined) {
		return one(err)
	}
	var errs []error
	var walk func([]error)
	walk = func(list []error) {
		for _, e := range list {
			if j, ok := e.(interface{ Unwrap() []error }); ok {
				walk(j.Unwrap())
				continue
			}
			errs = append(errs, one(e))
		}
	}
	walk(joined.Unwrap())
	return errors.Join(errs...)
}

// decode decodes raw into fc strictly: keys match field tags exactly
// (case-sensitive), an unknown key is an error listing every unknown key,
// and values convert only without loss (see convertHook).
func decode(raw map[string]any, fc *fileConfig) error {
	var md mapstructure.Metadata
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		TagName:    "koanf",
		Result:     fc,
		Metadata:   &md,
		DecodeHook: convertHook,
		MatchName:  func(key, field string) bool { return key == field },
	})
	if err != nil {
		return err
	}
	if err := dec.Decode(raw); err != nil {
		return err
	}
	if len(md.Unused) > 0 {
		keys := make([]string, len(md.Unused))
		for i, k := range md.Unused {
			keys[i] = mapKeyIndex.ReplaceAllString(k, ".$1") // llm[default].x → llm.default.x
			if near := nearestKey(reflect.TypeOf(fc).Elem(), k); near != "" {
				keys[i] += fmt.Sprintf(" (did you mean %s?)", near)
			}
		}
		slices.Sort(keys)
		return fmt.Errorf("unknown key %s", strings.Join(keys, ", "))
	}
	return nil
}

// nearestKey suggests, for an unknown key path as mapstructure spells it
// ("datasources[0].engin", "llm[default].modle"), the closest key the
// config defines at the same place, by the validator's one did-you-mean
// rule; "" when none is close.
func nearestKey(t reflect.Type, path string) string {
	parts := strings.Split(keyIndex.ReplaceAllString(path, ""), ".")
	for _, p := range parts[:len(parts)-1] {
		t = structOf(t)
		if t.Kind() != reflect.Struct {
			return ""
		}
		f, ok := fieldByTag(t, p)
		if !ok {
			return ""
		}
		t = f.Type
	}
	t = structOf(t)
	if t.Kind() != reflect.Struct {
		return ""
	}
	var known []string
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("koanf"); tag != "" && tag != "-" {
			known = append(known, tag)
		}
	}
	key := parts[len(parts)-1]
	if s, ok := keySynonyms[strings.ToLower(key)]; ok && slices.Contains(known, s) {
		return s
	}
	return planast.Nearest(key, known)
}

// keySynonyms are the names other tools give the keys a datasource has,
// which no spelling rule brings near ours: a datasource's file is its
// "path", a server's connection string its "dsn", its kind its "engine".
var keySynonyms = map[string]string{
	"file": "path", "filename": "path", "file_path": "path", "filepath": "path", "database": "path", "db": "path",
	"url": "dsn", "uri": "dsn", "connection": "dsn", "connection_string": "dsn", "conn": "dsn",
	"type": "engine", "driver": "engine", "dialect": "engine", "kind": "engine",
}

// structOf looks through pointers, slices and maps to the struct they hold.
func structOf(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t
}

// keyIndex is a list index or map key in mapstructure's key paths.
var keyIndex = regexp.MustCompile(`\[[^\]]*\]`)

// mapKeyIndex is a map key in mapstructure's key paths ("[default]", not
// a list index "[0]").
var mapKeyIndex = regexp.MustCompile(`\[([^\]0-9][^\]]*)\]`)

// convertHook converts values that are not of the field's type where that
// loses nothing: numbers and booleans to strings ("path: 2024"), whole
// floats and decimal strings (environment values) to ints, numbers and
// numeric strings to floats, "true"/"false" strings (environment values)
// to booleans. Anything else reaches mapstructure unchanged
// and fails there with the key's name.
func convertHook(from, to reflect.Type, data any) (any, error) {
	switch to.Kind() {
	case reflect.String:
		switch v := data.(type) {
		case int, int64, uint64, float64, bool:
			return fmt.Sprint(v), nil
		}
	case reflect.Int:
		switch v := data.(type) {
		case float64:
			if v != math.Trunc(v) {
				return nil, fmt.Errorf("%v is not a whole number", v)
			}
			// YAML reads a whole number past int64 as a float
			if v >= math.MaxInt || v < math.MinInt {
				return nil, errTooLarge
			}
			return int(v), nil
		case uint64:
			if v > math.MaxInt {
				return nil, errTooLarge
			}
		case string:
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if errors.Is(err, strconv.ErrRange) {
				return nil, errTooLarge
			}
			if err != nil {
				return nil, fmt.Errorf("%q is not a whole number", v)
			}
			return n, nil
		}
	case reflect.Bool:
		if v, ok := data.(string); ok {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("%q is not true or false", v)
			}
			return b, nil
		}
	case reflect.Float64:
		switch v := data.(type) {
		case int:
			return float64(v), nil
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a number", v)
			}
			return f, nil
		}
	}
	return data, nil
}

// errTooLarge is a whole number no int holds; the key's error then says
// the bound the key has (upperBound).
var errTooLarge = errors.New("too large")

// upperBounds are the whole-number keys with an upper bound, by their last
// key segment (each names one key of the file); every *_seconds key has
// MaxSeconds besides.
var upperBounds = map[string]int{"row_limit": MaxRowLimit, "timeout_ms": MaxSeconds * 1000,
	// a trace age is multiplied into a time.Duration, which wraps past
	// 106,751 days (to a small age that deletes traces early); a hundred
	// years is "keep them"
	"max_age_days": 36500, "max_mb": 1 << 30}

// upperBound is the bound of key (a dotted path, list indexes and ids
// included), or math.MaxInt when it has none of its own.
func upperBound(key string) int {
	key = keyIndex.ReplaceAllString(key, "")
	last := key[strings.LastIndex(key, ".")+1:]
	if strings.HasSuffix(last, "_seconds") {
		return MaxSeconds
	}
	if bound, ok := upperBounds[last]; ok {
		return bound
	}
	return math.MaxInt
}

// tooLarge is the error text of a value above the bound of key, or of a
// whole number no int holds when key has no bound of its own.
func tooLarge(key string) string {
	return fmt.Sprintf("too large (at most %d)", upperBound(key))
}

// idPattern is what a datasource id must look like.
var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// build validates fc and resolves its paths against the file's directory.
func build(path, abs string, fc *fileConfig) (*Config, error) {
	dir := filepath.Dir(abs)
	var errs []error
	bad := func(key, format string, args ...any) { errs = append(errs, keyError(path, key, format, args...)) }

	c := &Config{File: abs, LLM: map[string]LLMConfig{}}
	sp := fc.Storage.Path
	if sp == "" {
		sp = DefaultStoragePath
	}
	c.Storage = Storage{Path: resolve(dir, sp), PathAsWritten: sp, Postgres: fc.Storage.Postgres,
		TraceMaxAgeDays: DefaultTraceMaxAgeDays, TraceMaxMB: DefaultTraceMaxMB}
	if t := fc.Storage.Traces; t != nil {
		c.Storage.TraceMaxAgeDays = intSetting(bad, "storage.traces.max_age_days", t.MaxAgeDays, DefaultTraceMaxAgeDays, 0, "0 (keep all) or more days")
		c.Storage.TraceMaxMB = intSetting(bad, "storage.traces.max_mb", t.MaxMB, DefaultTraceMaxMB, 0, "0 (no size bound) or more megabytes")
	}

	seen := map[string]int{}
	for i, d := range fc.Datasources {
		key := fmt.Sprintf("datasources[%d]", i)
		ds := Datasource{ID: d.ID, Engine: d.Engine, DSN: d.DSN, Flavor: d.Flavor, Description: d.Description,
			RowLimit: DefaultRowLimit, TimeoutSeconds: DefaultTimeoutSeconds}
		switch {
		case d.ID == "":
			bad(key+".id", "missing")
		case !idPattern.MatchString(d.ID):
			bad(key+".id", "%q must match %s (lower-case letters, digits, _)", d.ID, idPattern)
		default:
			if j, dup := seen[d.ID]; dup {
				bad(key+".id", "%q is already the id of datasources[%d]", d.ID, j)
			}
			seen[d.ID] = i
		}
		switch {
		case d.Engine == "":
			bad(key+".engine", "missing (one of %s)", strings.Join(Engines, ", "))
		case !slices.Contains(Engines, d.Engine):
			bad(key+".engine", "unknown engine %q (one of %s)", d.Engine, strings.Join(Engines, ", "))
		case d.Engine == "postgres":
			if d.DSN == "" {
				bad(key+".dsn", "missing (postgres needs a connection string)")
			}
			// a key of another engine is refused, not ignored: the user
			// meant something by it (a file they think is read)
			if d.Path != "" {
				bad(key+".path", "does not apply to engine postgres, which connects through dsn: (remove path:, or set engine to sqlite or duckdb)")
			}
		default:
			if d.Path == "" {
				bad(key+".path", "missing (%s needs a database file)", d.Engine)
			}
			if d.DSN != "" {
				bad(key+".dsn", "does not apply to engine %s, which reads the file at path: (remove dsn:, or set engine: postgres)", d.Engine)
			}
		}
		if d.Flavor != "" && (d.Engine != "postgres" || !slices.Contains(Flavors, d.Flavor)) {
			bad(key+".flavor", "%q needs engine postgres and one of %s", d.Flavor, strings.Join(Flavors, ", "))
		}
		if d.AllowWritableRole && d.Engine != "postgres" {
			bad(key+".allow_writable_role", "needs engine postgres (a %s file is opened read-only)", d.Engine)
		}
		ds.AllowWritableRole = d.AllowWritableRole
		if d.Path != "" {
			ds.Path, ds.PathAsWritten = resolve(dir, d.Path), d.Path
		}
		if d.Semantic != "" {
			ds.Semantic, ds.SemanticAsWritten = resolve(dir, d.Semantic), d.Semantic
		}
		ds.RowLimit = intSetting(bad, key+".row_limit", d.RowLimit, DefaultRowLimit, 1, "greater than 0")
		ds.TimeoutSeconds = intSetting(bad, key+".timeout_seconds", d.TimeoutSeconds, DefaultTimeoutSeconds, 1, "greater than 0")
		checkScaling(bad, key+".scaling", d.Scaling)
		ds.Scaling = d.Scaling
		c.Datasources = append(c.Datasources, ds)
	}

	for _, step := range slices.Sorted(maps.Keys(fc.LLM)) {
		l := fc.LLM[step]
		key := "llm." + step
		lc := LLMConfig{Provider: l.Provider, BaseURL: l.BaseURL, APIKey: l.APIKey, Model: l.Model, Host: l.Host, Temperature: l.Temperature}
		if !slices.Contains(LLMSteps, step) {
			bad(key, "unknown step %q (one of %s)", step, strings.Join(LLMSteps, ", "))
			continue
		}
		switch {
		case l.Provider == "":
			bad(key+".provider", "missing (one of %s)", strings.Join(Providers, ", "))
		case !slices.Contains(Providers, l.Provider):
			bad(key+".provider", "unknown provider %q (one of %s)", l.Provider, strings.Join(Providers, ", "))
		case l.Provider == "replay" && l.Recordings == "":
			bad(key+".recordings", "missing (replay needs a recordings directory)")
		}
		if l.Recordings != "" {
			lc.Recordings, lc.RecordingsAsWritten = resolve(dir, l.Recordings), l.Recordings
		}
		if t := l.Temperature; t != nil && (*t < 0 || *t > 2) {
			bad(key+".temperature", "%v must be between 0 and 2", *t)
		}
		lc.Seed = l.Seed
		lc.MaxOutputTokens = intSetting(bad, key+".max_output_tokens", l.MaxOutputTokens, 0, 0, "0 or more")
		lc.TimeoutSeconds = intSetting(bad, key+".timeout_seconds", l.TimeoutSeconds, DefaultLLMTimeoutSeconds, 1, "greater than 0")
		lc.NumCtx = intSetting(bad, key+".num_ctx", l.NumCtx, 0, 0, "0 or more")
		lc.MaxRetries = intSetting(bad, key+".max_retries", l.MaxRetries, DefaultLLMMaxRetries, 0, "0 or more")
		lc.RetryMaxSeconds = intSetting(bad, key+".retry_max_seconds", l.RetryMaxSeconds, DefaultLLMRetryMaxSeconds, 0, "0 or more")
		c.LLM[step] = lc
	}
	checkScaling(bad, "scaling", fc.Scaling)
	c.Scaling = fc.Scaling
	buildAccess(fc, c, dir, bad)
	buildHooks(fc, c, bad)
	buildTelemetry(fc.Telemetry, c, bad)
	buildResults(fc.Results, c, bad)
	buildOAuth(fc.OAuth, c, bad)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// intSetting returns *v, or def when v is nil; a value below min is
// reported through bad with the key and "must be <want>", one above the
// key's upperBound with the bound.
func intSetting(bad func(key, format string, args ...any), key string, v *int, def, min int, want string) int {
	if v == nil {
		return def
	}
	switch {
	case *v < min:
		bad(key, "%d must be %s", *v, want)
	case *v > upperBound(key):
		bad(key, "%d is %s", *v, tooLarge(key))
	}
	return *v
}

// checkScaling bounds a scaling section's time budget here, before it is
// made a time.Duration (engine/scale checks the rest of the section): past
// the bound the product wraps, to a budget every question exhausts at once.
func checkScaling(bad func(key, format string, args ...any), key string, s *Scaling) {
	if s != nil && s.TimeBudgetSeconds > upperBound("time_budget_seconds") {
		bad(key+".time_budget_seconds", "%d is %s", s.TimeBudgetSeconds, tooLarge("time_budget_seconds"))
	}
}

// resolve makes p absolute against dir (a ~ is not expanded).
func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}
