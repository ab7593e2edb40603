package evalret

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nl2sql/nl2sql/index"
)

// TestTuningSweep (opt-in: NL2SQL_RETRIEVAL_SWEEP=1) prints recall and
// column share of the selection constants over a grid, on the tuning half
// of Spider and BIRD only: the held-out half is never swept, so its
// figures say how the chosen constants do on schemas nobody tuned for.
//
//	NL2SQL_RETRIEVAL_SWEEP=1 go test ./internal/evalret -run TestTuningSweep -v -timeout 30m
func TestTuningSweep(t *testing.T) {
	if os.Getenv("NL2SQL_RETRIEVAL_SWEEP") == "" {
		t.Skip("set NL2SQL_RETRIEVAL_SWEEP=1 to sweep the selection constants on the tuning half")
	}
	dir := sharedDir(t)
	sets := []Config{
		{Dataset: "spider", Questions: filepath.Join(dir, "eval", "spider", "dev.json"), DBRoot: filepath.Join(dir, "eval", "spider", "database")},
		{Dataset: "bird", Questions: filepath.Join(dir, "eval", "bird-minidev", "mini_dev_sqlite.json"), DBRoot: filepath.Join(dir, "eval", "bird-minidev", "database")},
	}
	for _, fill := range []float64{0.2, 0.3, 0.45} {
		for _, colScale := range []float64{1, 1.5, 2} {
			for _, minCols := range []int{1, 2} {
				tun := index.DefaultTuning
				tun.FillShare, tun.ColumnDocScale, tun.MinColumns = fill, colScale, minCols
				line := fmt.Sprintf("fill %.2f col %.1f min %d:", fill, colScale, minCols)
				for _, cfg := range sets {
					cfg.Split, cfg.Tuning = SplitTuning, tun
					rep, err := Run(context.Background(), cfg)
					if err != nil {
						t.Fatal(err)
					}
					line += fmt.Sprintf("  %s table %.3f column %.3f share %.3f", cfg.Dataset, rep.TableRecall, rep.ColumnRecall, rep.ColumnShare)
				}
				t.Log(line)
			}
		}
	}
}
