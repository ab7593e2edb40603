package result

import "github.com/nl2sql/nl2sql/engine/scale"

// WithScaling puts a scaling report into r, with the warnings it earns
// (scale.Report.Warnings), and returns r; a nil r or report changes
// nothing.
func (r *Result) WithScaling(rep *scale.Report) *Result {
	if r != nil && rep != nil {
		r.Scaling = rep
		r.Warnings = append(r.Warnings, rep.Warnings()...)
	}
	return r
}
