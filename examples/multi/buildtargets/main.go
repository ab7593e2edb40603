// Command buildtargets builds examples/multi/targets.duckdb from
// targets.sql (run from the repository root; -o names another file).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/nl2sql/nl2sql/examples/multi"
)

func main() {
	out := flag.String("o", "examples/multi/targets.duckdb", "the database file to create")
	force := flag.Bool("f", false, "replace the file if it exists")
	flag.Parse()
	if *force {
		os.Remove(*out)
		os.Remove(*out + ".wal")
	}
	if err := multi.BuildTargets(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("wrote", *out)
}
