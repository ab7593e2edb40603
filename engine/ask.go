package engine

import (
	"context"
	"strings"
	"unicode/utf8"
)

// MaxQuestionBytes bounds a question's size.
const MaxQuestionBytes = 4096

// AskRequest is one question, optionally pinned to a datasource.
type AskRequest struct {
	Question   string
	Datasource string
}

// Ask answers a question: resolve the datasource, build the schema context,
// plan (with bounded repair), validate, render, execute, summarise. Each
// step reads the previous step's output value. Errors are *Error.
func (e *Engine) Ask(ctx context.Context, req AskRequest) (*Result, error) {
	q := strings.TrimSpace(req.Question)
	switch {
	case q == "":
		return nil, Errorf(CodeInvalidRequest, "ask a question in words, e.g. \"How many customers are there in each country?\"", "the question is empty")
	case len(q) > MaxQuestionBytes:
		return nil, Errorf(CodeInvalidRequest, "shorten the question", "the question is %d bytes; the limit is %d", len(q), MaxQuestionBytes)
	case !utf8.ValidString(q) || strings.ContainsRune(q, 0):
		return nil, Errorf(CodeInvalidRequest, "send the question as UTF-8 text", "the question is not valid text")
	}
	ds, err := e.resolve(ctx, req.Datasource)
	if err != nil {
		return nil, err
	}
	sctx := e.retrieve(ds)
	planned, err := e.planValidated(ctx, ds, q, sctx)
	if err != nil {
		return nil, err
	}
	sql, err := e.render(ds, planned)
	if err != nil {
		return nil, err
	}
	rows, err := e.execute(ctx, ds, sql)
	if err != nil {
		return nil, err
	}
	applyPlanTypes(rows, planned.types)
	res := &Result{
		Question:    q,
		Columns:     rows.Columns,
		ColumnTypes: rows.ColumnTypes,
		Rows:        rows.Rows,
		RowCount:    len(rows.Rows),
		Truncated:   rows.Truncated,
		SQL:         sql,
		Plan:        planned.plan,
		Usage:       planned.usage,
		Warnings:    []string{},
		SubQueries: []SubQuery{{
			Datasource: ds.spec.ID, Dialect: ds.src.Dialect(), Intent: q, Plan: planned.plan, SQL: sql,
			PlanSource: planned.source, Reasoning: planned.reasoning, Attempts: planned.attempts,
			RowCount: len(rows.Rows), Truncated: rows.Truncated,
		}},
	}
	if res.Rows == nil {
		res.Rows = [][]any{}
	}
	if rows.Truncated {
		res.Warnings = append(res.Warnings, "the result was cut at the row limit; ask for fewer rows or add a filter")
	}
	res.Answer = summarise(res)
	return res, nil
}
