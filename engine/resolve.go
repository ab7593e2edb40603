package engine

import (
	"context"
	"strings"
)

// resolve picks the datasource: the one named, or the only one configured.
// It makes no model call.
func (e *Engine) resolve(ctx context.Context, id string) (*datasource, error) {
	if id != "" {
		return e.datasource(ctx, id)
	}
	ids := e.DatasourceIDs()
	switch len(ids) {
	case 0:
		return nil, Errorf(CodeDatasourceNotFound, "add a datasource to nl2sql.yaml", "no datasource is configured")
	case 1:
		return e.datasource(ctx, ids[0])
	}
	return nil, Errorf(CodeInvalidRequest, "name one of: "+strings.Join(ids, ", "), "several datasources are configured and the question does not name one")
}
