// Package joins owns how the tables of a snapshot join: Graph builds the
// undirected join graph from the declared foreign keys, and infers keys
// and joins from names (and a first column profiling found unique) where
// a schema declares none, or for a table no declared key touches;
// Referencing marks the columns that join another table and are not their
// table's key; Expand connects seed tables through the graph by shortest
// join paths, adding the tables on the way as bridges. ColumnIndex and
// KeyWord are the two small name rules package index shares with it.
//
// It never ranks, reads a question or decides which tables are seeds,
// and never looks at access control beyond the ok slice Expand is given
// (a denied table is never a bridge): package index picks the seeds and
// keeps the columns. Everything here is a pure function of the snapshot,
// with edges sorted by (To, Cols), so the same snapshot gives the same
// graph and the same bridges.
//
// Worked example: a snapshot of cards(id, name, setCode) and sets(id,
// code) with no foreign keys declared:
//
//	g, keys, inferred := joins.Graph(snap)
//	// inferred: true; keys: [[0] [0]] (each table's "id")
//	// g[0]: {To: 1, Cols: ["setCode"], RefCols: ["code"], Inferred: true}
//	//       (a column named as another table, singular, plus a key word),
//	//       and g[1] the same join seen from sets
//	ref := joins.Referencing(snap, g, keys) // cards.setCode and sets.code
//	kept, bridge := joins.Expand(g, []int{0, 1}, []bool{true, true}, 8)
//	// kept [0 1], no bridge: the two tables join directly
package joins
