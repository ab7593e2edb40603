package curated

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nl2sql/nl2sql/planast"
)

// unknownField is yaml's words for a key no field takes, under strict
// decoding: "line 1: field queries not found in type curated.fileShape".
var unknownField = regexp.MustCompile(`^line (\d+): field (\S+) not found in type curated\.(\w+)$`)

// shapes are the types a verified-queries file decodes into, by the name
// yaml's errors give them, with what each is in the file's words.
var shapes = map[string]struct {
	t    reflect.Type
	what string
}{
	"fileShape": {reflect.TypeFor[fileShape](), "the file's top level"},
	"Query":     {reflect.TypeFor[Query](), "a verified query"},
	"Param":     {reflect.TypeFor[Param](), "a parameter"},
}

// keyErrors rewords yaml's unknown-field errors in the file's terms: the
// key, where, the nearest known key, and every key that place takes. yaml
// names a Go type ("not found in type curated.fileShape"), which a person
// writing the file never sees: a newcomer guessing "queries:" for
// "verified_queries:" was told of a fileShape. Other errors are returned
// as they came.
func keyErrors(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	msgs := make([]string, len(te.Errors))
	for i, e := range te.Errors {
		msgs[i] = e
		m := unknownField.FindStringSubmatch(e)
		if m == nil {
			continue
		}
		s, ok := shapes[m[3]]
		if !ok {
			continue
		}
		keys := yamlKeys(s.t)
		msg := fmt.Sprintf("line %s: unknown key %s in %s", m[1], m[2], s.what)
		if near := planast.Nearest(m[2], keys); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		msgs[i] = msg + "; its keys are " + strings.Join(keys, ", ")
	}
	return fmt.Errorf("%s (see the verified-queries file's format in README.md, or examples/chinook/curated.yaml)", strings.Join(msgs, "; "))
}

// yamlKeys are the yaml keys of t's fields, in their order.
func yamlKeys(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if k, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); k != "" && k != "-" {
			out = append(out, k)
		}
	}
	return out
}
