package semantic

import (
	"errors"
	"fmt"

	"github.com/nl2sql/nl2sql/engine/internal/fault"
	"github.com/nl2sql/nl2sql/index/schemactx"
	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// CodeInvalid: the datasource's semantic file does not match its schema
// (or cannot be read); the datasource does not open.
const CodeInvalid fault.Code = "SEMANTIC_INVALID"

// Open loads a datasource's semantic file (path; display names it in
// errors, path when "") against snap and returns the layer with the
// enriched snapshot (Apply) the datasource then uses for retrieval,
// validation and describe_schema. Without a file (path "") it returns
// (nil, snap, nil). A failure is a *fault.Error with CodeInvalid naming
// the datasource id.
func Open(path, display, id string, snap *schema.Snapshot) (*Layer, *schema.Snapshot, error) {
	if path == "" {
		return nil, snap, nil
	}
	if display == "" {
		display = path
	}
	l, err := Load(path, display, snap)
	if err != nil {
		hint := "fix the file (each problem names its line), or remove the datasource's semantic key"
		var se *Error
		if !errors.As(err, &se) {
			hint = "check the datasource's semantic path in the config"
		}
		return nil, nil, &fault.Error{Code: CodeInvalid, Msg: fmt.Sprintf("datasource %q: %v", id, err), Hint: hint, Err: err}
	}
	return l, l.Apply(snap), nil
}

// definitions is l as planast.Expand takes it: a nil interface, not a nil
// *Layer, when there is none.
func (l *Layer) definitions() planast.Definitions {
	if l == nil {
		return nil
	}
	return l
}

// Expand replaces the plan's metric and filter references by their
// definitions (before row filters and validation, so scope and the
// validator see the real tables); a plan without references, or a nil
// layer, gives the plan back unchanged. Errors are *planast.Error, which
// the planner repairs.
func (l *Layer) Expand(plan *planast.Query) (*planast.Query, error) {
	out, _, err := planast.Expand(plan, l.definitions())
	return out, err
}

// Used lists the metrics and filters a plan names, in order of first use
// (nil when none, when they do not expand, or for a nil plan).
func (l *Layer) Used(plan *planast.Query) []planast.Used {
	if plan == nil {
		return nil
	}
	_, used, err := planast.Expand(plan, l.definitions())
	if err != nil {
		return nil
	}
	return used
}

// SchemaContext renders snap for the planner and, with a layer, appends
// the definitions concerning snap's tables (Context). With a nil layer it
// is exactly schemactx.SchemaContext, so prompts stay byte-identical.
func (l *Layer) SchemaContext(snap *schema.Snapshot) string {
	out := schemactx.SchemaContext(snap)
	if l == nil {
		return out
	}
	if extra := l.Context(snap); extra != "" {
		out += "\n" + extra
	}
	return out
}
