// Package arch states the layers of the module and holds the test that
// keeps the imports true to them: a package may import packages of its
// own layer or of a layer below, never one above. docs/architecture.md
// explains the layers; this table is what the test enforces.
//
// For example, engine (the pipeline) may import scope and internal/source,
// which sit below it; if internal/source imported engine, or engine
// imported mcp, TestImportsRunDown would fail naming the arrow and both
// layers. A new package must be given a layer here, or the test fails.
package arch

// Layer names, bottom first.
const (
	Language    = iota // the plan language and the text it is written to or read from
	Foundations        // snapshot types, adapters, the state store, config, access policy
	Domain             // retrieval, verified queries, combination, semantic layer, hooks, events, models
	Steps              // the pipeline's step packages
	Pipeline           // the walk of one question
	Surfaces           // what callers see: tools, transports, views, evaluation
	Root               // config → live objects, CLI commands, main
)

// LayerNames are printed by the test.
var LayerNames = []string{"language", "foundations", "domain", "steps", "pipeline", "surfaces", "root"}

// Layers maps each package of the module (path below the module root; "."
// for main) to its layer. Packages under examples/ and scripts/ are
// programs beside the product and are not listed; test-only imports are
// not arrows.
var Layers = map[string]int{
	"planast":                Language,
	"planast/validate":       Language,
	"planast/lift":           Language,
	"planast/planschema":     Language,
	"planast/lift/normalize": Language,
	"render":                 Language,
	"internal/sqlscan":       Language,
	"internal/cellfmt":       Language,
	"internal/jsontext":      Language,
	"internal/plural":        Language,
	"internal/numtext":       Language,

	"internal/schema":            Foundations,
	"internal/source":            Foundations,
	"internal/source/sqlite":     Foundations,
	"internal/source/duckdb":     Foundations,
	"internal/source/postgres":   Foundations,
	"internal/source/sqlitecopy": Foundations,
	"internal/source/adapters":   Foundations,
	// documentation tables read into the snapshot's comments
	"internal/source/dictionary": Foundations,
	"internal/source/sourcetest": Foundations,
	"internal/store":             Foundations,
	"scope":                      Foundations,
	"internal/config":            Foundations,
	"internal/pgtest":            Foundations,
	"internal/oauthtest":         Foundations,
	"internal/dayfile":           Foundations,
	"internal/bigcat":            Foundations,

	// the aggregates SQLite lacks, registered on its connections
	"internal/source/sqlitestats": Foundations,
	"internal/source/sqlitefold":  Foundations,
	"internal/source/sqlitezone":  Foundations,

	"index":           Domain,
	"index/embed":     Domain,
	"index/schemactx": Domain,
	"index/phrases":   Domain,
	"index/lex":       Domain,
	// the countries a question names by their people
	"index/places":              Domain,
	"index/datafile":            Domain,
	"index/values":              Domain,
	"index/joins":               Domain,
	"curated":                   Domain,
	"duckcompute":               Domain,
	"engine/semantic":           Domain,
	"engine/hooks":              Domain,
	"engine/events":             Domain,
	"engine/llm":                Domain,
	"engine/internal/fault":     Domain,
	"engine/internal/modeltext": Domain,

	"engine/scale":      Steps,
	"engine/multi":      Steps,
	"engine/approval":   Steps,
	"engine/emptyrange": Steps,
	"engine/warnings":   Steps,
	"engine/snapshots":  Steps,
	"engine/extend":     Steps,
	"engine/traces":     Steps,
	"engine/opening":    Steps,
	"engine/answer":     Steps,
	"engine/hostplan":   Steps,
	"engine/result":     Steps,
	"engine/verified":   Steps,
	"engine/spans":      Steps,
	"engine/planning":   Steps,
	"engine/indexing":   Steps,
	"engine/plancache":  Steps,
	"engine/retrieval":  Steps,

	"engine": Pipeline,

	"tools":            Surfaces,
	"mcp":              Surfaces,
	"internal/viewer":  Surfaces,
	"internal/oauth":   Surfaces,
	"internal/eval":    Surfaces,
	"internal/evalret": Surfaces,
	"internal/arch":    Surfaces,
	"mcp/e2e":          Surfaces,

	"internal/app":     Root,
	"internal/app/cli": Root,
	".":                Root,
}
