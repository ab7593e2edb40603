package joins

// maxBridgeHops bounds a join path added to connect a table: at most this
// many joins, so at most maxBridgeHops-1 bridge tables per connection.
const maxBridgeHops = 3

// Expand connects seed tables (best first) through the join graph: the
// first seed is kept; each later one is joined to the tables kept so far by
// a shortest path (breadth-first over allowed tables, neighbours in table
// order, so the path is deterministic) of at most maxBridgeHops joins,
// whose inner tables are added as bridges. A seed with no such path is kept
// on its own. A seed whose path would exceed maxTables is skipped. It
// returns the kept tables and which of them are bridges.
func Expand(g [][]Edge, seeds []int, ok []bool, maxTables int) (kept []int, bridge map[int]bool) {
	in := map[int]bool{}
	bridge = map[int]bool{}
	for _, s := range seeds {
		if in[s] {
			bridge[s] = false
			continue
		}
		if len(kept) >= maxTables {
			break
		}
		path := shortestPath(g, s, in, ok)
		if len(kept)+1+len(path) > maxTables {
			continue
		}
		kept = append(kept, s)
		in[s] = true
		for _, b := range path {
			if !in[b] {
				kept = append(kept, b)
				in[b] = true
				bridge[b] = true
			}
		}
	}
	return kept, bridge
}

// shortestPath returns the inner tables of a shortest path from s to any
// table of target (nil when s connects directly, or when no path of at
// most maxBridgeHops joins exists, or target is empty).
func shortestPath(g [][]Edge, s int, target map[int]bool, ok []bool) []int {
	if len(target) == 0 {
		return nil
	}
	prev := map[int]int{s: -1}
	frontier := []int{s}
	for hop := 1; hop <= maxBridgeHops; hop++ {
		var next []int
		for _, u := range frontier {
			for _, e := range g[u] {
				v := e.To
				if _, seen := prev[v]; seen {
					continue
				}
				if target[v] {
					var path []int
					for w := u; w != s; w = prev[w] {
						path = append(path, w)
					}
					return path
				}
				if !ok[v] {
					continue
				}
				prev[v] = u
				next = append(next, v)
			}
		}
		frontier = next
	}
	return nil
}
