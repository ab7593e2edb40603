// Package planschema writes the JSON Schema (draft 2020-12) of the plan
// language, generated from planast's Go types, in the two forms its
// readers need. It owns no rule of the language: planast.Decode is the
// judge, and the schemas promise only to agree with it.
//
//   - Strict is the form models get for structured output: every property
//     required, optional ones nullable, no extra properties (OpenAI's
//     strict mode); Answer wraps it in the planner's answer object
//     {"reasoning", "plan"}.
//   - Host is the form get_plan_schema serves to host assistants: only
//     what Decode needs is required, optional fields may be omitted or
//     null, and a document it accepts is never refused by Decode for its
//     shape (size limits aside). planast's tests hold it to that promise
//     (jsonschema_host_test.go, jsonschema_shape_test.go).
//
// Example: a host fetches the schema, validates its plan locally, and the
// server decodes the same bytes:
//
//	raw := planschema.Host()               // what get_plan_schema returns
//	sch := compile(raw)                     // any draft 2020-12 validator
//	if sch.Validate(plan) == nil {
//		q, err := planast.Decode(planBytes) // never a shape error here
//		_ = q; _ = err
//	}
package planschema
