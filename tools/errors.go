package tools

import (
	"github.com/nl2sql/nl2sql/planast"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/nl2sql/nl2sql/engine"
)

// ErrorOutput is the structured content of every tool error result
// (isError: true): {"error": {code, message, hint, retryable, issues,
// approval_id}}, the same body as the CLI's --json failures, so a host can
// switch on the code, retry when retryable, fix each issue at its path and
// pass approval_id on without parsing text. The text part says the same
// for people and older clients.
type ErrorOutput struct {
	Error engine.ErrorBody `json:"error"`
}

// ErrorResult turns an engine error into an MCP tool error result, for
// the server's own middleware.
func ErrorResult(err error) *mcpgo.CallToolResult { return errorResult(err) }

// errorResult turns an engine error into an MCP tool error result.
func errorResult(err error) *mcpgo.CallToolResult {
	e := engine.AsError(err)
	text := string(e.Code) + ": " + e.Msg
	if e.Hint != "" {
		text += "\nhint: " + e.Hint
	}
	if e.Retryable {
		text += "\nretryable: the same request may succeed later"
	}
	for _, is := range e.Issues {
		b, _ := json.Marshal(is)
		text += "\n" + string(b)
	}
	if e.ApprovalID != "" {
		text += "\napproval_id: " + e.ApprovalID
	}
	res := mcpgo.NewToolResultError(text)
	res.StructuredContent = ErrorOutput{Error: e.Body()}
	return res
}

// invalidRequest is an INVALID_REQUEST error result.
func invalidRequest(msg, hint string) *mcpgo.CallToolResult {
	return errorResult(&engine.Error{Code: engine.CodeInvalidRequest, Msg: msg, Hint: hint})
}

// errorSchema is the JSON Schema of ErrorOutput.
const errorSchema = `{"type": "object", "properties": {"error": {"type": "object", "properties": {
  "code": {"type": "string"}, "message": {"type": "string"}, "hint": {"type": "string"}, "retryable": {"type": "boolean"},
  "issues": {"type": "array", "items": {"type": "object", "properties": {"code": {"type": "string"}, "path": {"type": "string"}, "message": {"type": "string"}}, "required": ["code", "path", "message"]}},
  "approval_id": {"type": "string"}}, "required": ["code", "message", "retryable"]}}, "required": ["error"]}`

// withErrorShape makes a tool's output schema accept its error results
// too. MCP clients validate structuredContent against the output schema
// even when isError is set (the TypeScript SDK's Client.callTool throws on
// a mismatch), so the schema is "the success shape or ErrorOutput".
// The success shape's "$defs" move to the root: its "#/$defs/…" references
// resolve against the document root, which is now the wrapper.
func withErrorShape(success json.RawMessage) json.RawMessage {
	var s map[string]json.RawMessage
	if err := json.Unmarshal(success, &s); err != nil {
		panic("tools: output schema is not a JSON object: " + err.Error()) // a constant of this package
	}
	defs, hasDefs := s["$defs"]
	delete(s, "$defs")
	inner, _ := json.Marshal(s)
	root := `{"type": "object", "anyOf": [` + string(inner) + `, ` + errorSchema + `]`
	if hasDefs {
		root += `, "$defs": ` + string(defs)
	}
	return json.RawMessage(root + `}`)
}

// rawInput sets a hand-written input schema, clearing the default one that
// mcpgo.NewTool fills in (a tool may carry only one of the two).
func rawInput(schema json.RawMessage) mcpgo.ToolOption {
	return func(t *mcpgo.Tool) {
		t.InputSchema = mcpgo.ToolInputSchema{}
		t.RawInputSchema = schema
	}
}

// identityArgs are argument names a client might use to claim an identity.
// Identity comes only from authentication, so they are dropped unread.
var identityArgs = []string{"role", "roles", "user", "username", "user_id", "identity", "as_user"}

// bindStrict decodes a tool call's arguments into v, refusing unknown
// arguments and wrong types with an INVALID_REQUEST result that names the
// argument. Identity never comes from arguments: the identityArgs are
// ignored, whatever they say.
func bindStrict(req mcpgo.CallToolRequest, v any, shape string) *mcpgo.CallToolResult {
	// The arguments as the client wrote them: a decoded map holds numbers
	// as float64, which turns the literal 9007199254740993 into
	// ...992 and a query about one order into one about another.
	var raw []byte
	switch a := req.GetRawArguments().(type) {
	case json.RawMessage:
		raw = a
	default:
		b, err := json.Marshal(a)
		if err != nil {
			return invalidRequest("arguments are not a JSON object", "send "+shape)
		}
		raw = b
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		raw = []byte("{}")
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return invalidRequest("arguments must be a JSON object", "send "+shape)
	}
	if err := planast.CheckDuplicateKeys(raw, "arguments"); err != nil {
		return invalidRequest(err.Error(), "name each argument once, and each field of the plan once")
	}
	for k := range m {
		if slices.Contains(identityArgs, strings.ToLower(k)) {
			delete(m, k)
		}
	}
	clean, err := json.Marshal(m)
	if err != nil {
		return invalidRequest("arguments are not a JSON object", "send "+shape)
	}
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	dec.UseNumber() // parameter values keep every digit
	if err := dec.Decode(v); err != nil {
		msg := err.Error()
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			msg = fmt.Sprintf("argument %q must be %s", te.Field, jsonKind(te.Type))
		case strings.HasPrefix(msg, "json: unknown field "):
			msg = "unknown argument " + strings.TrimPrefix(msg, "json: unknown field ")
		}
		return invalidRequest(msg, "send "+shape)
	}
	return nil
}

// readOnlyTool describes a tool with hand-written input and output schemas
// (the output schema accepting the tool's error results as well) and the
// annotations every nl2sql tool carries: read-only, not
// destructive, idempotent, closed world.
func readOnlyTool(name, title, description string, input, output json.RawMessage) mcpgo.Tool {
	return mcpgo.NewTool(name,
		mcpgo.WithDescription(description),
		mcpgo.WithTitleAnnotation(title),
		rawInput(input),
		mcpgo.WithRawOutputSchema(withErrorShape(output)),
		mcpgo.WithReadOnlyHintAnnotation(true),
		mcpgo.WithDestructiveHintAnnotation(false),
		mcpgo.WithIdempotentHintAnnotation(true),
		mcpgo.WithOpenWorldHintAnnotation(false),
	)
}

// jsonKind names a Go type by the JSON value it decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a JSON value of another type"
}
