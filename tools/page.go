package tools

import mcpgo "github.com/mark3labs/mcp-go/mcp"

// fitPage is the result holding the most leading items (at most avail)
// that fits budget, and how many it holds: build(n) makes the result of
// the first n items, cost(i) estimates item i's tokens over build(0).
// Items are counted once each, up to the first past the budget; the
// assembled result is then counted to verify and cut further in the rare
// case the estimate was short. When not even one item fits it is
// RESULT_TOO_LARGE.
func fitPage(avail int, cost func(i int) int, build func(n int) *mcpgo.CallToolResult, budget int) (*mcpgo.CallToolResult, int) {
	full := build(avail)
	if ok, _ := fits(full, budget); ok {
		return full, avail
	}
	if avail == 0 {
		_, got := fits(full, budget)
		return tooLarge(got, budget), 0
	}
	used, n := sentTokens(build(0))+50, 0 // 50: the cursor and the page line the cut adds
	for n < avail {
		c := cost(n)
		if used+c > budget {
			break
		}
		used += c
		n++
	}
	// a page of no items would give the client its own cursor back: when
	// not even one item fits, the request is too large
	n = max(n, 1)
	for ; ; n-- {
		res := build(n)
		ok, got := fits(res, budget)
		if ok {
			return res, n
		}
		if n == 1 {
			return tooLarge(got, budget), 0
		}
	}
}
