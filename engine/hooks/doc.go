// Package hooks runs operators' rules at fixed points of a run, with a
// fixed table of what each point may decide, so that no rule can open a
// path around validation and access control.
//
//	point              may decide                      the engine then
//	before_run         allow, deny, rewrite            asks the rewritten question
//	after_resolution   allow, deny, narrow             re-checks the subset against scope
//	after_planning     allow, deny, modify             validates the new plan for the caller;
//	                                                   the plan cache keeps the planner's plan
//	before_execution   allow, deny, require_approval   stores the run, answers NEEDS_APPROVAL
//	after_execution    allow, deny                     (row count and columns only, never rows)
//	after_answer       allow, deny
//
// Every way to the database passes these points in this order (engine):
//
//	ask, run_plan, run_verified_query, run_approved   all six
//	ask with test-time scaling                        before_run, after_resolution; each candidate
//	                                                  after_planning and before_execution before it
//	                                                  runs, after_execution before a model reads its
//	                                                  rows; after_answer for the answer
//	explain, check_plan                               before_run, after_resolution, after_planning
//	                                                  (they run nothing: no execution points)
//
// run_plan takes no planning step: its supplied plan meets after_planning
// as a planner's would. run_plan, check_plan and run_verified_query have
// no question (Input.Question is a stand-in such as "(supplied plan)"), so
// before_run may deny them (a time window does) but a rewrite refuses.
//
// A decision outside the table, a hook error, a panic or a timeout denies
// (fail closed); an entry with OnErrorOpen (on_error: open) turns only
// errors and timeouts into allow. Hooks run in configuration order, each
// on its own deep copy of the Input; a deny stops the run with a
// *DeniedError whose Reason is for operators (logs, events, audit) and
// never reaches the caller.
//
// Two kinds: Rule (built in: question patterns, time window, denied tables
// and columns, approval tables, row caps per role) and HTTP (an external
// hook in any language: the Input is POSTed as JSON with an
// X-NL2SQL-Signature: sha256=<hex HMAC-SHA256 of the body> header; the
// answer is a Decision as JSON). In nl2sql.yaml:
//
//	hooks:
//	  - name: no_salaries
//	    rule: {question_patterns: ["(?i)salar"], deny_tables: [hr.public.salaries]}
//	  - name: payroll_needs_approval
//	    rule: {approval_tables: [hr.public.payroll], row_caps: {analyst: 500}, window: "07:00-19:00"}
//	  - name: tenant_filter
//	    points: [after_planning]
//	    http: {url: "http://127.0.0.1:9000/hook", secret: "${env:HOOK_SECRET}"}
//	    timeout_ms: 500
//	    on_error: closed
//	approvals: {approver_roles: [admin]}
//
// A worked example, the runner with one rule:
//
//	rule := &hooks.Rule{DenyTables: []string{"chinook.main.Invoice"}}
//	r, _ := hooks.NewRunner([]hooks.Entry{{Name: "no_invoices", Points: rule.Points(), Hook: rule}}, nil)
//	_, err := r.Run(ctx, hooks.AfterPlanning, hooks.Input{Tables: []string{"chinook.main.Invoice"}})
//	// err is *hooks.DeniedError{Point: "after_planning", Hook: "no_invoices",
//	//   Reason: "the plan reads table chinook.main.Invoice"}
//
// An external hook answering {"decision": "modify", "plan": {...}} at
// after_planning has its plan decoded and validated for the caller like a
// planner's: a plan reaching a table the caller may not read is refused.
package hooks
