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
}
