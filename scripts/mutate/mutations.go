package main

// mutations are the guarded lines, each broken the way a plausible
// regression would break it, with the tests that must notice.
var mutations = []mutation{
	{
		Name: "cache-no-revalidation",
		File: "engine/cache.go",
		Old:  "v, err := e.validateFor(ctx, ds, plan)",
		New:  "v, err := planast.Validate(plan, ds.snap, planast.Options{})",
		Pkgs: []string{"./engine/app"}, Run: "TestCachedPlanFilteredPerCaller",
	},
	{
		Name: "cache-key-no-schema-version",
		File: "engine/cache.go",
		Old:  "SchemaVersion: ds.version,",
		New:  `SchemaVersion: "",`,
		Pkgs: []string{"./engine/app"}, Run: "TestSchemaChangeInvalidatesCachedPlans",
	},
	{
		Name: "approve-own-request",
		File: "engine/approvals.go",
		Old:  `if me != "" && me == a.User {`,
		New:  `if false && me == a.User {`,
		Pkgs: []string{"./engine/app"}, Run: "TestApprovalsFourEyes",
	},
	{
		Name: "run-others-approval",
		File: "engine/approvals.go",
		Old:  "if e.caller(ctx).Identity().User != a.User {",
		New:  "if false {",
		Pkgs: []string{"./engine/app"}, Run: "TestApprovalsFourEyes",
	},
	{
		Name: "scale-no-access-check",
		File: "engine/scale_candidates.go",
		Old:  "if v, perr = s.e.validateFor(ctx, s.ds, plan); perr == nil {",
		New:  "if v, perr = planast.Validate(plan, s.ds.snap, planast.Options{}); perr == nil {",
		Pkgs: []string{"./engine"}, Run: "TestScaleCandidatesPassAccessAndRowFilters",
	},
	{
		Name: "scale-sequential",
		File: "engine/scale.go",
		Old:  "g.SetLimit(s.cfg.Concurrency)",
		New:  "g.SetLimit(1)",
		Pkgs: []string{"./engine"}, Run: "TestScaleConcurrencyBoundAndTemperature",
	},
	{
		Name: "scale-unbounded",
		File: "engine/scale.go",
		Old:  "g.SetLimit(s.cfg.Concurrency)",
		New:  "g.SetLimit(-1)",
		Pkgs: []string{"./engine"}, Run: "TestScaleConcurrencyBoundAndTemperature",
	},
	{
		Name: "scale-temperature-dropped",
		File: "engine/scale_candidates.go",
		Old:  "req.Temperature = c.temp",
		New:  "_ = c.temp",
		Pkgs: []string{"./engine"}, Run: "TestScaleConcurrencyBoundAndTemperature",
	},
	{
		Name: "audit-no-user-roles",
		File: "engine/extend.go",
		Old:  "User: id.User, Roles: id.Roles, Datasource: tr.t.Datasource,",
		New:  "User: id.User[:0], Roles: nil, Datasource: tr.t.Datasource,",
		Pkgs: []string{"./engine/app"}, Run: "TestAuditLinesCarryUserAndRoles",
	},
	{
		Name: "layers-unsorted",
		File: "engine/decompose_check.go",
		Old:  "\t\tsort.Strings(ready)\n",
		New:  "\n",
		Pkgs: []string{"./engine"}, Run: "TestDecompositionLayersDeterministic",
	},
	// SQL text
	{
		Name: "gate-no-parenthesis",
		File: "engine/source/statement.go",
		Old:  `for k < len(code) && code[k].Kind == sqlscan.Op && code[k].Text == "(" {`,
		New:  `for false {`,
		Pkgs: []string{"./render", "./curated"}, Run: "TestGateAcceptsGoldenAndCorpusPlans|TestValidateIsWhatRuns",
	},
	{
		Name: "gate-any-keyword",
		File: "engine/source/statement.go",
		Old:  "case !readKeywords[shape.Keyword]:",
		New:  "case false:",
		Pkgs: []string{"./engine/source"}, Run: "TestCheckStatementRefusesUnscannable|TestShapeOfPostgres",
	},
	{
		Name: "gate-second-statement-ignored",
		File: "engine/source/statement.go",
		Old:  "\t\t\ts.Multiple = true\n",
		New:  "\t\t\ts.Multiple = false\n",
		Pkgs: []string{"./engine/source"}, Run: "TestShapeOf",
	},
	{
		Name: "curated-validate-skips-gate",
		File: "curated/check.go",
		Old:  "if se := source.CheckStatement(q.dialect, placeholders(q.prep.parse, q.dialect)); se != nil {",
		New:  "if se := (*source.Error)(nil); se != nil {",
		Pkgs: []string{"./curated"}, Run: "TestValidateIsWhatRuns",
	},
	{
		Name: "sqlscan-sqlite-divergence-ignored",
		File: "internal/sqlscan/scan.go",
		Old:  "if err := sqliteDivergence(t); err != nil {",
		New:  "if err := sqliteDivergence(t); err != nil && false {",
		Pkgs: []string{"./internal/sqlscan", "./engine/source"}, Run: "TestScanRefuses|TestCheckStatementRefusesUnscannable",
	},
}
