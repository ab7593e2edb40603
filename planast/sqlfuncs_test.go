package planast

import (
	"regexp"
	"testing"
)

// The advice names only functions the plan language has (a rename there
// would leave it pointing at nothing), and no plan function is given
// advice as if it were missing.
func TestSQLFunctionAdviceNamesRealFunctions(t *testing.T) {
	called := regexp.MustCompile(`\b([A-Z][A-Z_]+)\(`)
	for name, advice := range sqlFuncAdvice {
		if _, ok := LookupFunc(name); ok {
			t.Errorf("%s is a plan function and gets advice %q", name, advice)
		}
		for _, m := range called.FindAllStringSubmatch(advice, -1) {
			if _, ok := LookupFunc(m[1]); !ok {
				t.Errorf("%s: the advice %q names %s, which the plan language lacks", name, advice, m[1])
			}
		}
	}
	if len(sqlFuncAdvice) < 50 {
		t.Errorf("only %d functions advised", len(sqlFuncAdvice))
	}
}
