package index

// DefaultWholeSchemaTokens is the threshold of the whole-schema rule: a
// snapshot whose whole schema context (schemactx.SchemaContext, o200k_base tokens)
// is at most this long is sent whole instead of retrieved.
//
// Why 4,000. Retrieval trades recall for tokens: measured with evalret it
// keeps every gold table for 98-99% of questions and 95-97% of gold
// columns, so a few questions in a hundred lose something the planner
// needed, and a planner that lacks a table cannot repair its plan. Sending
// the whole schema has recall 1.0 by construction. Below a few thousand
// tokens that certainty is cheap: 4,000 tokens is about as much as the
// planner's system prompt and answer together. Above it the
// schema starts to dominate the prompt and to distract the model, and
// retrieval's median context wins (142 tokens on the Spider subset:
// nl2sql eval --spider … --measure retrieval). A whole selection still
// ranks: its Focus decides which columns come with their values, the rest
// are listed by name and type with their ranges and codes
// (Selection.Filter), so Chinook (1,285 tokens whole) costs about half of
// it in the prompt. A warehouse of a few hundred
// columns with profiles passes 4,000 quickly.
const DefaultWholeSchemaTokens = 4000
