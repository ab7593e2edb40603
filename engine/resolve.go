package engine

import (
	"context"
	"github.com/nl2sql/nl2sql/scope"
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
		if len(e.specs) > 0 {
			if _, set := ctx.Value(callerKey{}).(*scope.Scope); !set && e.opts.Policy != nil && e.opts.Policy.Secured() {
				return nil, Errorf(CodeAccessDenied, "set local_user in nl2sql.yaml: with roles configured, the CLI and stdio act as that user", "you may read no datasource")
			}
			return nil, Errorf(CodeAccessDenied, "ask an administrator for a role that reaches a datasource", "you may read no datasource")
		}
		return nil, Errorf(CodeDatasourceNotFound, "add a datasource to nl2sql.yaml", "no datasource is configured")
	case 1:
		return e.datasource(ctx, ids[0])
	}
	return nil, Errorf(CodeInvalidRequest, "name one of "+strings.Join(ids, ", ")+" (the datasource argument; --datasource on the command line)",
		"several datasources are configured and the request names none")
}

func quote(s string) string { return `"` + s + `"` }
