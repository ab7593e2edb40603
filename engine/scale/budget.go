package scale

import (
	"sync"

	"github.com/nl2sql/nl2sql/engine/llm"
	"github.com/nl2sql/nl2sql/index/schemactx"
)

// Per-message and per-reply framing tokens of the chat format, as OpenAI's
// cookbook counts them for its chat models ("How to count tokens with
// tiktoken"): every message costs 3 tokens besides its content, every reply
// is primed with 3.
const (
	tokensPerMessage = 3
	tokensPerReply   = 3
)

// estimateInput is a call's input tokens in o200k_base (schemactx.ContextTokens):
// the messages with their framing, plus the answer's JSON Schema, which
// structured-output providers send with the prompt.
func estimateInput(req llm.Request) int {
	n := tokensPerReply
	for _, m := range req.Messages {
		n += tokensPerMessage + schemactx.ContextTokens(m.Role) + schemactx.ContextTokens(m.Content)
	}
	return n + schemactx.ContextTokens(string(req.Schema))
}

// tokenBudget is the token allowance of one scaled question. A call reserves
// its estimated input plus its output cap before it is sent; when the
// provider reports its usage the reservation is settled to what was used
// (never below it), so the sum of used tokens never exceeds the limit as
// long as the provider honours the output cap and counts input as
// o200k_base does. Safe for concurrent use.
type tokenBudget struct {
	mu       sync.Mutex
	limit    int
	reserved int // outstanding reservations plus settled usage
	refused  int
}

// reserve takes n tokens, or reports false when they do not fit.
func (b *tokenBudget) reserve(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reserved+n > b.limit {
		b.refused++
		return false
	}
	b.reserved += n
	return true
}

// settle replaces a reservation of n tokens by the used ones. A call
// without a response is never settled: its reservation stays spent.
func (b *tokenBudget) settle(n int, used llm.Usage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved += used.InputTokens + used.OutputTokens - n
}

// BudgetReport is the token budget's account in a Report: the limit,
// the tokens the calls used (as providers reported them, plus the whole
// reservation of a call that failed without a report), and how many calls
// were not sent because their reservation did not fit.
type BudgetReport struct {
	Limit   int `json:"limit"`
	Used    int `json:"used"`
	Refused int `json:"refused_calls"`
}
