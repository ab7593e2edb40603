package engine

import (
	"context"
	"strings"
)

// resolve picks the datasource: the one named, or the only one configured.
// It makes no model call.
func (e *Engine) resolve(ctx context.Context, id string) (*datasource, error) {
	sc := e.caller(ctx)
	if id != "" {
		if _, known := e.specs[id]; known && !sc.Reaches(id) {
			// exactly the answer for an unknown id: existence is not disclosed
			return nil, &Error{Code: CodeDatasourceNotFound, Msg: "there is no datasource " + quote(id),
				Hint: "use one of: " + strings.Join(sc.Datasources(e.DatasourceIDs()), ", ")}
		}
		return e.datasource(ctx, id)
	}
	ids := sc.Datasources(e.DatasourceIDs())
	switch len(ids) {
	case 0:
		return nil, Errorf(CodeDatasourceNotFound, "add a datasource to nl2sql.yaml", "no datasource is configured")
	case 1:
		return e.datasource(ctx, ids[0])
	}
	return nil, Errorf(CodeInvalidRequest, "name one of: "+strings.Join(ids, ", "), "several datasources are configured and the question does not name one")
}

func quote(s string) string { return `"` + s + `"` }
