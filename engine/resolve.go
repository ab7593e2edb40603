package engine

import (
	"context"
	"fmt"
	"github.com/nl2sql/nl2sql/scope"
	"path/filepath"
	"strings"
)

// resolve picks the datasource: the one named, or the only one configured.
// It makes no model call.
func (e *Engine) resolve(ctx context.Context, id string) (*datasource, error) {
	sc := e.caller(ctx)
	if id != "" {
		if _, known := e.specs[id]; known && !sc.Reaches(id) {
			// exactly the answer for an unknown id: existence is not disclosed
			return nil, e.noDatasource(ctx, id)
		}
		return e.datasource(ctx, id)
	}
	ids := sc.Datasources(e.DatasourceIDs())
	switch len(ids) {
	case 0:
		if len(e.specs) > 0 {
			if _, set := ctx.Value(callerKey{}).(*scope.Scope); !set && e.opts.Policy != nil && e.opts.Policy.Secured() {
				return nil, Errorf(CodeAccessDenied, "set local_user in "+e.configFile()+": with roles configured, the CLI and stdio act as that user", "you may read no datasource")
			}
			return nil, Errorf(CodeAccessDenied, "ask an administrator for a role that reaches a datasource", "you may read no datasource")
		}
		return nil, Errorf(CodeDatasourceNotFound, "add a datasource under datasources: in "+e.configFile()+", or pass --db FILE_OR_DSN", "no datasource is configured")
	case 1:
		return e.datasource(ctx, ids[0])
	}
	return nil, Errorf(CodeInvalidRequest, "name one of "+strings.Join(ids, ", ")+" (the datasource argument; --datasource on the command line)",
		"several datasources are configured and the request names none")
}

// noDatasource is the one answer for a datasource id that is not
// configured or that the caller does not reach: the same words for both,
// so that existence is not disclosed, with the ids the caller may use.
func (e *Engine) noDatasource(ctx context.Context, id string) *Error {
	hint := "no datasource is configured"
	if ids := e.caller(ctx).Datasources(e.DatasourceIDs()); len(ids) > 0 {
		hint = "use one of: " + strings.Join(ids, ", ")
	}
	return &Error{Code: CodeDatasourceNotFound, Msg: fmt.Sprintf("there is no datasource %q", id), Hint: hint}
}

// configFile names the config file in a hint: its file name alone, which
// a person running the server knows where to find, and which tells a
// caller over HTTP nothing of the server's directories.
func (e *Engine) configFile() string {
	if e.opts.ConfigFile != "" {
		return filepath.Base(e.opts.ConfigFile)
	}
	return "nl2sql.yaml"
}
