package config

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/knadh/koanf/providers/env/v2"
)

// EnvPrefix starts every environment override.
const EnvPrefix = "NL2SQL_"

// applyEnv applies the overrides in environ to raw. An override is a
// variable NL2SQL_<PATH>=value whose PATH holds "__" between levels and is
// matched lower-case: NL2SQL_STORAGE__PATH sets storage.path. A level inside
// datasources is an index or a datasource id (NL2SQL_DATASOURCES__0__PATH,
// NL2SQL_DATASOURCES__CHINOOK__ROW_LIMIT); inside llm it is the step name,
// and an override may add a step. A top-level setting is its key alone
// (NL2SQL_LOCAL_USER, NL2SQL_CURATED); other variables without "__" after
// the prefix (NL2SQL_CONFIG, NL2SQL_LOG_LEVEL) are not overrides and are
// left alone. A
// path the config does not have is an error naming the variable. Overrides
// apply in path order; values stay strings (decoding converts them).
func applyEnv(raw map[string]any, environ []string) error {
	names := map[string]string{} // dotted path → variable
	vars, err := env.Provider("", env.Opt{
		Prefix:      EnvPrefix,
		EnvironFunc: func() []string { return environ },
		TransformFunc: func(k, v string) (string, any) {
			rest := strings.TrimPrefix(k, EnvPrefix)
			if !strings.Contains(rest, "__") {
				// a top-level setting (NL2SQL_LOCAL_USER, NL2SQL_CURATED)
				// has no level to separate; other names are not settings
				if f, ok := fieldByTag(reflect.TypeFor[fileConfig](), strings.ToLower(rest)); ok && f.Type.Kind() == reflect.String {
					names[strings.ToLower(rest)] = k
					return strings.ToLower(rest), v
				}
				return "", nil
			}
			path := strings.ReplaceAll(strings.ToLower(rest), "__", ".")
			names[path] = k
			return path, v
		},
	}).Read()
	if err != nil {
		return err
	}
	for _, path := range slices.Sorted(maps.Keys(vars)) {
		if err := setPath(reflect.TypeFor[fileConfig](), raw, strings.Split(path, "."), vars[path]); err != nil {
			return fmt.Errorf("%s: %w", names[path], err)
		}
	}
	return nil
}

// setPath sets the value at path in raw, a decoded file of type t, walking
// t's koanf tags alongside: a struct level is a tag, a map level any key
// (created when missing), a slice level an element picked by index or by its
// "id". A path t does not have, or one that ends at a section, is an error.
func setPath(t reflect.Type, raw map[string]any, path []string, v any) error {
	node := raw
	for i := 0; i < len(path); i++ {
		seg, key := path[i], strings.Join(path[:i+1], ".")
		var next reflect.Type
		switch t = deref(t); t.Kind() {
		case reflect.Struct:
			f, ok := fieldByTag(t, seg)
			if !ok {
				if near := nearestKey(t, seg); near != "" {
					return fmt.Errorf("unknown config key %s (did you mean %s?)", key, strings.Join(append(slices.Clone(path[:i]), near), "."))
				}
				return fmt.Errorf("unknown config key %s", key)
			}
			next = f.Type
		case reflect.Map:
			next = t.Elem()
		default:
			return fmt.Errorf("config key %s is not a section", strings.Join(path[:i], "."))
		}
		next = deref(next)
		last := i == len(path)-1
		switch next.Kind() {
		case reflect.Struct, reflect.Map:
			if last {
				return fmt.Errorf("config key %s is a section, not a value", key)
			}
			m, ok := node[seg].(map[string]any)
			if !ok {
				if node[seg] != nil {
					return fmt.Errorf("config key %s is not a section in the file", key)
				}
				m = map[string]any{}
				node[seg] = m
			}
			node, t = m, next
		case reflect.Slice:
			if i+2 >= len(path) {
				return fmt.Errorf("config key %s is a list of sections, not a value", key)
			}
			list, _ := node[seg].([]any)
			el, err := listElement(list, path[i+1])
			if err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			node, t = el, next.Elem()
			i++
		default:
			if !last {
				return fmt.Errorf("config key %s is a value, not a section", key)
			}
			// a value of the wrong kind is named with its variable here:
			// decoding, later, knows only the key and blamed the file
			if str, ok := v.(string); ok && !strings.Contains(str, "${") {
				if _, err := convertHook(reflect.TypeOf(v), next, v); err != nil {
					if errors.Is(err, errTooLarge) {
						return fmt.Errorf("config key %s: %q is %s", key, str, tooLarge(key))
					}
					return fmt.Errorf("config key %s: %w", key, err)
				}
			}
			node[seg] = v
		}
	}
	return nil
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func fieldByTag(t reflect.Type, tag string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("koanf") == tag {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// listElement finds a list's element by index or by its "id".
func listElement(list []any, seg string) (map[string]any, error) {
	if n, err := strconv.Atoi(seg); err == nil {
		if n < 0 || n >= len(list) {
			return nil, fmt.Errorf("there is no element %d (the file has %d)", n, len(list))
		}
		m, ok := list[n].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("element %d is not a section", n)
		}
		return m, nil
	}
	for _, el := range list {
		if m, ok := el.(map[string]any); ok && m["id"] == seg {
			return m, nil
		}
	}
	return nil, fmt.Errorf("there is no element with id %q", seg)
}

// envRef is a ${env:VAR} reference.
var envRef = regexp.MustCompile(`\$\{env:([^}]*)\}`)

// validEnvName is what VAR in ${env:VAR} must look like.
var validEnvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expandEnv replaces every ${env:VAR} in the strings of node (maps and
// lists, recursively) with VAR's value. An unset VAR, or a malformed name,
// is an error naming the key (key is node's own path, "" at the top).
func expandEnv(node any, key string, lookup func(string) (string, bool)) error {
	switch n := node.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(n)) {
			sub := k
			if key != "" {
				sub = key + "." + k
			}
			if s, ok := n[k].(string); ok {
				v, err := expandString(s, sub, lookup)
				if err != nil {
					return err
				}
				n[k] = v
				continue
			}
			if err := expandEnv(n[k], sub, lookup); err != nil {
				return err
			}
		}
	case []any:
		for i := range n {
			sub := fmt.Sprintf("%s[%d]", key, i)
			if s, ok := n[i].(string); ok {
				v, err := expandString(s, sub, lookup)
				if err != nil {
					return err
				}
				n[i] = v
				continue
			}
			if err := expandEnv(n[i], sub, lookup); err != nil {
				return err
			}
		}
	}
	return nil
}

func expandString(s, key string, lookup func(string) (string, bool)) (string, error) {
	var firstErr error
	out := envRef.ReplaceAllStringFunc(s, func(m string) string {
		name := envRef.FindStringSubmatch(m)[1]
		if !validEnvName.MatchString(name) {
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: ${env:%s} is not a valid variable name", key, name)
			}
			return m
		}
		v, ok := lookup(name)
		if !ok && firstErr == nil {
			firstErr = fmt.Errorf("%s: environment variable %s (in ${env:%s}) is not set", key, name, name)
		}
		return v
	})
	return out, firstErr
}
