package planast_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sql/nl2sql/planast"
	"github.com/nl2sql/nl2sql/planast/validate"
)

// The threat: a plan's alias is the header a person reads above the
// column and the name the summary gives its values. An alias of spaces
// alone showed an empty header; one holding U+202E showed its letters
// reversed ("\u202enam\u202c" reads "man"), one holding a zero-width space
// looked like another column's; and an alias written "" quietly became
// the column's own name. Each is refused with INVALID_VALUE at its path
// and a hint, for a from item's alias and a CTE's name too (they stand
// in the SQL shown with the rows. The host schema refuses "" alone: a
// pattern of every hidden character would weigh on every get_plan_schema
// for a mistake the refusal's hint mends in one round.
func TestAliasesPeopleCannotReadAreRefused(t *testing.T) {
	cte := func(name string) string {
		return plan(`"with":[{"name":"`+name+`","query":`+plan(sel(c("", "Name")), tracks)+`}]`, sel(c("", "Name")), frm(from(name, "x")))
	}
	for _, alias := range []string{`   `, `\u3000`, `\u202enam\u202c`, `a\u200bb`, `total\u2066`, `x\u0085`, `\u00a0`} {
		for _, r := range []struct{ where, plan, path string }{
			{"select alias", plan(sel(item(c("", "Name"), alias)), tracks), "select[0].alias"},
			{"from alias", plan(sel(c("", "Name")), frm(from("Track", alias))), "from[0].alias"},
			{"CTE name", cte(alias), "with[0].name"},
		} {
			q, err := planast.Decode([]byte(r.plan), planast.Limits{})
			if err != nil {
				t.Fatalf("%s %s: decode: %v", r.where, alias, err)
			}
			_, err = validate.Plan(q, chinook, validate.Options{})
			var pe *planast.Error
			if !errors.As(err, &pe) {
				t.Errorf("%s %s: accepted", r.where, alias)
				continue
			}
			found := false
			for _, is := range pe.Issues {
				if is.Code == planast.CodeBadValue && is.Path == r.path && is.Hint != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("%s %s: want INVALID_VALUE at %s with a hint, got %v", r.where, alias, r.path, err)
			}
		}
	}

	// written empty, a select alias is refused as empty, not read as left out
	empty := plan(sel(item(c("", "Name"), "")), tracks)
	_, err := planast.Decode([]byte(empty), planast.Limits{})
	var pe *planast.Error
	if !errors.As(err, &pe) || pe.FirstCode() != planast.CodeBadValue || pe.Issues[0].Path != "select[0].alias" ||
		!strings.Contains(pe.Issues[0].Hint, "leave") {
		t.Errorf(`alias "": want INVALID_VALUE at select[0].alias with a hint, got %v`, err)
	}
	if hostAccepts(t, []byte(empty)) == nil {
		t.Error(`the host schema accepts the alias ""`)
	}

	// names people read are accepted by both, and a left-out or null alias
	// still names the column after its source column
	for _, ok := range []string{
		plan(sel(item(c("", "Name"), "total sales"), item(c("", "Composer"), "数量"), item(c("", "TrackId"), `it's \"quoted\"`)), tracks),
		plan(sel(item(c("", "Name"), "naïve ünïcode")), frm(from("Track", "t 1"))),
		plan(sel(c("", "Name")), tracks),
		plan(`"select":[{"expr":`+c("", "Name")+`,"alias":null}]`, tracks),
	} {
		q, err := planast.Decode([]byte(ok), planast.Limits{})
		if err == nil {
			_, err = validate.Plan(q, chinook, validate.Options{})
		}
		if err != nil {
			t.Errorf("refused %s: %v", ok, err)
		}
		assertHostAccepts(t, ok)
	}
}
